#!/usr/bin/env bash
# Frames in and frames out, as the daemon meets them (docs/reliability.md):
#  - damaged JPEGs in a files camera (a header, the scan data, a truncation): each is dropped
#    and said when it happens, and every good frame after it still comes through;
#  - nothing but bad frames: after --stall seconds systemd's watchdog hears nothing more;
#  - --json into a closed stdout (refused at boot), a reader that leaves (the daemon stops,
#    exit 1), a full device and a file size limit (said, counted, exit 1, never a partial
#    line in the file).
# Each case asserts the exit code, the message, and what reached the output.
# usage: streams.sh JETDEPTH
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../harness/emulator.sh" "$tmp"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
run() { "$bin" run --size 96x64 --ndisp 16 "$@"; }

# Six JPEG pairs; left 1 has its start-of-frame marker overwritten (which used to leave the
# decoder failing every later frame), right 3 has its scan data flipped, left 4 is cut short.
jpg=$(dirname "$0")/../fuzz/corpus/jpeg/color.jpg
mkdir -p "$tmp/jc/left" "$tmp/jc/right"
for i in 0 1 2 3 4 5; do cp "$jpg" "$tmp/jc/left/$i.jpg"; cp "$jpg" "$tmp/jc/right/$i.jpg"; done
sof=$(LC_ALL=C grep -obUaP '\xff\xc0' "$jpg" | head -1 | cut -d: -f1)
printf 'UUUUUUUUUU' | dd of="$tmp/jc/left/1.jpg" bs=1 seek=$((sof - 5)) conv=notrunc 2>/dev/null
size=$(stat -c %s "$jpg")
{ head -c $((size - 60)) "$jpg"; head -c 58 /dev/zero | tr '\0' '\125'; tail -c 2 "$jpg"; } >"$tmp/jc/right/3.jpg"
head -c $((size / 2)) "$jpg" >"$tmp/jc/left/4.jpg"
"$bin" run --size 16x12 --ndisp 4 --algo sad --camera "files:$tmp/jc" >"$tmp/out" 2>"$tmp/err"
rc=$?
frames=$(grep -c '^frame ' "$tmp/out")
said=$(grep -c 'jetdepth: frame dropped: ' "$tmp/err")
if [ $rc -ne 0 ] || [ "$frames" -ne 3 ] || [ "$said" -ne 3 ] ||
	! grep -q 'dropped: 3 corrupt' "$tmp/out" ||
	! grep -q "frame dropped: left camera $tmp/jc/left: frame 1: not a readable JPEG" "$tmp/err"; then
	fail "damaged JPEGs: exit $rc, $frames of 3 good pairs, $said of 3 drops said: $(cat "$tmp/err")"
else
	echo "ok: damaged JPEGs: 3 good pairs of 6 through, each drop said: $(head -1 "$tmp/err")"
fi

# A stream of nothing but bad frames: after --stall seconds without a pair the daemon says so
# and systemd's watchdog hears nothing more (so that it restarts the daemon); STATUS says why.
mkdir -p "$tmp/allbad/left" "$tmp/allbad/right"
cp "$jpg" "$tmp/allbad/left/000.jpg"; cp "$jpg" "$tmp/allbad/right/000.jpg"
# 400 bad frames, 8 s at 50 fps: the files camera loops back to the good frame 000 only after the
# listener's 5 s (200 wrapped within them where boot is quick, and the ping after it was right)
for i in $(seq -w 1 400); do cp "$tmp/jc/left/1.jpg" "$tmp/allbad/left/$i.jpg"; cp "$jpg" "$tmp/allbad/right/$i.jpg"; done
if command -v python3 >/dev/null && [ -z "${JETDEPTH_EMULATOR:-}" ]; then
	python3 - "$tmp/notify" 5 >"$tmp/wd" <<'PY' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(sys.argv[1]); s.settimeout(0.1)
t0 = time.monotonic(); stalled = None; after = 0
while time.monotonic() - t0 < float(sys.argv[2]):
    try:
        m = s.recv(4096).decode()
    except socket.timeout:
        continue
    if 'STATUS=no frame pair' in m:
        stalled = time.monotonic()
    elif 'WATCHDOG=1' in m and stalled is not None:
        after += 1
print('stalled' if stalled else 'never', after)
PY
	wpid=$!
	sleep 0.3
	NOTIFY_SOCKET=$tmp/notify WATCHDOG_USEC=1000000 "$bin" run --size 16x12 --ndisp 4 --algo sad \
		--camera "files:$tmp/allbad" --fps 50 --stall 2 >/dev/null 2>"$tmp/err"
	wait $wpid
	read -r state after <"$tmp/wd"
	if [ "$state" = stalled ] && [ "$after" -eq 0 ] && grep -q 'no frame pair for 2 s (left camera .*SOS before SOF): systemd' "$tmp/err" &&
		grep -q 'more frame(s) dropped' "$tmp/err"; then
		echo "ok: only bad frames: stalled after 2 s, no watchdog ping after it, the drops counted a second at a time"
	else
		echo "FAIL: only bad frames: $state, $after pings after the stall: $(grep -v '^ ' "$tmp/err" | head -12)"
		fails=$((fails + 1))
	fi
else
	echo "skip: the watchdog case needs python3 and a native build"
fi

# --json with stdout closed: refused at boot, nothing else would read the frames.
run --frames 2 --json >&- 2>"$tmp/err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q 'jetdepth: --json: stdout is closed, so every frame would be lost' "$tmp/err"; then
	fail "closed stdout: exit $rc: $(cat "$tmp/err")"
else
	echo "ok: closed stdout: exit 2: $(grep -- '--json' "$tmp/err")"
fi

# A reader that leaves: the daemon notices on the next line, stops, exit 1.
{ run --frames 0 --json 2>"$tmp/err"; echo $? >"$tmp/rc"; } | head -1 >"$tmp/line"
rc=$(cat "$tmp/rc")
if [ "$rc" -ne 1 ] || ! grep -q 'stdout cannot be written any more: stopping' "$tmp/err" ||
	! grep -q '^{"frame":0,' "$tmp/line"; then
	fail "a reader that leaves: exit $rc: $(cat "$tmp/err")"
else
	echo "ok: a reader that leaves (| head -1): stopped, exit 1"
fi

# A full device: every line lost, said once, counted, exit 1.
run --frames 3 --json >/dev/full 2>"$tmp/err"
rc=$?
if [ $rc -ne 1 ] || [ "$(grep -c 'No space left on device' "$tmp/err")" -ne 1 ] ||
	! grep -q 'stdout: 0 line(s) written, 3 lost' "$tmp/err"; then
	fail "/dev/full: exit $rc: $(cat "$tmp/err")"
else
	echo "ok: /dev/full: exit 1: $(grep -o 'publish: stdout: .*' "$tmp/err" | head -1)"
fi

# A file that cannot grow (4 KiB limit): whole lines only, every one of them JSON.
(ulimit -f 4 && run --frames 20 --json >"$tmp/frames.json" 2>"$tmp/err"; echo $? >"$tmp/rc")
rc=$(cat "$tmp/rc")
lines=$(wc -l <"$tmp/frames.json")
if [ "$rc" -ne 1 ] || [ "$(tail -c 1 "$tmp/frames.json" | od -An -c | tr -d ' ')" != '\n' ] ||
	! grep -q 'the partial line was removed' "$tmp/err" ||
	[ "$(grep -c '^{"frame":[0-9]*,.*}$' "$tmp/frames.json")" -ne "$lines" ]; then
	fail "file size limit: exit $rc, $lines line(s), ends with $(tail -c 20 "$tmp/frames.json" | od -An -c | tail -1): $(cat "$tmp/err")"
else
	echo "ok: file size limit: exit 1, $lines whole line(s) kept, the cut one removed"
fi

echo "$fails failed"
[ "$fails" -eq 0 ]
