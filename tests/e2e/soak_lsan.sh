#!/usr/bin/env bash
# The short soak under LeakSanitizer (the fuzz or asan preset's binary, CI): `jetdepth run`
# for 1000 frames on the synthetic camera (gray, then raw 12-bit Bayer), then 1000 on the
# files camera looping over JPEG pairs with a truncated and a corrupt one, then 1000 over
# side-by-side images with a truncated one; each must exit 0 with no leak and no sanitizer
# report, and every frame read must be accounted for in the summary.
# usage: soak_lsan.sh JETDEPTH
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:exitcode=23
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

run() { # WHAT ARGS...
	local what=$1
	shift
	"$bin" run --size 160x120 --ndisp 16 --algo sad --frames 1000 "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	local n
	n=$(grep -c '^frame ' "$tmp/out")
	if [ $rc -ne 0 ] || grep -q 'Sanitizer' "$tmp/err" || [ "$n" -ne 1000 ]; then
		echo "FAIL: $what: exit $rc, $n of 1000 frames"; grep -A20 'Sanitizer' "$tmp/err" | head -40
		fails=$((fails + 1))
	else
		echo "ok: $what: 1000 frames, exit 0, no leak or sanitizer report; $(grep '^dropped' "$tmp/out")"
	fi
}

run "synthetic camera"
run "synthetic camera, raw 12-bit Bayer frames" --pixfmt RG12
# JPEG pairs from the synthetic scene, one truncated, one with corrupt bytes
mkdir -p "$tmp/cam/left" "$tmp/cam/right"
for i in 0 1 2 3 4 5; do
	"$bin" synth "$tmp/l.pgm" "$tmp/r.pgm" --size 160x120 --ndisp 16 --frame $i >/dev/null || exit 1
	cp "$tmp/l.pgm" "$tmp/cam/left/$i.pgm"
	cp "$tmp/r.pgm" "$tmp/cam/right/$i.pgm"
done
head -c 5000 "$tmp/cam/right/2.pgm" >"$tmp/t" && mv "$tmp/t" "$tmp/cam/right/2.pgm"
jpg=$(dirname "$0")/../fuzz/corpus/jpeg/gray.jpg
rm "$tmp/cam/left/4.pgm" "$tmp/cam/right/4.pgm"
head -c 200 "$jpg" >"$tmp/cam/left/4.jpg" # truncated
cp "$jpg" "$tmp/cam/right/4.jpg"          # a 16x12 frame in a 160x120 stream
run "files camera with a truncated PGM and a corrupt JPEG, looping" --camera "files:$tmp/cam" --loop
# the same images side by side in one frame, one of them truncated
mkdir -p "$tmp/sbs"
for i in 0 1 2 3; do
	"$bin" synth "$tmp/l.pgm" "$tmp/r.pgm" --size 160x120 --ndisp 16 --frame $i >/dev/null || exit 1
	/usr/bin/python3 - "$tmp/l.pgm" "$tmp/r.pgm" "$tmp/sbs/$i.pgm" <<'PY'
import sys
l, r = (open(p, 'rb').read()[-19200:] for p in sys.argv[1:3])
rows = b''.join(l[y * 160:(y + 1) * 160] + r[y * 160:(y + 1) * 160] for y in range(120))
open(sys.argv[3], 'wb').write(b'P5\n320 120\n255\n' + rows)
PY
done
head -c 9000 "$tmp/sbs/3.pgm" >"$tmp/t" && mv "$tmp/t" "$tmp/sbs/3.pgm"
run "files camera, both views side by side in each image, one truncated, looping" \
	--camera "files-sbs:$tmp/sbs" --loop
[ $fails -eq 0 ]
