#!/bin/sh
# On the GPU machine (the device tool), the zero-copy path and the loop's CPU budget in
# one call. Builds for sm_90, then the parts in PARTS (default all):
#   tests     ctest -L gpu (copy, the H100's default), then the GPU tests again with
#             JD_GPU_MEMORY=mapped: every map identical to the reference in both modes
#   sanitize  compute-sanitizer memcheck of the SAD, SGM, BP, rectification and confidence
#             tests, mapped; memcheck and racecheck of the confidence test, copy
#   same      `match` on dataset pairs and `run` on the synthetic scene, --gpu-memory copy and
#             mapped: the same maps byte for byte, the same objects in the JSON
#   pipeline  bench --pipeline --backend cuda in both modes: fps, each stage, CPU ms a frame
#             (every thread) and the bytes a frame copies between host and device
# Logs into $OUT. Expects .gpudata (the dataset pairs) and .gpudeps (TurboJPEG, libyaml).
set -u
. "$(dirname "$0")/gpu_env.sh"
parts=${PARTS:-tests sanitize same pipeline}
gpu_build -DJD_CUDA_ONLY_ARCH=90 || exit 1
b=build/gpu/jetdepth
data=${JETDEPTH_DATA:-.gpudata}
case " $parts " in *" tests "*)
	echo "== ctest -L gpu (copy)"
	ctest --test-dir build/gpu -L gpu --output-on-failure >"$out/gpu-copy.log" 2>&1
	tail -4 "$out/gpu-copy.log"
	for t in sad sgm bp rectify confidence; do
		echo "== test_cuda_$t, mapped"
		JD_GPU_MEMORY=mapped timeout 400 build/gpu/tests/test_cuda_$t >"$out/mapped-$t.log" 2>&1
		echo "exit $?"; tail -2 "$out/mapped-$t.log"
	done
esac
case " $parts " in *" sanitize "*)
	for t in sad sgm bp rectify confidence; do
		echo "== compute-sanitizer memcheck test_cuda_$t, mapped"
		JD_GPU_MEMORY=mapped JD_GPU_QUICK=1 timeout 300 compute-sanitizer --tool memcheck \
			--error-exitcode 3 build/gpu/tests/test_cuda_$t >"$out/memcheck-mapped-$t.log" 2>&1
		echo "exit $?"; tail -2 "$out/memcheck-mapped-$t.log"
	done
	for tool in memcheck racecheck; do
		echo "== compute-sanitizer $tool test_cuda_confidence, copy"
		JD_GPU_QUICK=1 timeout 300 compute-sanitizer --tool $tool --error-exitcode 3 \
			build/gpu/tests/test_cuda_confidence >"$out/$tool-confidence.log" 2>&1
		echo "exit $?"; tail -2 "$out/$tool-confidence.log"
	done
esac
case " $parts " in *" same "*)
	echo "== the same maps and objects, copy and mapped"
	for pair in tsukuba teddy; do
		d=$data/stereo/$pair
		nd=$(awk '/^ndisp:/ {print $2}' "$d/meta.txt")
		for a in sgm sad bp; do
			for m in copy mapped; do
				$b match -q "$d/left.pgm" "$d/right.pgm" -o "$out/$pair-$a-$m.pfm" --algo $a \
					--ndisp "$nd" --backend cuda --gpu-memory $m || echo "FAIL: match $m"
			done
			cmp "$out/$pair-$a-copy.pfm" "$out/$pair-$a-mapped.pfm" && echo "same: $pair $a"
			rm -f "$out/$pair-$a-"*.pfm
		done
	done
	# timings, timestamps and velocities (from wall-clock stamps) differ between runs
	strip='s/"timestamp_ns":[0-9]*,//; s/"latency_ms":\{[^}]*\},"cpu_ms":[^,]*,//; s/"velocity_mm_s":\[[^]]*\]//g'
	for a in sgm bp; do
		for m in copy mapped; do
			$b run --frames 60 --size 640x480 --ndisp 64 --algo $a --backend cuda --gpu-memory $m \
				--json 2>"$out/run-$a-$m.err" | sed -E "$strip" >"$out/run-$a-$m.json"
			grep "^gpu:" "$out/run-$a-$m.err"
		done
		n=$(wc -l <"$out/run-$a-copy.json")
		cmp "$out/run-$a-copy.json" "$out/run-$a-mapped.json" &&
			echo "same: run $a, $n frames, $(grep -o '"id":' "$out/run-$a-copy.json" | wc -l) object records"
	done
esac
case " $parts " in *" pipeline "*)
	echo "== bench --pipeline"
	for m in copy mapped; do
		for r in 1 2; do
			$b bench --pipeline --algo sgm --backend cuda --gpu-memory $m --runs 100 2>&1 |
				grep -v '^matcher'
		done
		$b bench --pipeline --algo sad --backend cuda --gpu-memory $m --runs 100 \
			--size 640x480 --ndisp 64 2>&1 | grep -v '^matcher'
		$b bench --pipeline --algo bp --fp16 --backend cuda --gpu-memory $m --runs 100 \
			--size 640x480 --ndisp 64 2>&1 | grep -v '^matcher'
	done | tee "$out/pipeline.log"
esac
