#!/usr/bin/env bash
# Resource exhaustion and signals while `jetdepth run` works (docs/reliability.md):
#  - dumps into a full file system (a 64 KiB tmpfs where this may mount one) and past a file
#    size limit: the write fails cleanly (old files kept, no temporary left), the loop goes on;
#  - an unreachable UDP destination: every frame still processed, exit 0;
#  - a preview client that never reads: the loop keeps its rate, the server drops the client
#    after its idle timeout (/status "streams" back to 0);
#  - SIGUSR1 and SIGTERM together: a stop within 1 s, dumps whole or absent;
#  - SIGHUP: said and ignored, the loop goes on.
# usage: exhaustion.sh JETDEPTH
set -u
bin=$1
tmp=$(mktemp -d)
mnt=""
trap '[ -n "$mnt" ] && umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../harness/emulator.sh" "$tmp"
. "$(dirname "$0")/../harness/spawn.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); return 1; }
frames() { grep -c '^frame ' "$tmp/out" 2>/dev/null; }
# Wait until at least $1 frames are out (up to 120 s).
wait_frames() {
	local waited=0
	while [ "$(frames)" -lt "$1" ] && [ $waited -lt 1200 ]; do sleep 0.1; waited=$((waited + 1)); done
}

# dump_full DIR WHY: a dump that cannot be written leaves the old files, all five of them
# (a dump is a set: none of the new frame's files lands unless all do), and no temporary.
dumped="disparity.pfm disparity_u16.png confidence.png depth_mm.pfm cloud.ply"
dump_full() {
	local dir=$1 why=$2 f
	for f in $dumped; do printf 'old' >"$dir/$f"; done
	rm -f "$tmp/out" "$tmp/err" # else a wait can read the previous run's lines
	jd_spawn "$tmp/out" "$tmp/err" "$bin" run --size 320x240 --ndisp 32 --dump-dir "$dir"
	wait_frames 3
	kill -USR1 $pid
	local waited=0
	while ! grep -q 'dump' "$tmp/err" "$tmp/out" && [ $waited -lt 300 ]; do sleep 0.1; waited=$((waited + 1)); done
	local n0
	n0=$(frames)
	wait_frames $((n0 + 3))
	kill -TERM $pid
	jd_reap $pid
	local rc=$?
	if [ $rc -ne 0 ]; then
		fail "dump into $why: exit $rc: $(cat "$tmp/err")"
	elif ! grep -q "jetdepth: dump: .*: .* (the loop goes on)" "$tmp/err"; then
		fail "dump into $why: no error line: $(cat "$tmp/err")"
	elif [ "$(frames)" -lt $((n0 + 3)) ]; then
		fail "dump into $why: the loop stopped"
	elif [ "$(cat $(printf "$dir/%s " $dumped))" != oldoldoldoldold ] || ls -A "$dir" | grep -q tmp; then
		fail "dump into $why: an old file was replaced or a temporary is left: $(ls -lA "$dir")"
	else
		echo "ok: dump into $why: $(grep -o 'dump: .*' "$tmp/err" | head -1)"
	fi
}

mkdir -p "$tmp/small"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$tmp/small" 2>/dev/null; then
	mnt=$tmp/small
	dump_full "$tmp/small" "a full file system (64 KiB tmpfs)"
	umount "$tmp/small" && mnt=""
else
	echo "skip: a full file system: cannot mount a tmpfs here (needs root); the file size limit below stands in"
fi
mkdir -p "$tmp/limited"
(ulimit -f 100 && dump_full "$tmp/limited" "a 100 KiB file size limit") || fails=$((fails + 1))
# Room for the maps (300 KiB each) but not the cloud (1 MiB): the first four files are
# written whole, and still none of them may land without the cloud.
mkdir -p "$tmp/nearly"
(ulimit -f 400 && dump_full "$tmp/nearly" "a 400 KiB file size limit (the cloud does not fit)") || fails=$((fails + 1))

# An unreachable UDP destination (a closed port on this machine, a documentation address).
for dest in 127.0.0.1:9 192.0.2.1:9; do
	"$bin" run --size 160x120 --ndisp 16 --frames 30 --udp "$dest" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] || [ "$(frames)" -ne 30 ]; then
		fail "--udp $dest: exit $rc, $(frames) of 30 frames: $(cat "$tmp/err")"
	else
		echo "ok: --udp $dest: 30 of 30 frames, exit 0 $(grep -o 'udp: .*' "$tmp/err" | head -1)"
	fi
done

# SIGUSR1 and SIGTERM together: a stop within 1 s, the dumps whole or absent.
deadline_ms=1000
[ -n "${JETDEPTH_EMULATOR:-}" ] && deadline_ms=15000
mkdir -p "$tmp/both"
rm -f "$tmp/out" "$tmp/err" # else a wait can read the previous run's lines
jd_spawn "$tmp/out" "$tmp/err" "$bin" run --size 320x240 --ndisp 32 --dump-dir "$tmp/both"
wait_frames 3
t0=$(date +%s%N)
kill -USR1 $pid
kill -TERM $pid
jd_reap $pid
rc=$? ms=$((($(date +%s%N) - t0) / 1000000))
bad=$(ls -A "$tmp/both" | grep tmp)
# a whole PFM: the 14-byte header "Pf\n320 240\n-1\n" and 320 x 240 floats
if [ -f "$tmp/both/disparity.pfm" ] && [ "$(stat -c %s "$tmp/both/disparity.pfm")" -ne $((320 * 240 * 4 + 14)) ]; then
	bad="$bad disparity.pfm is $(stat -c %s "$tmp/both/disparity.pfm") bytes"
fi
if [ $rc -ne 0 ] || [ $ms -gt $deadline_ms ] || [ -n "$bad" ]; then
	fail "SIGUSR1 + SIGTERM: exit $rc after $ms ms; $bad"
else
	echo "ok: SIGUSR1 + SIGTERM: exit 0 after $ms ms, dumps: $(ls "$tmp/both" | tr '\n' ' ')"
fi

# SIGHUP: said and ignored.
rm -f "$tmp/out" "$tmp/err" # else a wait can read the previous run's lines
jd_spawn "$tmp/out" "$tmp/err" "$bin" run --size 160x120 --ndisp 16
wait_frames 3
kill -HUP $pid
sleep 0.5
n0=$(frames)
wait_frames $((n0 + 3))
kill -TERM $pid
jd_reap $pid
rc=$?
if [ $rc -ne 0 ] || ! grep -q 'SIGHUP ignored' "$tmp/err" || [ "$(frames)" -lt $((n0 + 3)) ]; then
	fail "SIGHUP: exit $rc, frames $n0 -> $(frames): $(cat "$tmp/err")"
else
	echo "ok: SIGHUP: $(grep -o 'SIGHUP ignored.*' "$tmp/err"), frames went on, exit 0"
fi

# A preview client that never reads (needs the preview built, and no emulator: timing).
if "$bin" run --frames 1 --size 16x16 --ndisp 2 --preview 65531 2>&1 | grep -q 'no preview'; then
	echo "skip: the preview client: this build has no preview (no libmicrohttpd)"
elif [ -n "${JETDEPTH_EMULATOR:-}" ]; then
	echo "skip: the preview client: timing under an emulator"
else
	port=$((30000 + $$ % 20000))
	rm -f "$tmp/out" "$tmp/err" # else a wait can read the previous run's lines
	jd_spawn "$tmp/out" "$tmp/err" "$bin" run --size 320x240 --ndisp 32 --algo sad --preview "$port"
	wait_frames 5
	if grep -q 'not built' "$tmp/err"; then
		echo "skip: the preview client: $(grep 'not built' "$tmp/err")"
		kill -TERM $pid; jd_reap $pid
	else
		status() {
			exec 4<>"/dev/tcp/127.0.0.1/$port" || return 1
			printf 'GET /status HTTP/1.0\r\n\r\n' >&4
			tr -d '\r' <&4 | sed -n '/^{/p'
			exec 4<&-
		}
		exec 3<>"/dev/tcp/127.0.0.1/$port"
		printf 'GET /stream.mjpg HTTP/1.1\r\nHost: x\r\n\r\n' >&3 # and never read
		sleep 2
		s1=$(status)
		f1=$(frames)
		t1=$(date +%s)
		s2=$s1
		while [ $(($(date +%s) - t1)) -lt 45 ] && ! echo "$s2" | grep -q '"streams":0'; do
			sleep 1
			s2=$(status)
		done
		secs=$(($(date +%s) - t1 + 2))
		f2=$(frames)
		exec 3<&-
		kill -TERM $pid
		jd_reap $pid
		rc=$?
		st1=$(echo "$s1" | grep -o '"streams":[0-9]*')
		st2=$(echo "$s2" | grep -o '"streams":[0-9]*')
		# the loop's rate while the client hung: at least 2 frames a second (320x240 SAD)
		if [ $rc -ne 0 ] || [ "$st1" != '"streams":1' ] || [ "$st2" != '"streams":0' ] ||
			[ $((f2 - f1)) -lt $((2 * (secs - 2))) ]; then
			fail "a preview client that never reads: exit $rc, $st1 -> $st2 in $secs s, $((f2 - f1)) frames meanwhile"
		else
			echo "ok: a preview client that never reads: dropped $secs s after it connected ($st1 -> $st2), the loop ran $((f2 - f1)) frames meanwhile"
		fi
	fi
fi

[ $fails -eq 0 ] && echo "all exhaustion checks passed"
[ $fails -eq 0 ]
