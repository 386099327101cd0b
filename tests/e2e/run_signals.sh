#!/usr/bin/env bash
# `jetdepth run` stops cleanly on SIGTERM and SIGINT within a second, mid-stream: exit 0, the
# summary printed, and with --json every line on stdout a whole JSON object. SIGUSR1 dumps.
# usage: run_signals.sh JETDEPTH
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../cli/emulator.sh" "$tmp"
fails=0
# Under an emulator (a cross build's tests) a frame takes far longer: the stop deadline too.
deadline_ms=1000
[ -n "${JETDEPTH_EMULATOR:-}" ] && deadline_ms=15000

stop_test() { # SIGNAL EXTRA-ARGS...
	local sig=$1
	shift
	"$bin" run --size 320x240 --ndisp 32 "$@" >"$tmp/out" 2>"$tmp/err" &
	local pid=$! waited=0
	# wait for the first frames (boot done, loop running)
	while [ "$(grep -c '^frame\|^{"frame"' "$tmp/out" 2>/dev/null)" -lt 3 ] && [ $waited -lt 1200 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
	local t0
	t0=$(date +%s%N)
	kill -"$sig" $pid
	wait $pid
	local rc=$? ms=$((($(date +%s%N) - t0) / 1000000))
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

# SIGUSR1 dumps the current frame (PFM disparity and depth, binary PLY); an unwritable
# folder is an error line and the loop goes on.
dump_test() { # DIR EXPECT(ok|fail)
	"$bin" run --size 320x240 --ndisp 32 --dump-dir "$1" >"$tmp/out" 2>"$tmp/err" &
	local pid=$! waited=0
	while [ "$(grep -c '^frame' "$tmp/out" 2>/dev/null)" -lt 3 ] && [ $waited -lt 1200 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
	kill -USR1 $pid
	waited=0
	while ! grep -q 'dump' "$tmp/out" "$tmp/err" && [ $waited -lt 300 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
	local n0
	n0=$(grep -c '^frame' "$tmp/out")
	sleep 0.5
	kill -TERM $pid
	wait $pid
	local rc=$? n1
	n1=$(grep -c '^frame' "$tmp/out")
	if [ "$2" = ok ]; then
		if grep -q '^dump: frame [0-9]*, 4 file(s)' "$tmp/out" && head -c 3 "$1/disparity.pfm" | grep -q Pf &&
			file "$1/disparity_u16.png" | grep -q "PNG image data, 320 x 240, 16-bit grayscale" &&
			head -1 "$1/cloud.ply" | grep -qx ply && grep -aq '^element vertex [1-9]' "$1/cloud.ply" &&
			[ -z "$(ls -A "$1" | grep tmp)" ]; then
			echo "ok: SIGUSR1 dumped disparity (PFM, 16-bit PNG), depth and cloud"
		else
			echo "FAIL: SIGUSR1 dump: $(cat "$tmp/err")"; fails=$((fails + 1))
		fi
	elif grep -q 'jetdepth: dump: .*disparity.pfm.tmp: .* (the loop goes on)' "$tmp/err" && [ $rc -eq 0 ] &&
		[ "$n1" -gt "$n0" ]; then
		echo "ok: a dump that cannot be written is said, the loop goes on"
	else
		echo "FAIL: unwritable dump: rc $rc, frames $n0 -> $n1: $(cat "$tmp/err")"; fails=$((fails + 1))
	fi
}
mkdir -p "$tmp/dumps"
dump_test "$tmp/dumps" ok
dump_test "$tmp/no/such/dir" fail
[ $fails -eq 0 ]
