# tools/gpu.sh's part ros2 (sourced; see tools/gpu.sh; it builds nothing there).
# run --ros2 with the CUDA backend and a subscriber, and bench --pipeline
# with and without --ros2. Uses binaries built here (no Cyclone DDS there): carry .gpuros2/,
# made by
#   cmake -S . -B build/r90 -G Ninja -DCMAKE_BUILD_TYPE=Release -DJD_WITH_CUDA=ON \
#     -DJD_CUDA_ONLY_ARCH=90 && cmake --build build/r90 --target jetdepth ros2_listen
#   mkdir -p .gpuros2/bin .gpuros2/lib && cp build/r90/jetdepth build/r90/tests/ros2_listen .gpuros2/bin/
#   and every library ldd names for them and for libddsc.so.0debian (libc, libm, libstdc++ and
#   libgcc_s aside) into .gpuros2/lib (Debian 12's glibc 2.36 is older than the machine's).
# Writes to $OUT: cap/ (the listener's samples and the daemon's JSON, for check_cdr.mjs
# here), listen*.out, run*.err, bench*.txt.

part_ros2() {
	export LD_LIBRARY_PATH=$PWD/.gpuros2/lib
	B=$PWD/.gpuros2/bin
	mkdir -p "$OUT/cap" /tmp/cap720
	export ROS_DOMAIN_ID=42
	# 640x480 SGM on the GPU, subscribed: the samples come back for the byte-level check
	"$B/ros2_listen" "$OUT/cap" jetdepth 640 480 jetdepth_left_optical 60 >"$OUT/listen.out" 2>&1 &
	sleep 1
	"$B/jetdepth" run --ros2 --backend cuda --size 640x480 --ndisp 64 --frames "${LISTEN_FRAMES:-600}" --json \
		>"$OUT/cap/frames.jsonl" 2>"$OUT/cap/run.err"
	echo "run 640x480: exit $?"
	wait
	# the same in mapped mode (depth and the cloud written straight into the pinned sets)
	mkdir -p "$OUT/cap_mapped"
	"$B/ros2_listen" "$OUT/cap_mapped" jetdepth 640 480 jetdepth_left_optical 60 \
		>"$OUT/listen_mapped.out" 2>&1 &
	sleep 1
	"$B/jetdepth" run --ros2 --backend cuda --gpu-memory mapped --size 640x480 --ndisp 64 \
		--frames "${LISTEN_FRAMES:-600}" --json >"$OUT/cap_mapped/frames.jsonl" 2>"$OUT/cap_mapped/run.err"
	echo "run 640x480 mapped: exit $?"
	wait
	# 1280x720/128 subscribed (samples kept here: too large to bring back)
	"$B/ros2_listen" /tmp/cap720 jetdepth 1280 720 jetdepth_left_optical 60 >"$OUT/listen720.out" 2>&1 &
	sleep 1
	"$B/jetdepth" run --ros2 --backend cuda --size 1280x720 --ndisp 128 --frames 600 --stats 2 \
		>"$OUT/run720.out" 2>"$OUT/run720.err"
	echo "run 1280x720: exit $?"
	wait
	# bench --pipeline with every topic composed, in copy and mapped mode; an older build beside
	# it when carried as .gpuros2/bin/jetdepth_old (alternating, for the before and after)
	for r in $(seq "${ROUNDS:-2}"); do
		for bin in jetdepth jetdepth_old; do
			[ -x "$B/$bin" ] || continue
			for mem in copy mapped; do
				"$B/$bin" bench --pipeline --ros2 --backend cuda --gpu-memory $mem --runs 200 \
					>"$OUT/bench_ros2_${bin}_${mem}_$r.txt" 2>&1
			done
		done
		"$B/jetdepth" bench --pipeline --backend cuda --runs 200 >"$OUT/bench_$r.txt" 2>&1
	done
	tail -n +1 "$OUT"/listen*.out "$OUT"/bench*.txt
	grep -h "ros2:\|frame(s), mean" "$OUT/cap/run.err" "$OUT/run720.out" "$OUT/run720.err"
}
