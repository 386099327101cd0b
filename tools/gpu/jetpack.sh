# tools/gpu.sh's part jetpack (sourced; see tools/gpu.sh): the boards' own code on the GPU
# machine, from fatbins built on the CPU machine by the boards' toolkits (carry .gpufat):
#   .gpufat/fat87.fatbin   CUDA 11.8's sm_87 cubin and compute_87 PTX: the JetPack 5/6 Orin
#                          image; here the driver JITs the PTX (no DPX hardware used)
#   .gpufat/fat90.fatbin   CUDA 11.8's sm_90 cubin: the old toolkit's output, tested here
#   .gpufat/fat13.fatbin   CUDA 13's sm_90 cubin: today's H100/H200 build
#   .gpufat/fat87f.fatbin  fat87 with the chain in f16x2 minima (-DJD_NVCC_FLAGS=
#                          -DJD_CUDA_F16_CHAIN=1 in build/fat87f): to be tested and timed
# Made here by: cmake -S . -B build/fatNN -DJD_WITH_CUDA=ON -DJD_CUDA_ONLY_ARCH=NN
#   -DJD_NVCC_LEGACY=build/toolkits/cuda-11.8/bin/nvcc -DJD_NVCC_LEGACY_ARCHS=NN (13: without
#   the legacy options) && ninja -C build/fatNN kernels.fatbin
# BUILDS: the fatbins built (default "fat87 fat90 fat13").
# STEPS (default "tests bench"): tests (ctest -L gpu on fat90, or with FULL=0 its SGM test
# alone; the SGM test on fat87 and fat13),
# bench (SGM on BENCH_BUILDS, default "fat87 fat13", beside libSGM, CASES, 8 and 4 paths),
# ncu (instructions and
# DRAM bytes of a whole frame, fat87 and libSGM, NCU_CASES), sanitize (memcheck and
# racecheck of the SGM test on fat87), memory (the GPU memory boot takes, MEM_CASES), ab
# (AB="fat87 fat87f": variants' fatbins built here, timed in turn, their SGM test and ncu).

jp_build() { # NAME FATBIN
	gpu_build "$1" . "build/gpu-$1" "-DJD_FATBIN_PREBUILT=$PWD/$2"
}

part_jetpack() {
	local steps=${STEPS:-tests bench}
	local cases=${CASES:-"450x375:64 640x480:64 1242x375:128 1280x720:128 1920x1080:128 1920x1080:256"}
	for b in ${BUILDS:-fat87 fat90 fat13}; do
		jp_build $b .gpufat/$b.fatbin &
	done
	wait
	for s in $steps; do
		echo "== $s"
		case $s in
		tests)
			if [ "${FULL:-1}" = 1 ]; then
				ctest --test-dir build/gpu-fat90 -L gpu --timeout 300 2>&1 | tail -25
			else # the SGM test alone (FULL=0: a short call)
				timeout 300 build/gpu-fat90/tests/test_cuda_sgm 2>&1 | tail -3
			fi
			echo "-- the SGM test on the sm_87 image (compute_87 PTX, JIT here)"
			timeout 300 build/gpu-fat87/tests/test_cuda_sgm 2>&1 | tail -4
			echo "-- the SGM test on CUDA 13's sm_90 image"
			timeout 300 build/gpu-fat13/tests/test_cuda_sgm 2>&1 | tail -3
			;;
		bench)
			for c in $cases; do
				for paths in 8 4; do
					for b in ${BENCH_BUILDS:-fat87 fat13}; do
						build/gpu-$b/jetdepth bench --algo sgm --size ${c%:*} --ndisp ${c#*:} \
							--paths $paths --runs 21 --backend cuda 2>&1 | grep 'GPU kernels' |
							sed "s/^/$b $c p$paths /"
					done
				done
			done
			mkdir -p /tmp/pairs && : >/tmp/pairs/cases.txt
			for c in $cases; do
				sz=${c%:*}; nd=${c#*:}
				build/gpu-fat13/jetdepth synth /tmp/pairs/$sz-$nd-l.pgm /tmp/pairs/$sz-$nd-r.pgm --size $sz --ndisp $nd >/dev/null
				echo "c$sz-$nd ${sz%x*} ${sz#*x} $nd /tmp/pairs/$sz-$nd-l.pgm /tmp/pairs/$sz-$nd-r.pgm" >>/tmp/pairs/cases.txt
			done
			.gpupeers/libsgm_bench bench /tmp/pairs/cases.txt 5 21 /tmp/libsgm.csv 2>&1 | grep -v h2h
			;;
		ncu)
			for c in ${NCU_CASES:-1280x720:128 1920x1080:256}; do
				sz=${c%:*}; nd=${c#*:}
				build/gpu-fat13/jetdepth synth /tmp/l.pgm /tmp/r.pgm --size $sz --ndisp $nd >/dev/null
				timeout 150 ncu --csv --print-units base --metrics smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum \
					build/gpu-fat87/jetdepth bench --algo sgm --size $sz --ndisp $nd --paths 8 --runs 1 \
					--backend cuda >/tmp/ncu-87.csv 2>&1
				# bench runs the frame more than once: per kernel name, the mean of its launches
				awk -F'","' -v n="jetdepth-sm87 $c" '/jd_/ { v = $NF; gsub(/[",]/, "", v); k[$5 " " $(NF-2)] += v; m[$5 " " $(NF-2)]++ }
					END { for (i in k) printf "%s %-50s %16.0f x%d\n", n, i, k[i] / m[i], m[i] }' /tmp/ncu-87.csv | sort
				timeout 100 ncu --csv --print-units base --metrics smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum \
					--profile-from-start off .gpupeers/libsgm_bench one /tmp/l.pgm /tmp/r.pgm $nd 8 3 >/tmp/ncu-sgm.csv 2>&1
				awk -F'","' -v n="libSGM $c" 'NR > 1 && /"[0-9]+"$/ { v = $NF; gsub(/[",]/, "", v); t[$(NF-2)] += v }
					END { for (i in t) printf "%s total %-30s %16.0f\n", n, i, t[i] }' /tmp/ncu-sgm.csv | sort
			done
			;;
		sanitize)
			for tool in memcheck racecheck; do
				quick=1; [ $tool = racecheck ] && quick=tiny
				JD_GPU_QUICK=$quick timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 \
					build/gpu-fat87/tests/test_cuda_sgm >/tmp/$tool.log 2>&1
				echo "compute-sanitizer $tool test_cuda_sgm (sm_87 image): exit $?"; tail -2 /tmp/$tool.log
			done
			;;
		ab)
			# AB="NAME ...": .gpufat/NAME.fatbin each (a variant built here), timed case by case
			# in turn at PATHS (default 8), its SGM test, and ncu's SGM instructions a frame
			for n in $AB; do
				[ -d build/gpu-$n ] || jp_build "$n" ".gpufat/$n.fatbin"
				echo "-- $n: $(timeout 300 build/gpu-$n/tests/test_cuda_sgm 2>&1 | grep -E 'cases|checks' | tr '\n' ' ')"
			done
			for c in $cases; do
				for n in $AB; do
					build/gpu-$n/jetdepth bench --algo sgm --size ${c%:*} --ndisp ${c#*:} \
						--paths ${PATHS:-8} --runs 21 --backend cuda 2>&1 | grep 'GPU kernels' |
						sed "s/^/$n $c p${PATHS:-8} /" | cut -c1-110
				done
			done
			[ "${AB_NCU:-1}" = 1 ] && for n in $AB; do # AB_NCU=0: no ncu (a short call)
				timeout 150 ncu --csv --print-units base --metrics smsp__inst_executed.sum -k regex:jd_sgm \
					build/gpu-$n/jetdepth bench --algo sgm --size 1280x720 --ndisp 128 --paths ${PATHS:-8} \
					--runs 1 --backend cuda >/tmp/ab-$n.csv 2>&1
				awk -F'","' -v n="$n" '/jd_sgm/ { v = $NF; gsub(/[",]/, "", v); k[$5] += v; m[$5]++ }
					END { for (i in k) printf "%s 1280x720/128 %-24s %14.0f a launch\n", n, i, k[i] / m[i] }' /tmp/ab-$n.csv | sort
			done
			;;
		memory)
			for c in ${MEM_CASES:-1280x720:128 1920x1080:256}; do
				for paths in 8 4; do
					echo "-- $c, $paths paths"
					build/gpu-fat87/jetdepth run --frames 2 --size ${c%:*} --ndisp ${c#*:} --paths $paths \
						--backend cuda 2>&1 | grep -iE 'gpu|device|total' | head -12
				done
			done
			;;
		esac
	done
}
