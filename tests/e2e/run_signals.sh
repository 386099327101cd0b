#!/usr/bin/env bash
# `jetdepth run` stops cleanly on SIGTERM and SIGINT within a second, mid-stream: exit 0, the
# summary printed, and with --json every line on stdout a whole JSON object. SIGUSR1 dumps.
# usage: run_signals.sh JETDEPTH
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../harness/emulator.sh" "$tmp"
fails=0
# Under an emulator (a cross build's tests) a frame takes far longer: the stop deadline too.
deadline_ms=1000
[ -n "${JETDEPTH_EMULATOR:-}" ] && deadline_ms=15000

# wait_for COUNT PATTERN TENTHS FILE...: until COUNT lines match in FILEs, or TENTHS of a second
wait_for() {
	local count=$1 pattern=$2 tenths=$3 waited=0
	shift 3
	while [ "$(cat "$@" 2>/dev/null | grep -c -- "$pattern")" -lt "$count" ] && [ $waited -lt "$tenths" ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
}

# stop_timed SIGNAL PID: signal, wait; sets rc (its exit) and ms (how long it took to stop)
stop_timed() {
	local t0
	t0=$(date +%s%N)
	kill -"$1" "$2"
	wait "$2"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
}

stop_test() { # SIGNAL EXTRA-ARGS...
	local sig=$1
	shift
	rm -f "$tmp/out" "$tmp/err" # else a wait can read the previous run's lines
	"$bin" run --size 320x240 --ndisp 32 "$@" >"$tmp/out" 2>"$tmp/err" &
	local pid=$!
	wait_for 3 '^frame\|^{"frame"' 1200 "$tmp/out" # the first frames: boot done, loop running
	stop_timed "$sig" $pid
	local what="SIG$sig $*"
	if [ $rc -ne 0 ]; then
		echo "FAIL: $what: exit $rc"; fails=$((fails + 1))
	elif [ $ms -gt $deadline_ms ]; then
		echo "FAIL: $what: stopped after $ms ms"; fails=$((fails + 1))
	elif ! grep -q 'frame(s), mean latency' "$tmp/out" "$tmp/err"; then
		echo "FAIL: $what: no summary"; fails=$((fails + 1))
	elif [ "$*" = "--json" ] && grep -v '^{"frame":.*}$' "$tmp/out" | grep -q .; then
		echo "FAIL: $what: a partial or stray line on stdout"; fails=$((fails + 1))
	else
		echo "ok: $what: exit 0 after $ms ms"
	fi
}

stop_test TERM
stop_test INT
stop_test TERM --json
if [ "${JD_HAVE_ROS2:-OFF}" = ON ]; then
	# the publishing thread and Cyclone's own threads must not delay or break the stop
	stop_test TERM --ros2 --ros-namespace signals_$$
fi

# A --json reader that keeps the pipe open but stops reading: the loop runs on (the frames it
# misses are dropped, said once), SIGTERM stops the daemon within the deadline, and every line
# the reader gets later is a whole JSON object.
stalled_reader() {
	rm -f "$tmp/fifo" "$tmp/err"
	mkfifo "$tmp/fifo"
	exec 7<>"$tmp/fifo" # held open, never read while the daemon runs
	"$bin" run --json --size 160x120 --ndisp 32 >"$tmp/fifo" 2>"$tmp/err" &
	local pid=$!
	wait_for 1 'the reader is not keeping up' 600 "$tmp/err"
	sleep 2 # frames go on meanwhile (a few under an emulator)
	stop_timed TERM $pid
	timeout 5 cat <&7 >"$tmp/lines" &
	local cpid=$!
	sleep 0.5
	exec 7>&-
	wait $cpid
	local frames lines
	frames=$(sed -n 's/^\([0-9]*\) frame(s), mean latency.*/\1/p' "$tmp/err")
	lines=$(grep -c . "$tmp/lines")
	if [ $rc -eq 0 ] && [ $ms -le $deadline_ms ] && [ "$(grep -c 'not keeping up' "$tmp/err")" = 1 ] &&
		[ -n "$frames" ] && [ "$frames" -gt $((lines + 4)) ] &&
		grep -q "line(s) dropped while the reader was not reading" "$tmp/err" &&
		! grep -v '^{"frame":.*}$' "$tmp/lines" | grep -q .; then
		echo "ok: a stalled --json reader: $frames frames, $lines whole lines kept, SIGTERM after $ms ms"
	else
		echo "FAIL: a stalled --json reader: exit $rc after $ms ms, $frames frames, $lines lines: $(tail -5 "$tmp/err")"
		fails=$((fails + 1))
	fi
}
stalled_reader

# Signals during boot (a dump request, a reload) are noted, never the end of the daemon: sent
# from the first milliseconds on, before READY=1.
boot_signals() {
	rm -f "$tmp/out" "$tmp/err"
	"$bin" run --size 1280x720 --ndisp 128 >"$tmp/out" 2>"$tmp/err" &
	local pid=$! i
	# from the exec on (before it, the signal would reach the forking shell)
	for i in $(seq 200); do
		[ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$(readlink -f "$bin")" ] && break
		sleep 0.005
	done
	for i in 1 2 3 4 5 6 7 8 9 10; do
		kill -USR1 $pid 2>/dev/null; kill -HUP $pid 2>/dev/null
		sleep 0.01
	done
	wait_for 1 '^frame' 1200 "$tmp/out"
	if kill -0 $pid 2>/dev/null; then
		stop_timed TERM $pid
	else
		wait $pid; rc=$?
	fi
	if [ $rc -eq 0 ] && grep -q '^frame' "$tmp/out"; then
		echo "ok: SIGUSR1 and SIGHUP during boot: the daemon ran on, exit 0"
	else
		echo "FAIL: SIGUSR1 and SIGHUP during boot: exit $rc: $(tail -3 "$tmp/err")"; fails=$((fails + 1))
	fi
}
boot_signals

# At 0.05 fps a frame is 20 s away: SIGTERM still stops within the deadline, and systemd's
# watchdog (WATCHDOG_USEC 1 s) hears from the loop at least every half of it, even with
# --stall 1: a paced camera whose next frame is not due is a healthy loop, not a stall.
slow_stop() {
	rm -f "$tmp/out" "$tmp/err" # else a wait can read the previous run's lines
	"$bin" run --size 96x64 --ndisp 16 --fps 0.05 >"$tmp/out" 2>"$tmp/err" &
	local pid=$!
	wait_for 1 '^frame' 600 "$tmp/out"
	sleep 1
	stop_timed TERM $pid
	if [ $rc -eq 0 ] && [ $ms -le $deadline_ms ]; then
		echo "ok: SIGTERM at 0.05 fps: exit 0 after $ms ms"
	else
		echo "FAIL: SIGTERM at 0.05 fps: exit $rc after $ms ms"; fails=$((fails + 1))
	fi
}
slow_stop
if command -v python3 >/dev/null && [ -z "${JETDEPTH_EMULATOR:-}" ]; then
	python3 - "$tmp/notify" 4 >"$tmp/wd" <<'PY' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(sys.argv[1]); s.settimeout(0.1)
t0 = time.monotonic(); pings = []
while time.monotonic() - t0 < float(sys.argv[2]):
    try:
        m = s.recv(4096).decode()
    except socket.timeout:
        continue
    if 'WATCHDOG=1' in m:
        pings.append(time.monotonic())
gaps = [b - a for a, b in zip(pings, pings[1:])]
print(len(pings), int(1000 * max(gaps)) if gaps else 99999)
PY
	lpid=$!
	sleep 0.5
	NOTIFY_SOCKET=$tmp/notify WATCHDOG_USEC=1000000 "$bin" run --camera synth --size 96x64 --ndisp 16 --fps 0.05 --stall 1 >/dev/null 2>&1 &
	pid=$!
	wait $lpid
	kill -TERM $pid; wait $pid
	read -r npings gap <"$tmp/wd"
	if [ "$npings" -ge 5 ] && [ "$gap" -le 500 ]; then
		echo "ok: watchdog at 0.05 fps: $npings pings in 3.5 s, at most $gap ms apart"
	else
		echo "FAIL: watchdog at 0.05 fps: $npings pings, largest gap $gap ms (want <= 500)"; fails=$((fails + 1))
	fi
else
	echo "skip: the watchdog case needs python3 and a native build"
fi

# SIGUSR1 dumps the current frame (PFM disparity and depth, confidence PNG, binary PLY); a folder that
# vanished after boot is an error line and the loop goes on; without --dump-dir SIGUSR1 is
# said and ignored, and nothing is written anywhere (the daemon runs in an empty folder).
dump_test() { # EXPECT(ok|gone|none) [DIR]
	mkdir -p "$tmp/cwd"
	rm -f "$tmp/out" "$tmp/err" # else a wait can read the previous run's lines
	(cd "$tmp/cwd" && exec "$bin" run --size 320x240 --ndisp 32 ${2:+--dump-dir "$2"}) >"$tmp/out" 2>"$tmp/err" &
	local pid=$!
	wait_for 3 '^frame' 1200 "$tmp/out"
	[ "$1" = gone ] && rm -rf "$2"
	kill -USR1 $pid
	wait_for 1 'dump\|SIGUSR1' 300 "$tmp/out" "$tmp/err"
	local n0
	n0=$(grep -c '^frame' "$tmp/out")
	sleep 0.5
	kill -TERM $pid
	wait $pid
	local rc=$? n1
	n1=$(grep -c '^frame' "$tmp/out")
	if [ "$1" = ok ]; then
		if grep -q '^dump: frame [0-9]*, 5 file(s)' "$tmp/out" && head -c 3 "$2/disparity.pfm" | grep -q Pf &&
			file "$2/disparity_u16.png" | grep -q "PNG image data, 320 x 240, 16-bit grayscale" &&
			file "$2/confidence.png" | grep -q "PNG image data, 320 x 240, 8-bit grayscale" &&
			head -1 "$2/cloud.ply" | grep -qx ply && grep -aq '^element vertex [1-9]' "$2/cloud.ply" &&
			[ -z "$(ls -A "$2" | grep tmp)" ] && [ "$(stat -c %a "$2/disparity.pfm")" = 644 ]; then
			echo "ok: SIGUSR1 dumped disparity (PFM, 16-bit PNG), confidence, depth and cloud, mode 644 under umask 022"
		else
			echo "FAIL: SIGUSR1 dump: $(cat "$tmp/err")"; fails=$((fails + 1))
		fi
	elif [ "$1" = gone ] && grep -q "jetdepth: dump: $2/disparity.pfm: cannot create: No such file or directory; no file of this frame was kept (the loop goes on)" "$tmp/err" &&
		[ $rc -eq 0 ] && [ "$n1" -gt "$n0" ]; then
		echo "ok: a dump that cannot be written is said, the loop goes on"
	elif [ "$1" = none ] && grep -q "jetdepth: SIGUSR1 ignored: no --dump-dir" "$tmp/err" && [ $rc -eq 0 ] &&
		[ "$n1" -gt "$n0" ] && [ -z "$(ls -A "$tmp/cwd")" ]; then
		echo "ok: SIGUSR1 without --dump-dir is said and ignored; nothing written"
	else
		echo "FAIL: dump ($1): rc $rc, frames $n0 -> $n1: $(cat "$tmp/err")"; fails=$((fails + 1))
	fi
}
umask 022
mkdir -p "$tmp/dumps" "$tmp/gone"
dump_test ok "$tmp/dumps"
dump_test gone "$tmp/gone"
dump_test none

# Cameras absent at boot (USB plugged in later) with --wait-cameras (the default under
# systemd): boot completes, the wait is said in the log and /status, SIGTERM still stops.
late_cameras() {
	local port=$((20000 + $$ % 20000)) preview="--preview"
	# a build without libmicrohttpd has no /status to ask
	"$bin" run --frames 1 --size 16x16 --ndisp 2 --preview "$port" 2>&1 | grep -q 'no preview' && preview=""
	rm -f "$tmp/out" "$tmp/err" # else a wait can read the previous run's lines
	"$bin" run --camera "v4l2:$tmp/video-late0,$tmp/video-late1" --wait-cameras --size 96x64 \
		--ndisp 16 ${preview:+--preview "$port"} >"$tmp/out" 2>"$tmp/err" &
	local pid=$! st=""
	wait_for 1 'waiting for the cameras' 100 "$tmp/err"
	if command -v curl >/dev/null && [ -n "$preview" ]; then
		st=$(curl -s "http://127.0.0.1:$port/status")
	fi
	stop_timed TERM $pid
	if [ $rc -eq 0 ] && [ $ms -le $deadline_ms ] &&
		grep -q "jetdepth: waiting for the cameras: left camera $tmp/video-late0: cannot open" "$tmp/err" &&
		{ [ -z "$st" ] && { [ -z "$preview" ] || ! command -v curl >/dev/null; } ||
			echo "$st" | grep -q '"state":"waiting_for_cameras"'; }; then
		echo "ok: cameras absent at boot are waited for (status: ${st:0:60}), SIGTERM after $ms ms"
	else
		echo "FAIL: late cameras: exit $rc after $ms ms, status '$st': $(cat "$tmp/err")"; fails=$((fails + 1))
	fi
}
[ -z "${JETDEPTH_EMULATOR:-}" ] && late_cameras

# A dump folder that cannot work is a boot error, before any frame.
boot_error() { # NEEDLE ARGS...
	local needle=$1
	shift
	"$bin" run --frames 1 --size 96x64 --ndisp 16 "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq 1 ] && grep -qF -- "$needle" "$tmp/err" && ! grep -q '^frame' "$tmp/out"; then
		echo "ok: $*: $(head -1 "$tmp/err")"
	else
		echo "FAIL: $*: exit $rc: $(cat "$tmp/err")"; fails=$((fails + 1))
	fi
}
touch "$tmp/plain"
# --board auto on a Jetson no board file knows: a boot error naming its device tree, never
# the host board's synthetic objects.
printf 'nvidia,p3768-0000+p3767-0099\0nvidia,p3767-0099\0nvidia,tegra234\0' >"$tmp/dt"
JETDEPTH_BOARD_DIR=$(cd "$(dirname "$0")/../../boards" && pwd) JETDEPTH_DT_COMPATIBLE=$tmp/dt \
	boot_error "compatible: nvidia,p3768-0000+p3767-0099, nvidia,p3767-0099, nvidia,tegra234) matches no board" --board auto
boot_error "--dump-dir $tmp/no/such/dir: No such file or directory" --dump-dir "$tmp/no/such/dir"
boot_error "--dump-dir $tmp/plain: not a directory" --dump-dir "$tmp/plain"
[ $fails -eq 0 ]
