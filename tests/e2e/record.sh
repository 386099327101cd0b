#!/usr/bin/env bash
# run --record: a recording replays through the files camera with the same output (JSON
# without timing), for raw Bayer, deep mono and YUYV; images with both views (files-sbs:,
# files-tb:) give the separate views' output; the byte budget and a full disk stop the
# recording, not the run, and leave no half pair; an earlier recording is not overwritten.
# usage: record.sh JETDEPTH
set -u
bin=$1
tmp=$(mktemp -d)
trap 'umount "$tmp/small" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../harness/emulator.sh" "$tmp"
fails=0
strip='s/"timestamp_ns":[0-9]*,//; s/"latency_ms":\{[^}]*\},"cpu_ms":[^,]*,//; s/"velocity_mm_s":\[[^]]*\]//g; s/"daemon":\{[^}]*\}//; s/,"source":"[a-z]*"//; s/,"cameras":\[[^]]*\]//'
# the synthetic camera's own rig at 160x120 (its boot line says so); the files camera's
# replays are told it
live="--ndisp 32 --json"
common="$live --focal 128 --baseline 60"
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fails=$((fails + 1)); }
for f in RG12 BA81 Y10 YUYV; do
	# shellcheck disable=SC2086
	"$bin" run --frames 5 --size 160x120 --pixfmt $f --record "$tmp/rec_$f" $live 2>"$tmp/err" |
		sed -E "$strip" >"$tmp/live.json"
	# shellcheck disable=SC2086
	"$bin" run --camera "files:$tmp/rec_$f" --frames 5 $common 2>>"$tmp/err" |
		sed -E "$strip" >"$tmp/replay.json"
	if [ "$(wc -l <"$tmp/live.json")" = 5 ] && cmp -s "$tmp/live.json" "$tmp/replay.json"; then
		ok "$f: the replay's output is the live run's ($(ls "$tmp/rec_$f/left" | head -1))"
	else
		bad "$f: replay differs or missing: $(tail -2 "$tmp/err")"
	fi
done
# a recording copied by a tool that upper-cases extensions (.RAW) replays the same
mkdir -p "$tmp/upper/left" "$tmp/upper/right"
for side in left right; do
	for f in "$tmp/rec_YUYV/$side"/*.raw; do
		b=$(basename "$f" .raw)
		cp "$f" "$tmp/upper/$side/$b.RAW"
	done
done
# shellcheck disable=SC2086
"$bin" run --camera "files:$tmp/upper" --frames 5 $common 2>>"$tmp/err" | sed -E "$strip" >"$tmp/upper.json"
"$bin" run --camera "files:$tmp/rec_YUYV" --frames 5 $common 2>>"$tmp/err" | sed -E "$strip" >"$tmp/lower.json"
if [ "$(wc -l <"$tmp/upper.json")" = 5 ] && cmp -s "$tmp/upper.json" "$tmp/lower.json"; then
	ok "a recording with upper-case .RAW names replays the same"
else
	bad "upper-case .RAW: $(tail -2 "$tmp/err")"
fi
# Y10 stored MSB-aligned (a camera's left-justified samples): said at the first frame
/usr/bin/python3 - "$tmp/msb" <<'PY'
import os, struct, sys
for side in ("left", "right"):
    os.makedirs(f"{sys.argv[1]}/{side}")
    data = b"".join(struct.pack("<H", ((x * 7 + y * 3) % 1024) << 6) for y in range(48) for x in range(64))
    open(f"{sys.argv[1]}/{side}/00000000.64x48.Y10.raw", "wb").write(data)
PY
if "$bin" run --camera "files:$tmp/msb" --frames 1 --ndisp 16 2>&1 |
	grep -q "left camera $tmp/msb/left: Y10 frame: 99.7 % of the samples are wider than 10 bits (up to 37248): the camera stores them MSB-aligned"; then
	ok "MSB-aligned Y10 is said at the first frame"
else
	bad "MSB-aligned Y10 was not said"
fi
# a folder with images of another kind is refused too (a replay would mix them in)
mkdir -p "$tmp/pgmdir/left"
cp "$tmp/rec_YUYV/left/$(ls "$tmp/rec_YUYV/left" | head -1)" "$tmp/pgmdir/left/x.pgm"
if "$bin" run --frames 1 --size 160x120 --record "$tmp/pgmdir" $live >/dev/null 2>"$tmp/err" ||
	! grep -q "pgmdir/left already holds files (x.pgm" "$tmp/err"; then
	bad "a folder holding images was recorded into: $(tail -1 "$tmp/err")"
else
	ok "a folder holding other images is refused"
fi
# a recording longer than the 4096 names the files camera once held replays whole
if [ -z "${JETDEPTH_EMULATOR:-}" ]; then
	"$bin" run --frames 4200 --size 32x24 --ndisp 8 --record "$tmp/long" >/dev/null 2>"$tmp/err"
	n=$("$bin" run --camera "files:$tmp/long" --frames 0 --ndisp 8 2>>"$tmp/err" | grep -c '^frame')
	[ "$n" = 4200 ] && ok "4200 recorded pairs replay, all of them" ||
		bad "a 4200-pair recording replayed $n frames: $(tail -2 "$tmp/err")"
fi
# a colour mosaic (RG10's layout) labelled Y10 is said; the synthetic mono Y10 is not
/usr/bin/python3 - "$tmp/mosaic" <<'PY'
import math, os, struct, sys
for side in ("left", "right"):
    os.makedirs(f"{sys.argv[1]}/{side}")
    px = []
    for y in range(48):
        for x in range(64):
            base = 300 + 200 * math.sin(x / 9.0) * math.cos(y / 7.0)
            v = base * (1.6, 1.0, 1.0, 0.5)[(y % 2) * 2 + x % 2]
            px.append(struct.pack("<H", max(0, min(1023, int(v)))))
    open(f"{sys.argv[1]}/{side}/00000000.64x48.Y10.raw", "wb").write(b"".join(px))
PY
if "$bin" run --camera "files:$tmp/mosaic" --frames 1 --ndisp 16 2>&1 | grep -q "as in a colour mosaic: is the stream raw Bayer" &&
	! "$bin" run --camera "files:$tmp/rec_Y10" --frames 1 $common 2>&1 | grep -q "colour mosaic"; then
	ok "a colour mosaic labelled Y10 is said; mono Y10 is not"
else
	bad "the mosaic check: said or not where it should be"
fi
# images with both views: side by side and top and bottom give what the separate views give
mkdir -p "$tmp/pair/left" "$tmp/pair/right" "$tmp/sbs" "$tmp/tb"
for i in 0 1 2; do
	"$bin" synth "$tmp/l.pgm" "$tmp/r.pgm" --size 160x120 --ndisp 32 --frame $i >/dev/null || exit 1
	cp "$tmp/l.pgm" "$tmp/pair/left/$i.pgm"
	cp "$tmp/r.pgm" "$tmp/pair/right/$i.pgm"
	/usr/bin/python3 - "$tmp/l.pgm" "$tmp/r.pgm" "$tmp/sbs/$i.pgm" "$tmp/tb/$i.pgm" <<'PY'
import sys
def rd(p):
    d = open(p, 'rb').read().split(b'\n', 3)
    w, h = map(int, d[1].split()); return w, h, d[3]
w, h, l = rd(sys.argv[1]); _, _, r = rd(sys.argv[2])
sbs = b''.join(l[y*w:(y+1)*w] + r[y*w:(y+1)*w] for y in range(h))
open(sys.argv[3], 'wb').write(b'P5\n%d %d\n255\n' % (2 * w, h) + sbs)
open(sys.argv[4], 'wb').write(b'P5\n%d %d\n255\n' % (w, 2 * h) + l + r)
PY
done
# shellcheck disable=SC2086
"$bin" run --camera "files:$tmp/pair" --frames 3 $common 2>"$tmp/err" | sed -E "$strip" >"$tmp/pair.json"
for s in sbs tb; do
	# shellcheck disable=SC2086
	"$bin" run --camera "files-$s:$tmp/$s" --frames 3 $common 2>>"$tmp/err" | sed -E "$strip" >"$tmp/$s.json"
	if [ "$(wc -l <"$tmp/pair.json")" = 3 ] && cmp -s "$tmp/pair.json" "$tmp/$s.json"; then
		ok "files-$s: images with both views give the separate views' output"
	else
		bad "files-$s: differs or missing: $(tail -2 "$tmp/err")"
	fi
done
# shellcheck disable=SC2086
if "$bin" run --frames 1 --size 160x120 --record "$tmp/rec_RG12" $live >/dev/null 2>"$tmp/err"; then
	bad "a directory with a recording was written over"
else
	grep -q "already holds files" "$tmp/err" && ok "an earlier recording is kept: $(grep -o 'already holds.*' "$tmp/err")" ||
		bad "no reason given: $(cat "$tmp/err")"
fi
# the budget: 1 MB, and a 640x480 RG12 pair is 1.2 MB
# shellcheck disable=SC2086
"$bin" run --frames 3 --size 640x480 --pixfmt RG12 --record "$tmp/rec_cap" --record-max-mb 1 \
	$live >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && [ "$(wc -l <"$tmp/out")" = 3 ] && grep -q -- "--record-max-mb reached" "$tmp/err" &&
	[ -z "$(ls "$tmp/rec_cap/left")" ]; then
	ok "the budget stops the recording, not the run: $(grep -- --record-max-mb "$tmp/err")"
else
	bad "budget: exit $rc, $(wc -l <"$tmp/out") frames: $(tail -2 "$tmp/err")"
fi
# a full disk (as root: a 300 KB tmpfs, 77 KB a pair)
if [ "$(id -u)" = 0 ] && mkdir -p "$tmp/small" && mount -t tmpfs -o size=300k tmpfs "$tmp/small" 2>/dev/null; then
	# shellcheck disable=SC2086
	"$bin" run --frames 8 --size 160x120 --pixfmt RG12 --record "$tmp/small/rec" $live \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	nl=$(ls "$tmp/small/rec/left" | wc -l) nr=$(ls "$tmp/small/rec/right" | wc -l)
	if [ $rc = 0 ] && [ "$(wc -l <"$tmp/out")" = 8 ] && grep -q "No space left on device" "$tmp/err" &&
		[ "$nl" = "$nr" ] && [ "$nl" -gt 0 ]; then
		ok "a full disk stops the recording after $nl pair(s), not the run; no half pair"
	else
		bad "full disk: exit $rc, $(wc -l <"$tmp/out") frames, $nl/$nr files: $(tail -2 "$tmp/err")"
	fi
else
	echo "skip: a full disk needs root to mount a small tmpfs"
fi
[ $fails -eq 0 ]
