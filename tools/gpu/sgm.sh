# tools/gpu.sh's part sgm (sourced; see tools/gpu.sh).
# SGM kernel variants (nvcc -D switches of sgm_cuda.cu) built side by side
# and timed case by case in turn, beside libSGM on the same pairs, with ncu's DRAM bytes of each.
# VARIANTS: "name:flags[:VAR=value] ..." with nvcc flags comma-separated, and an environment
# setting its runs take; flags "@DIR" build another source tree instead, e.g. an earlier commit's
# whole tree (host code too) unpacked into the git-ignored .gpuold/ and carried:
#   rm -rf .gpuold/main && mkdir -p .gpuold/main && git archive HEAD | tar -x -C .gpuold/main
# The commit before, as variant "prev:-DJD_SGM_PREV": first, here,
#   git show HEAD:algo/cuda/sgm_cuda.cu | sed 's|#include "\.\./\([^"]*/\)\{0,1\}\([^/"]*\)"|#include "\2"|' \
#     >algo/cuda/sgm_cuda_prev.cu
# (git-ignored, so name it in the call's carry; its headers by file name alone, which nvcc's
# include path finds wherever a commit kept them).
# SM87=1: also the sm_87 build (its PTX, run through the driver's JIT): the SGM test and its bytes.
# PROBE="variant ...": ncu's instructions and time of each SGM kernel (a frame of PROBE_CASE,
# size:ndisp:paths, 1280x720:128:8 unless set), variant by variant.
# The lane shape (JD_SGM_LANE_DISPARITIES) is a variant's environment, e.g. "k8:::JD_SGM_LANE_DISPARITIES=8".

part_sgm() {
	variants=${VARIANTS:-"prev:-DJD_SGM_PREV new:"}
	cases=${CASES:-"1280x720:128 1920x1080:128 1920x1080:256"}
	for v in $variants; do
		n=${v%%:*}; f=$(echo "${v#*:}" | cut -d: -f1 | tr , ' '); src=.
		case $f in @*) src=${f#@}; f= ;; esac
		gpu_build "gpu-$n" "$src" "build/gpu-$n" "-DJD_NVCC_FLAGS=$f" || echo "build $n failed" &
	done
	[ -n "${SM87:-}" ] && ARCH=87 gpu_build gpu-87 . build/gpu-87 &
	wait
	envof() { for v in $variants; do [ "${v%%:*}" = "$1" ] && echo "$v" | cut -s -d: -f3; done; }
	for n in ${TESTS:-}; do
		echo "== SGM test, $n"
		env $(envof $n) timeout 300 build/gpu-$n/tests/test_cuda_sgm 2>&1 | tail -4
	done | tee "$out/tests.log"
	echo "== bench: each case, every variant in turn"
	for c in $cases; do
		for paths in 8 4; do
			for v in $variants; do
				n=${v%%:*}
				env $(envof $n) build/gpu-$n/jetdepth bench --algo sgm --size ${c%:*} --ndisp ${c#*:} --paths $paths \
					--runs 21 --backend cuda 2>&1 | grep -E 'GPU kernels' | sed "s/^/$n $c p$paths /"
			done
		done
	done | tee "$out/variants.log"
	[ "${PEER:-1}" = 1 ] && {
	echo "== libSGM on the same sizes"
	mkdir -p /tmp/pairs && : >/tmp/pairs/cases.txt
	for c in $cases; do
		s=${c%:*}; nd=${c#*:}; w=${s%x*}; h=${s#*x}
		build/gpu-${variants%%:*}/jetdepth synth /tmp/pairs/$s-$nd-l.pgm /tmp/pairs/$s-$nd-r.pgm --size $s --ndisp $nd >/dev/null
		echo "c$s-$nd $w $h $nd /tmp/pairs/$s-$nd-l.pgm /tmp/pairs/$s-$nd-r.pgm" >>/tmp/pairs/cases.txt
	done
	.gpupeers/libsgm_bench bench /tmp/pairs/cases.txt 5 21 /tmp/libsgm.csv 2>&1 | grep -v h2h | tee "$out/peer.log"
	}
	echo "== ncu DRAM bytes (sums over the frames bench runs: census counts them, two a frame)"
	for v in ${NCU_VARIANTS:-$variants}; do
		n=${v%%:*}
		for c in ${NCU_CASES:-1280x720:128:8}; do
		s=${c%%:*}; r=${c#*:}; nd=${r%:*}; paths=${r#*:}
		env $(envof $n) ncu --csv --print-units base --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
			build/gpu-$n/jetdepth bench --algo sgm --size $s --ndisp $nd --paths $paths --runs 1 \
			--backend cuda >/tmp/ncu-$n.csv 2>&1
		awk -F'","' -v n="$n $c" '/jd_sgm|jd_census/ { v = $NF; gsub(/[",]/, "", v); k[$5 " " $(NF-2)] += v }
			END { for (i in k) printf "%s %-40s %14.0f\n", n, i, k[i] }' /tmp/ncu-$n.csv | sort
		done
	done | tee "$out/ncu.log"
	if [ -n "${SM87:-}" ]; then
		echo "== sm_87 build (compute_87 PTX, JIT here): SGM test, time and bytes"
		timeout 400 build/gpu-87/tests/test_cuda_sgm 2>&1 | tail -6 | tee "$out/test87.log"
		build/gpu-87/jetdepth bench --algo sgm --size 1280x720 --ndisp 128 --paths 8 --runs 21 \
			--backend cuda 2>&1 | grep -E 'GPU kernels' | sed 's/^/sm87 /'
		ncu --csv --print-units base --metrics dram__bytes_read.sum,dram__bytes_write.sum \
			build/gpu-87/jetdepth bench --algo sgm --size 1280x720 --ndisp 128 --paths 8 --runs 1 \
			--backend cuda >/tmp/ncu-87.csv 2>&1
		awk -F'","' '/jd_sgm|jd_census/ { v = $NF; gsub(/[",]/, "", v); k[$5 " " $(NF-2)] += v }
			END { for (i in k) printf "sm87 %-40s %14.0f\n", i, k[i] }' /tmp/ncu-87.csv | sort
	fi
	if [ -n "${SANITIZE:-}" ]; then
		for tool in memcheck racecheck; do
			quick=1; [ $tool = racecheck ] && quick=tiny
			JD_GPU_QUICK=$quick timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 \
				build/gpu-$SANITIZE/tests/test_cuda_sgm >/tmp/$tool-sgm.log 2>&1
			echo "== compute-sanitizer $tool test_cuda_sgm ($SANITIZE): exit $?"; tail -3 /tmp/$tool-sgm.log
		done | tee "$out/sanitize.log"
	fi
	if [ -n "${PROBE:-}" ]; then
		# ncu's instructions, time and active warps of each SGM kernel, per frame of PROBE_CASE
		c=${PROBE_CASE:-1280x720:128:8}
		s=${c%%:*}; r=${c#*:}; nd=${r%:*}; paths=${r#*:}
		for n in $PROBE; do
			env $(envof $n) ncu --csv --print-units base --metrics smsp__inst_executed.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
				-k regex:jd_sgm build/gpu-$n/jetdepth bench --algo sgm --size $s --ndisp $nd --paths $paths --runs 1 \
				--backend cuda >/tmp/probe-$n.csv 2>&1
			awk -F'","' -v n="$n $c" '/jd_sgm/ { v = $NF; gsub(/[",]/, "", v); k[$5 " " $(NF-2)] += v; m[$5 " " $(NF-2)]++ }
				END { for (i in k) printf "%s %-50s %14.1f\n", n, i, k[i] / m[i] }' /tmp/probe-$n.csv | sort
		done | tee "$out/probe.log"
	fi
	if [ -n "${DEEP:-}" ]; then
		echo "== ncu sections, $DEEP, 1920x1080/128, 4 paths"
		ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
			--section Occupancy --section LaunchStats --section SchedulerStats -k regex:jd_sgm -c 3 \
			build/gpu-$DEEP/jetdepth bench --algo sgm --size 1920x1080 --ndisp 128 --paths 4 --runs 1 \
			--backend cuda >/tmp/ncu-deep.txt 2>&1
		grep -E 'jd_sgm|Duration|Throughput|Registers|Achieved Occ|Theoretical Occ|Hit Rate|Warp Cycles|Issued Warp|No Eligible|Block Limit' /tmp/ncu-deep.txt | head -90
	fi
}
