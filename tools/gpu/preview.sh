# tools/gpu.sh's part preview (sourced; see tools/gpu.sh).
# The browser preview with its picture composed on the
# GPU (hal/cuda/preview_cuda.h), end to end. The machine lacks libmicrohttpd: carry Debian 12's
# libmicrohttpd12 and libmicrohttpd-dev unpacked in .gpupv/ (lib/ with the .so links,
# include/, lib/pkgconfig/libmicrohttpd.pc with prefix=${pcfiledir}/../.., libdir and
# includedir under it, no Requires.private line; the machine's libgnutls.so.30 serves it).
# Builds this tree (and OLD_TREE, default .gpuold/main, when there) with it into build/gpupv, then for each binary and
# --backend cuda (copy, mapped), ROUNDS rounds (default 1): `run` SGM SIZE/NDISP (default 640x480/64), FRAMES frames (default 3000),
# --json, once with a client reading /stream.mjpg throughout and once without: the pictures
# the client got (JPEG parts) and the first one's size, the mean cpu_ms a frame, and the CPU
# ms each picture cost.
# Logs into $OUT.


# The width x height of the first JPEG in an MJPEG stream (its SOF0 marker).
jpeg_size() {
	python3 -c 'import sys, struct
b = open(sys.argv[1], "rb").read(); i = b.find(b"\xff\xc0")
print("%dx%d" % struct.unpack(">HH", b[i + 5:i + 9])[::-1] if i >= 0 else "none")' "$1"
}

pv_build() { # tree label
	gpu_build "pv-$2" "$1" "$1/build/gpupv" || { echo "$2: build failed"; return 1; }
	if grep -q "microhttpd not found" "$out/build-pv-$2.log"; then
		echo "$2: built without the preview (is .gpupv there?)"
		return 1
	fi
}

# One run: binary, label, client (1: read the stream throughout), options...
pv_one() {
	local bin=$1 label=$2 client=$3 port=$((20000 + RANDOM % 20000))
	shift 3
	$bin run --frames "$frames" --size "$size" --ndisp "$ndisp" --algo sgm --preview "$port" --json "$@" \
		>"$out/pv-$label.json" 2>"$out/pv-$label.err" &
	local pid=$! got=0
	if [ "$client" = 1 ]; then
		for _ in $(seq 200); do
			{ exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null && break
			sleep 0.05
		done
		printf 'GET /stream.mjpg HTTP/1.0\r\nHost: x\r\n\r\n' >&3
		cat <&3 >"$out/pv-$label.mjpg" &
		local reader=$!
		wait $pid
		sleep 0.2
		kill $reader 2>/dev/null
		exec 3<&-
		got=$(grep -a -c "Content-Type: image/jpeg" "$out/pv-$label.mjpg")
		echo "$label: the pictures are $(jpeg_size "$out/pv-$label.mjpg")"
	else
		wait $pid
	fi
	local cpu
	cpu=$(grep -o '"cpu_ms":[0-9.]*' "$out/pv-$label.json" | cut -d: -f2 |
		awk '{s += $1; n++} END {if (n) printf "%.3f %d", s / n, n; else print "- 0"}')
	echo "$label: pictures $got, cpu ms a frame $cpu" | tee -a "$out/pv-summary.txt"
}

part_preview() {
	local frames=${FRAMES:-3000} size=${SIZE:-640x480} ndisp=${NDISP:-64} bins bin label opts
	export PKG_CONFIG_PATH=$PWD/.gpupv/lib/pkgconfig:${PKG_CONFIG_PATH:-}
	export LD_LIBRARY_PATH=$PWD/.gpupv/lib:${LD_LIBRARY_PATH:-}
	pv_build . new || return 1
	bins="new:build/gpupv/jetdepth"
	local tree=${OLD_TREE:-.gpuold/main}
	if [ -d "$tree" ] && pv_build "$tree" old; then
		bins="old:$tree/build/gpupv/jetdepth $bins"
	fi
	for round in $(seq ${ROUNDS:-1}); do
		for bin in $bins; do
			for where in "cuda copy" "cuda mapped"; do
				set -- $where
				opts="--backend $1"
				[ "$1" = cuda ] && opts="$opts --gpu-memory $2"
				label="${bin%%:*}-$1-$2-r$round"
				pv_one "${bin#*:}" "$label-watched" 1 $opts
				pv_one "${bin#*:}" "$label-alone" 0 $opts
			done
		done
	done
	# what a picture costs: (watched - alone) * frames / pictures
	awk '{split($1, a, "-"); key = a[1] "-" a[2] "-" a[3] "-" a[4]; w = a[5] ~ /watched/}
	     {cpu = $8; if (w) {cw[key] = cpu; pics[key] = $3} else ca[key] = cpu}
	     END {for (k in cw) if (pics[k] + 0 > 0)
	          printf "%s: %.2f cpu ms a picture over %d pictures\n", k, (cw[k] - ca[k]) * '"$frames"' / pics[k], pics[k]}' \
		"$out/pv-summary.txt" | sort
}
