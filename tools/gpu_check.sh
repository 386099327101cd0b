#!/bin/sh
# On the GPU machine (the device tool): build with CUDA, then the parts named in
# JD_CHECK_PARTS (default all): "tests" (ctest -L gpu, then the whole suite), "sanitize"
# (compute-sanitizer memcheck and racecheck on the small cases: JD_GPU_QUICK), "bench" (the
# CUDA and CPU benchmarks). Logs into $OUT. Split the parts over calls to stay inside the
# device tool's 10 minutes a command.
# JD_CMAKE_ARGS adds configure options (e.g. -DJD_CUDA_ONLY_ARCH=90 for a faster build).
# Expects .gpudata (dataset copy) and, where the machine lacks TurboJPEG, .gpudeps (see docs).
set -u
. "$(dirname "$0")/gpu_env.sh"
parts=${JD_CHECK_PARTS:-tests sanitize bench}
# unquoted: JD_CMAKE_ARGS may hold several options
gpu_build ${JD_CMAKE_ARGS:-} || exit 1
grep -q "CUDA kernels: " "$out/build.log" && grep "CUDA kernels: " "$out/build.log"
b=build/gpu/jetdepth
case " $parts " in *" tests "*)
	echo "== ctest -L gpu"; ctest --test-dir build/gpu -L gpu --output-on-failure 2>&1 | tee "$out/gpu.log" | tail -15
	echo "== ctest (all)"; ctest --test-dir build/gpu -j16 --output-on-failure >"$out/all.log" 2>&1; tail -6 "$out/all.log"
esac
case " $parts " in *" sanitize "*)
	for t in ${JD_SANITIZE:-sad sgm bp confidence}; do
		for tool in memcheck racecheck; do
			echo "== compute-sanitizer $tool test_cuda_$t"
			quick=1; [ $tool = racecheck ] && quick=tiny
			JD_GPU_QUICK=$quick timeout 300 compute-sanitizer --tool $tool --error-exitcode 3 \
				build/gpu/tests/test_cuda_$t >"$out/$tool-$t.log" 2>&1
			echo "exit $?"; tail -3 "$out/$tool-$t.log"
		done
	done
esac
case " $parts " in *" bench "*)
	echo "== bench"
	for be in cuda cpu; do
		runs=21; [ $be = cpu ] && runs=5
		$b bench --algo sad --size 640x480 --ndisp 64 --runs $runs --backend $be 2>&1 | grep -v '^matcher'
		$b bench --algo sgm --size 450x375 --ndisp 64 --runs $runs --backend $be 2>&1 | grep -v '^matcher'
		$b bench --algo sgm --size 1280x720 --ndisp 128 --runs $runs --backend $be 2>&1 | grep -v '^matcher'
		$b bench --algo sgm --size 1920x1080 --ndisp 256 --runs $runs --backend $be 2>&1 | grep -v '^matcher'
		for fp in "" --fp16; do
			for s in "384x288 --ndisp 16" "450x375 --ndisp 64" "900x750 --ndisp 128"; do
				$b bench --algo bp $fp --size $s --runs $runs --backend $be 2>&1 | grep -v '^matcher'
			done
		done
	done | tee "$out/bench.log"
esac
