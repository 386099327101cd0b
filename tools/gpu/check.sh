# tools/gpu.sh's parts that check: tests, suite, sanitize, bench (sourced; see tools/gpu.sh).
#   tests     ctest -L gpu (copy); each GPU test again in the other MEMORY modes; then
#             noalloc.noalloc, e2e.daemon and e2e.same_map
#   suite     the whole ctest suite, 16 at a time
#   sanitize  compute-sanitizer memcheck and racecheck (racecheck on the tiny cases) of every
#             GPU test in each MEMORY mode; SANITIZE_TOOLS narrows the tools
#   bench     jetdepth bench --backend cuda (CPU=1: and cpu), the cases of docs/perf.md

part_tests() {
	ctest --test-dir build/gpu -L gpu --output-on-failure >"$out/gpu-copy.log" 2>&1
	grep -E "Test *#|tests passed" "$out/gpu-copy.log"
	for m in $memory; do
		[ "$m" = copy ] && continue
		for t in $(gpu_tests); do
			gpu_run "$m" 400 build/gpu/tests/test_cuda_$t >"$out/$m-$t.log" 2>&1
			echo "test_cuda_$t, $m: exit $?; $(tail -1 "$out/$m-$t.log")"
		done
	done
	ctest --test-dir build/gpu -R "^(noalloc\.noalloc|e2e\.daemon|e2e\.same_map)$" \
		--output-on-failure 2>&1 | grep -E "Test *#|tests passed"
}

part_suite() {
	ctest --test-dir build/gpu -j16 --output-on-failure >"$out/suite.log" 2>&1
	grep -E "tests passed|Failed|\(Timeout\)" "$out/suite.log"
}

part_sanitize() {
	for m in $memory; do
		for t in $(gpu_tests); do
			for tool in ${SANITIZE_TOOLS:-memcheck racecheck}; do
				quick=1
				[ $tool = racecheck ] && quick=tiny
				JD_GPU_QUICK=$quick gpu_run "$m" 300 compute-sanitizer --tool $tool \
					--error-exitcode 3 build/gpu/tests/test_cuda_$t \
					>"$out/$tool-$m-$t.log" 2>&1
				echo "$tool test_cuda_$t, $m: exit $?; $(tail -1 "$out/$tool-$m-$t.log")"
			done
		done
	done
}

part_bench() {
	local bes=cuda
	[ -n "${CPU:-}" ] && bes="cuda cpu"
	for be in $bes; do
		runs=21
		[ $be = cpu ] && runs=5
		for c in "sad 640x480 64" "sad 1280x720 128" "sgm 450x375 64" "sgm 1280x720 128" \
			"sgm 1920x1080 256" "bp 450x375 64" "bp 900x750 128" "bp --fp16 450x375 64" \
			"bp --fp16 900x750 128"; do
			set -- $c
			algo=$1 fp=
			shift
			[ "$1" = --fp16 ] && { fp=--fp16; shift; }
			$b bench --algo $algo $fp --size $1 --ndisp $2 --runs $runs --backend $be 2>&1 |
				grep -v '^matcher'
		done
	done
}
