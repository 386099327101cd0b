#!/usr/bin/env bash
# One conversion for every path (issue: 6.15 % bad pixels through `match`, 7.31 % through the
# daemon's files camera for one PNG pair): the same files give the same disparity map through
# `jetdepth match` and through `jetdepth run --camera files:` (dumped on SIGUSR1), byte for
# byte, for colour PNG, 16-bit gray PNG, 16-bit PGM and colour PPM. And the synthetic camera
# laid out as GREY, YUYV, UYVY or deep mono (--pixfmt) gives the same frames' JSON: the luma
# is taken, never the chroma; as raw Bayer, the same objects.
# usage: same_map.sh JETDEPTH
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../harness/emulator.sh" "$tmp"
command -v python3 >/dev/null || { echo "SKIP: python3 is needed to write the test images"; exit 77; }
fails=0
"$bin" synth "$tmp/l.pgm" "$tmp/r.pgm" --size 128x96 --ndisp 32 || exit 1
# Colour and deep versions of the gray pair (python3's zlib: no imaging library needed).
python3 - "$tmp" <<'PY' || exit 1
import struct, sys, zlib
d = sys.argv[1]
def pgm(path):
    b = open(path, 'rb').read()
    head, rest = b.split(b'\n255\n', 1)
    w, h = map(int, head.split()[1:3])
    return w, h, rest[:w * h]
def png(path, w, h, ctype, depth, rows):
    def chunk(t, data):
        c = t + data
        return struct.pack('>I', len(data)) + c + struct.pack('>I', zlib.crc32(c) & 0xffffffff)
    raw = b''.join(b'\0' + r for r in rows)
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, depth, ctype, 0, 0, 0))
                           + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
for side in 'lr':
    w, h, px = pgm(f'{d}/{side}.pgm')
    rgb = [bytes(v for x in range(w) for v in (px[y*w+x], (px[y*w+x] * 7 + 40) % 256, 255 - px[y*w+x])) for y in range(h)]
    g16 = [b''.join(struct.pack('>H', px[y*w+x] * 257 + (x * 37 + y) % 200) for x in range(w)) for y in range(h)]
    for kind in ('rgb', 'g16', 'pgm16', 'ppm'):
        import os; os.makedirs(f'{d}/{kind}/left', exist_ok=True); os.makedirs(f'{d}/{kind}/right', exist_ok=True)
    name = 'left' if side == 'l' else 'right'
    png(f'{d}/rgb/{name}/0.png', w, h, 2, 8, rgb)
    png(f'{d}/g16/{name}/0.png', w, h, 0, 16, g16)
    open(f'{d}/pgm16/{name}/0.pgm', 'wb').write(b'P5\n%d %d\n65535\n' % (w, h) + b''.join(g16))
    open(f'{d}/ppm/{name}/0.ppm', 'wb').write(b'P6\n%d %d\n255\n' % (w, h) + b''.join(rgb))
PY
for kind in rgb g16 pgm16 ppm; do
	dir=$tmp/$kind
	ext=$(ls "$dir/left")
	"$bin" match -q "$dir/left/$ext" "$dir/right/$ext" -o "$tmp/$kind.pfm" --ndisp 32 --backend ref --min-confidence 32 || { fails=$((fails + 1)); continue; }
	mkdir -p "$tmp/dump_$kind"
	rm -f "$tmp/out" "$tmp/err" # else a wait can read the previous run's lines
	"$bin" run --camera "files:$dir" --loop --fps 5 --size 128x96 --ndisp 32 --backend ref \
		--dump-dir "$tmp/dump_$kind" >"$tmp/out" 2>"$tmp/err" &
	pid=$! waited=0
	while ! grep -q '^frame' "$tmp/out" && [ $waited -lt 600 ]; do sleep 0.1; waited=$((waited + 1)); done
	kill -USR1 $pid
	waited=0
	while ! grep -q '^dump' "$tmp/out" && [ $waited -lt 300 ]; do sleep 0.1; waited=$((waited + 1)); done
	kill -TERM $pid
	wait $pid
	if cmp -s "$tmp/$kind.pfm" "$tmp/dump_$kind/disparity.pfm"; then
		echo "ok: $kind: match and the daemon give the same map"
	else
		echo "FAIL: $kind: the maps differ (or no dump): $(cat "$tmp/err")"; fails=$((fails + 1))
	fi
done
strip='s/"timestamp_ns":[0-9]*,//; s/"latency_ms":\{[^}]*\},"cpu_ms":[^,]*,//; s/"velocity_mm_s":\[[^]]*\]//g; s/"daemon":\{[^}]*\}//'
for f in GREY YUYV UYVY Y10 Y12 Y16 RGGB BA81 GBRG GRBG RG10 BA10 BG12 GB12; do
	"$bin" run --frames 6 --size 128x96 --ndisp 32 --pixfmt $f --json 2>"$tmp/err" |
		sed -E "$strip" >"$tmp/synth_$f.json"
done
same=1
for f in YUYV UYVY Y10 Y12 Y16; do
	cmp -s "$tmp/synth_GREY.json" "$tmp/synth_$f.json" || same=0
done
if [ -s "$tmp/synth_GREY.json" ] && [ $same = 1 ]; then
	echo "ok: synth GREY, YUYV, UYVY, Y10, Y12 and Y16 give the same JSON ($(wc -l <"$tmp/synth_GREY.json") frames)"
else
	echo "FAIL: synth layouts differ (or no JSON): $(cat "$tmp/err")"; fails=$((fails + 1))
fi
# A Bayer mosaic's luma is the scene's through a 3x3 binomial: other bytes, the same objects.
objects() { awk '{ print gsub(/"id":/, "") }' "$1"; }
for f in RGGB BA81 GBRG GRBG RG10 BA10 BG12 GB12; do
	if [ -s "$tmp/synth_$f.json" ] && [ "$(objects "$tmp/synth_$f.json")" = "$(objects "$tmp/synth_GREY.json")" ]; then
		echo "ok: synth $f: the same objects in every frame as GREY"
	else
		echo "FAIL: synth $f: objects $(objects "$tmp/synth_$f.json" | tr '\n' ' ') against GREY's $(objects "$tmp/synth_GREY.json" | tr '\n' ' ')"
		fails=$((fails + 1))
	fi
done
if "$bin" run --frames 2 --pixfmt MJPG >/dev/null 2>"$tmp/err" || ! grep -q -- "--pixfmt MJPG" "$tmp/err"; then
	echo "FAIL: synth --pixfmt MJPG: not refused by name: $(cat "$tmp/err")"; fails=$((fails + 1))
else
	echo "ok: synth --pixfmt MJPG refused: $(grep -- --pixfmt "$tmp/err")"
fi
[ $fails -eq 0 ]
