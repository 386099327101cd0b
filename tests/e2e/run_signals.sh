#!/usr/bin/env bash
# `jetdepth run` stops cleanly on SIGTERM and SIGINT within a second, mid-stream: exit 0, the
# summary printed, and with --json every line on stdout a whole JSON object.
# usage: run_signals.sh JETDEPTH
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../cli/emulator.sh" "$tmp"
fails=0

stop_test() { # SIGNAL EXTRA-ARGS...
	local sig=$1
	shift
	"$bin" run --size 320x240 --ndisp 32 "$@" >"$tmp/out" 2>"$tmp/err" &
	local pid=$! waited=0
	# wait for the first frames (boot done, loop running)
	while [ "$(grep -c '^frame\|^{"frame"' "$tmp/out" 2>/dev/null)" -lt 3 ] && [ $waited -lt 300 ]; do
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
	elif [ $ms -gt 1000 ]; then
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
[ $fails -eq 0 ]
