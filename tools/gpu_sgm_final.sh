#!/bin/sh
# On the GPU machine, one call: the SGM GPU test, jetdepth and libSGM on the same pairs,
# ncu's DRAM bytes a frame, then compute-sanitizer memcheck and racecheck on the SGM test.
# Logs into $OUT (tools/gpu_sgm_try.sh does each part; this orders them by what matters most).
set -u
PARTS="test bench peer ncu" NCU_CASES="1280x720:128:8 1920x1080:256:8 1280x720:128:4 1920x1080:256:4" \
	sh "$(dirname "$0")/gpu_sgm_try.sh" 2>&1 | tee "${OUT:-/tmp/gpu-out}/final.log"
. "$(dirname "$0")/gpu_env.sh"
echo "== the other shape (JD_SGM_LANE_DISPARITIES): 4 a lane for 8 paths, 8 for 4 paths"
for c in 640x480:64 1280x720:128 1920x1080:128; do
	for pk in 8:4 4:8; do
		JD_SGM_LANE_DISPARITIES=${pk#*:} build/gpu/jetdepth bench --algo sgm --size ${c%:*} \
			--ndisp ${c#*:} --paths ${pk%:*} --runs 21 --backend cuda 2>&1 |
			grep -E 'GPU kernels|^sgm' | sed "s/^/k${pk#*:} p${pk%:*} /"
	done
done | tee "$out/shape.log"
for tool in memcheck racecheck; do
	quick=1; [ $tool = racecheck ] && quick=tiny
	JD_GPU_QUICK=$quick timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 \
		build/gpu/tests/test_cuda_sgm >"$out/$tool-sgm.log" 2>&1
	echo "== compute-sanitizer $tool test_cuda_sgm: exit $?"; tail -3 "$out/$tool-sgm.log"
done
