# tools/gpu.sh's parts that compare backends and time the loop (sourced; see tools/gpu.sh).
#   same      `match` on dataset pairs, copy and mapped: the same maps byte for byte; `run` 60
#             frames of the synthetic scene (SGM, SAD, BP, BP with --sigma 0.7) on the GPU in
#             copy and mapped mode against the CPU's: the same JSON; then a files camera (no
#             truth to score: only what the outputs read comes back in copy mode), the same
#             with a calibration (rectified on the GPU against the CPU), and a SIGUSR1 dump
#             written whole (the YUYV and UYVY cameras go raw to the GPU in `pipeline`)
#   pipeline  bench --pipeline SGM, copy (.gpuold's build and this tree alternating, ROUNDS
#             rounds, default 2, when .gpuold is carried), mapped, YUYV and UYVY cameras; SAD
#             and BP fp16 640x480/64; BP with --sigma 0.7 (smoothed on the GPU)

# The older tree carried in OLD_TREE (default .gpuold/main, made by `git archive REV | tar
# -x -C .gpuold/main`), built once beside this one: its binary, or nothing.
old_binary() {
	local tree=${OLD_TREE:-.gpuold/main}
	[ -d "$tree" ] || return 0
	[ -x "$tree/build/gpu/jetdepth" ] || gpu_build old "$tree" "$tree/build/gpu" >&2 || return 0
	echo "$tree/build/gpu/jetdepth"
}

part_same() {
	local data=${JETDEPTH_DATA:-.gpudata}
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
	echo "== the same JSON: the whole loop on the GPU (copy, mapped) and on the CPU (--backend cpu)"
	# what differs run to run: the clock, the pid, and the velocities the clock gives
	strip='s/"timestamp_ns":[0-9]*,//; s/"latency_ms":\{[^}]*\},"cpu_ms":[^,]*,//; s/"velocity_mm_s":\[[^]]*\]//g; s/"daemon":\{[^}]*\},//'
	for a in sgm sad bp bp-sigma; do
		opts="--algo ${a%-sigma}"
		[ "$a" = bp-sigma ] && opts="$opts --sigma 0.7"
		for m in copy mapped cpu; do
			where="--backend cuda --gpu-memory $m"
			[ $m = cpu ] && where="--backend cpu"
			$b run --frames 60 --size 640x480 --ndisp 64 $opts $where --json \
				2>"$out/run-$a-$m.err" | sed -E "$strip" >"$out/run-$a-$m.json"
		done
		n=$(wc -l <"$out/run-$a-copy.json")
		k=$(grep -o '"id":' "$out/run-$a-copy.json" | wc -l)
		for m in mapped cpu; do
			cmp "$out/run-$a-copy.json" "$out/run-$a-$m.json" &&
				echo "same: $a copy/$m, $n frames, $k object records"
		done
	done
	echo "== files camera (no truth): copy brings back only what the outputs read"
	fd=$out/files
	mkdir -p "$fd/left" "$fd/right" "$out/dump"
	for i in $(seq 0 29); do
		n=$(printf %03d "$i")
		$b synth "$fd/left/$n.pgm" "$fd/right/$n.pgm" --size 640x480 --ndisp 64 --frame "$i" \
			>/dev/null || echo "synth frame $i failed"
	done
	files="--camera files:$fd --size 640x480 --ndisp 64 --focal 512 --baseline 60 --json"
	for a in sgm sad bp; do
		for m in copy mapped cpu; do
			where="--backend cuda --gpu-memory $m"
			[ $m = cpu ] && where="--backend cpu"
			$b run $files --algo $a $where 2>"$out/files-$a-$m.err" |
				sed -E "$strip" >"$out/files-$a-$m.json"
		done
		for m in mapped cpu; do
			cmp "$out/files-$a-copy.json" "$out/files-$a-$m.json" &&
				echo "same: files $a copy/$m, $(wc -l <"$out/files-$a-copy.json") frames, $(grep -o '"id":' "$out/files-$a-copy.json" | wc -l) object records"
		done
	done
	echo "== raw frames to the GPU: the files camera with a calibration (slight distortion), SGM"
	cal=$out/stereo640.yaml
	m3='rows: 3\n   cols: 3\n   dt: d\n   data'
	printf '%%YAML:1.0\n---\n' >"$cal"
	printf "M1: !!opencv-matrix\n   $m3: [ 512., 0., 319.5, 0., 512., 239.5, 0., 0., 1. ]\n" >>"$cal"
	printf 'D1: !!opencv-matrix\n   rows: 1\n   cols: 5\n   dt: d\n   data: [ 0.02, 0., 0., 0., 0. ]\n' >>"$cal"
	printf "M2: !!opencv-matrix\n   $m3: [ 512., 0., 319.5, 0., 512., 239.5, 0., 0., 1. ]\n" >>"$cal"
	printf 'D2: !!opencv-matrix\n   rows: 1\n   cols: 5\n   dt: d\n   data: [ -0.01, 0., 0., 0., 0. ]\n' >>"$cal"
	printf "R: !!opencv-matrix\n   $m3: [ 1., 0., 0., 0., 1., 0., 0., 0., 1. ]\n" >>"$cal"
	printf 'T: !!opencv-matrix\n   rows: 3\n   cols: 1\n   dt: d\n   data: [ -60., 0., 0. ]\n' >>"$cal"
	base="--camera files:$fd --size 640x480 --ndisp 64 --algo sgm --calib $cal --json"
	# the distorted scene's objects flicker: the tracker's ids then depend on the frames'
	# timestamps (its motion model), so its fields are left out of this comparison
	rstrip="$strip; s/\"track\":\\{[^}]*\\}//g"
	$b run $base --backend cpu 2>"$out/raw-cpu.err" | sed -E "$rstrip" >"$out/raw-cpu.json"
	for m in copy mapped; do
		$b run $base --backend cuda --gpu-memory $m 2>"$out/raw-$m.err" |
			sed -E "$rstrip" >"$out/raw-$m.json"
		grep -q "applied on the GPU" "$out/raw-$m.err" || echo "raw $m: not rectified on the GPU"
		cmp "$out/raw-cpu.json" "$out/raw-$m.json" &&
			echo "same: raw $m (rectified on the GPU) = cpu, $(wc -l <"$out/raw-cpu.json") frames, $(grep -o '"id":' "$out/raw-cpu.json" | wc -l) object records"
	done
	echo "-- a SIGUSR1 dump in copy mode"
	$b run $files --algo sgm --backend cuda --gpu-memory copy --loop --fps 30 --frames 150 \
		--dump-dir "$out/dump" >"$out/dump-run.json" 2>"$out/dump-run.err" &
	pid=$!
	sleep 3
	kill -USR1 $pid
	wait $pid
	echo "exit $?: $(grep -c '^dump: frame' "$out/dump-run.err") dump line(s)"
	ls -l "$out/dump"
}

part_pipeline() {
	local old
	old=$(old_binary)
	echo "== bench --pipeline (sgm, copy: old, new alternating; then new mapped)"
	for r in $(seq ${ROUNDS:-2}); do
		for t in $old $b; do
			echo "-- $t"
			$t bench --pipeline --algo sgm --backend cuda --runs 200 2>&1 | grep -v '^matcher'
		done
	done
	echo "-- $b mapped"
	$b bench --pipeline --algo sgm --backend cuda --gpu-memory mapped --runs 200 2>&1 | grep -v '^matcher'
	for f in YUYV UYVY; do
		echo "-- $b $f camera, copy then mapped"
		$b bench --pipeline --algo sgm --backend cuda --pixfmt $f --runs 200 2>&1 | grep -v '^matcher'
		$b bench --pipeline --algo sgm --backend cuda --gpu-memory mapped --pixfmt $f --runs 200 2>&1 | grep -v '^matcher'
	done
	echo "-- $b sad, bp fp16 640x480/64"
	$b bench --pipeline --algo sad --backend cuda --runs 200 --size 640x480 --ndisp 64 2>&1 | grep -v '^matcher'
	$b bench --pipeline --algo bp --fp16 --backend cuda --runs 200 --size 640x480 --ndisp 64 2>&1 | grep -v '^matcher'
	echo "-- $b bp fp16 sigma 0.7 640x480/64 (smoothed on the GPU; .gpuold on the host)"
	for t in $old $b; do
		$t bench --pipeline --algo bp --fp16 --sigma 0.7 --backend cuda --runs 200 --size 640x480 \
			--ndisp 64 2>&1 | grep -v '^matcher'
	done
}
