#!/usr/bin/env bash
# The bad-input catalogue (docs/reliability.md): images, calibration, board and config files,
# camera frames and the command line. Each case is one `expect` line: the exit code, the
# error line that must appear (naming the file, field or value), then the input (the
# command). Every case also asserts that the output path still holds what it held before
# and that no temporary file is left beside it: no partial output.
# usage: catalogue.sh JETDEPTH
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../cli/emulator.sh" "$tmp"
fails=0
cases=0

"$bin" synth "$tmp/l.pgm" "$tmp/r.pgm" "$tmp/gt.pfm" --size 96x64 --ndisp 16 || exit 1
"$bin" synth "$tmp/small.pgm" "$tmp/small_r.pgm" --size 64x48 --ndisp 16 || exit 1
printf 'XX\n1 1\n255\n\0' >"$tmp/magic.pgm"
head -c 200 "$tmp/l.pgm" >"$tmp/trunc.pgm"
printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR' >"$tmp/trunc.png"
printf '\xff\xd8\xff\xe0garbage' >"$tmp/corrupt.jpg"
printf 'Pf\n96 64\n-1\n' >"$tmp/trunc.pfm"
mkdir -p "$tmp/gtdir"

# expect CODE NEEDLE -- ARGS...: run, check the exit code, stderr and the output file.
expect() {
	local code=$1 needle=$2
	shift 3
	cases=$((cases + 1))
	printf 'old' >"$tmp/out.pfm"
	"$bin" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
	local rc=$?
	if [ "$rc" -ne "$code" ]; then
		echo "FAIL: jetdepth $*: exit $rc, want $code"; cat "$tmp/stderr"
		fails=$((fails + 1)); return
	fi
	if ! grep -qF -- "$needle" "$tmp/stderr"; then
		echo "FAIL: jetdepth $*: stderr lacks '$needle':"; cat "$tmp/stderr"
		fails=$((fails + 1)); return
	fi
	if [ "$(cat "$tmp/out.pfm")" != "old" ] || ls "$tmp"/out.pfm.tmp.* >/dev/null 2>&1; then
		echo "FAIL: jetdepth $*: the output path was touched"
		fails=$((fails + 1)); return
	fi
	echo "ok: jetdepth $* -> $rc: $(head -n 1 "$tmp/stderr")"
}

L=$tmp/l.pgm R=$tmp/r.pgm O=$tmp/out.pfm
expect 1 "$tmp/missing.pgm: cannot open" -- match "$tmp/missing.pgm" "$R" -o "$O" --ndisp 16
expect 1 "$tmp/magic.pgm: unknown image format" -- match "$tmp/magic.pgm" "$R" -o "$O" --ndisp 16
expect 1 "$tmp/trunc.pgm: truncated" -- match "$L" "$tmp/trunc.pgm" -o "$O" --ndisp 16
expect 1 "$tmp/trunc.png" -- match "$tmp/trunc.png" "$R" -o "$O" --ndisp 16
expect 1 "$tmp/corrupt.jpg" -- match "$L" "$tmp/corrupt.jpg" -o "$O" --ndisp 16
expect 1 "a stereo pair must match" -- match "$L" "$tmp/small.pgm" -o "$O" --ndisp 16
expect 2 "--ndisp 0" -- match "$L" "$R" -o "$O" --ndisp 0
expect 2 "--ndisp 200: with --min-disp 0 it exceeds the image width 96" -- match "$L" "$R" -o "$O" --ndisp 200
expect 2 "--ndisp abc: not a whole number" -- match "$L" "$R" -o "$O" --ndisp abc
expect 2 "--window 0" -- match "$L" "$R" -o "$O" --algo sad --ndisp 16 --window 0
expect 2 "--window 4" -- match "$L" "$R" -o "$O" --algo sad --ndisp 16 --window 4
expect 2 "--p2 5: must be larger than --p1" -- match "$L" "$R" -o "$O" --ndisp 16 --p1 10 --p2 5
expect 2 "--p2 100000: too large" -- match "$L" "$R" -o "$O" --ndisp 16 --p2 100000
expect 2 "--p1 -3" -- match "$L" "$R" -o "$O" --ndisp 16 --p1 -3
expect 2 "--algo foo" -- match "$L" "$R" -o "$O" --algo foo
expect 2 "--levels 0" -- match "$L" "$R" -o "$O" --algo bp --ndisp 16 --levels 0
expect 2 "--lambda nan" -- match "$L" "$R" -o "$O" --algo bp --ndisp 16 --lambda nan
expect 2 "--threads 0" -- match "$L" "$R" -o "$O" --threads 0
JD_CUDA_LIB=/nonexistent/libcuda.so.1 expect 1 "--backend cuda: no CUDA driver: /nonexistent/libcuda.so.1" -- match "$L" "$R" -o "$O" --algo sad --ndisp 16 --backend cuda
JD_CUDA_LIB=/nonexistent/libcuda.so.1 expect 1 "--backend cuda: no CUDA driver: /nonexistent/libcuda.so.1" -- match "$L" "$R" -o "$O" --algo bp --ndisp 16 --backend cuda
expect 2 "--backend gpu9000: must be auto, cpu, ref, neon or cuda" -- match "$L" "$R" -o "$O" --backend gpu9000
JD_BACKEND=warp expect 1 "JD_BACKEND=warp: must be auto, cpu, ref, neon or cuda" -- match "$L" "$R" -o "$O" --ndisp 16
printf 'include %s\ndefault.backend fastest\n' "$(cd "$(dirname "$0")/../../boards" && pwd)/host.board" >"$tmp/be.board"
expect 1 "be.board:2: default.backend: 'fastest'" -- run --frames 1 --board "$tmp/be.board"
expect 2 "need LEFT RIGHT" -- match "$L" -o "$O"
expect 2 "unrecognized option" -- match "$L" "$R" -o "$O" --bogus
expect 2 "unknown command 'frobnicate'" -- frobnicate
expect 1 "/nonexistent-dir/out.pfm" -- match "$L" "$R" -o /nonexistent-dir/out.pfm --ndisp 16
expect 1 "unknown output format" -- match "$L" "$R" -o "$tmp/out.bmp" --ndisp 16
expect 1 "gt.pfm: cannot open" -- eval "$tmp/gt.pfm" "$tmp/gtdir"
expect 1 "$tmp/trunc.pfm: truncated" -- eval "$tmp/trunc.pfm" "$tmp"
expect 1 "not a gray PFM" -- eval "$L" "$tmp"
expect 1 "exceeds this machine's" -- run --frames 1 --size 16384x16384 --ndisp 1024
expect 2 "--frames -1" -- run --frames -1
printf 'name x\nspeed fast\n' >"$tmp/bad.board"
expect 1 "bad.board:2: speed: unknown key" -- run --frames 1 --board "$tmp/bad.board"
expect 1 "bad.board:2" -- board check "$tmp/bad.board"
printf 'include %s\nundef memory.ceiling_mb\nmemory.ceiling_mb 1\n' "$(cd "$(dirname "$0")/../../boards" && pwd)/host.board" >"$tmp/tiny.board"
expect 1 "the board's ceiling is 1 MiB" -- run --frames 1 --board "$tmp/tiny.board"
printf 'nvidia,p3768-0000+p3767-0000\0nvidia,p3767-0000\0nvidia,tegra234\0' >"$tmp/dt"
JETDEPTH_DT_COMPATIBLE=$tmp/dt expect 1 "compatible nvidia,p3767-0005: not in" -- run --frames 1 --board "$(dirname "$0")/../../boards/orin-nano.board"
expect 2 "--size 10: expected WIDTHxHEIGHT" -- run --size 10
expect 1 "--board no-such-board: no such file" -- run --frames 1 --board no-such-board
expect 2 "--camera 'usb': expected synth, files:DIR" -- run --frames 1 --camera usb
expect 1 "$tmp/nocam/left: cannot open the directory" -- run --frames 1 --camera "files:$tmp/nocam"
mkdir -p "$tmp/cam/left" "$tmp/cam/right"
cp "$tmp/l.pgm" "$tmp/cam/left/0.pgm"; cp "$tmp/r.pgm" "$tmp/cam/right/1.pgm"
expect 1 "pair 0: $tmp/cam/left/0.pgm has no $tmp/cam/right/0.pgm" -- run --frames 1 --camera "files:$tmp/cam"
expect 2 "--fps fast: must be a number" -- run --frames 1 --fps fast
expect 1 "left camera /dev/jd-no-such-video: cannot open" -- run --frames 1 --camera v4l2:/dev/jd-no-such-video,/dev/jd-no-such-video2
expect 2 "--tiles 500: must be 0 (automatic) to 120" -- run --frames 1 --size 160x120 --tiles 500
expect 2 "--tile-overlap -3: must be 0" -- run --frames 1 --size 160x120 --tile-overlap -3
JD_CUDA_LIB=/nonexistent/libcuda.so.1 expect 1 "jetdepth: tune: " -- tune --size 64x48 --ndisp 16 -o "$tmp/tuning.txt"
expect 2 "give --size and --ndisp together" -- tune --size 64x48
expect 2 "sensing needs the camera: --focal PX and --baseline MM" -- sense "$tmp/l.pgm" "$tmp/r.pgm" --rectified -o "$tmp/out.pfm"
expect 2 "--roi 5,5,2,2: expected X0,Y0,X1,Y1" -- sense "$tmp/l.pgm" "$tmp/r.pgm" --rectified --focal 300 --baseline 60 --roi 5,5,2,2 -o "$tmp/out.pfm"
expect 2 "--roi 0,0,500,50: outside the 96x64 image" -- sense "$tmp/l.pgm" "$tmp/r.pgm" --rectified --focal 300 --baseline 60 --roi 0,0,500,50 --ndisp 16 -o "$tmp/out.pfm"
expect 2 "--baseline 0: must be a number from 0.01" -- sense "$tmp/l.pgm" "$tmp/r.pgm" --rectified --focal 300 --baseline 0 -o "$tmp/out.pfm"
expect 2 "a raw pair needs its calibration (--calib)" -- sense "$tmp/l.pgm" "$tmp/r.pgm" --focal 300 --baseline 60 -o "$tmp/out.pfm"
expect 1 "trunc.pgm" -- sense "$tmp/trunc.pgm" "$tmp/r.pgm" --rectified --focal 300 --baseline 60 -o "$tmp/out.pfm"
printf 'M1: [500, 0, 320, 0, 500, 240, 0, 0]\n' >"$tmp/short.yaml"
expect 1 "short.yaml:1: M1: 8 values, expected 9" -- calib check "$tmp/short.yaml"
printf 'M1: [500, 0, 320, 0, 500, 240, 0, 0, 1]\nD1: [0, 0, 0, 0, 0]\nM2: [500, 0, 320, 0, 500, 240, 0, 0, 1]\nD2: [0, 0, 0, 0, 0]\nR: [1, 0, 0, 0, 1, 0, 0, 0, 1]\n' >"$tmp/not.yaml"
expect 1 "not.yaml: T: missing" -- calib check "$tmp/not.yaml"
expect 1 "nocalib.yaml: cannot open: No such file" -- sense "$tmp/l.pgm" "$tmp/r.pgm" --calib "$tmp/nocalib.yaml" -o "$tmp/out.pfm"
expect 2 "--depth 9,3: expected MIN,MAX" -- calib check "$tmp/short.yaml" --depth 9,3
printf 'size 160x120\nspeed fast\n' >"$tmp/bad.conf"
expect 2 "bad.conf:2: '--speed': not an option of jetdepth run" -- run --frames 1 --config "$tmp/bad.conf"
printf 'fps fast\n' >"$tmp/fps.conf"
expect 2 "fps.conf:1: --fps fast: must be a number" -- run --frames 1 --config "$tmp/fps.conf"
printf 'camera files:/x extra\n' >"$tmp/two.conf"
expect 2 "two.conf:1: camera: one value after the key" -- run --frames 1 --config "$tmp/two.conf"
printf 'board host\n' >"$tmp/board.conf"
expect 2 "board.conf:1: board: only on the command line" -- run --frames 1 --config "$tmp/board.conf"
expect 1 "--config $tmp/none.conf: cannot open: No such file" -- run --frames 1 --config "$tmp/none.conf"
expect 2 "--pixfmt NV12: expected YUYV, UYVY, GREY or MJPG" -- run --frames 1 --pixfmt NV12
expect 2 "--buffers 99: must be 2 to 16" -- run --frames 1 --buffers 99

# Images: unsupported or absurd headers, a PFM whose scale is no number.
printf 'P5\n4 3\n70000\n' >"$tmp/deep.pgm"
expect 1 "deep.pgm: maxval 70000: must be 1 to 65535" -- match "$tmp/deep.pgm" "$R" -o "$O" --ndisp 16
printf 'P5\n0 0\n255\n' >"$tmp/empty.pgm"
expect 1 "empty.pgm: image size 0x0 outside 1..16384" -- match "$tmp/empty.pgm" "$R" -o "$O" --ndisp 16
printf 'Pf\n96 64\nnan\n' >"$tmp/nan.pfm"
expect 1 "nan.pfm: malformed PFM scale 'nan'" -- eval "$tmp/nan.pfm" "$tmp"
printf '\xff\xd8\xff' >"$tmp/soi.jpg"
expect 1 "soi.jpg: 3 bytes is not a JPEG frame" -- match "$tmp/soi.jpg" "$R" -o "$O" --ndisp 16
# Calibration: values that parse but cannot describe a stereo rig.
sc=$(dirname "$0")/../fuzz/corpus/calib/opencv_stereo.yaml
sed 's/data: \[ 360., 0., 224.5/data: [ 0., 0., 224.5/' "$sc" >"$tmp/f0.yaml"
expect 1 "f0.yaml: M1: focal lengths must be positive (fx 0, fy 360)" -- calib check "$tmp/f0.yaml" --size 450x375
sed 's/data: \[ 360., 0., 224.5/data: [ .nan, 0., 224.5/' "$sc" >"$tmp/nan.yaml"
expect 1 "nan.yaml:7: M1[0]: '.nan' is not a finite number" -- calib check "$tmp/nan.yaml" --size 450x375
sed 's/data: \[ -60., 0., 0. \]/data: [ 0., 0., 0. ]/' "$sc" >"$tmp/b0.yaml"
expect 1 "b0.yaml: T: the baseline is zero (T = 0, 0, 0)" -- calib check "$tmp/b0.yaml" --size 450x375
sed 's/plumb_bob/fisheye/' "$(dirname "$0")/../fuzz/corpus/calib/ros_single.yaml" >"$tmp/fe.yaml"
expect 1 "fe.yaml:8: distortion_model: only plumb_bob is supported" -- calib check "$tmp/fe.yaml" "$tmp/fe.yaml"
printf 'M1: [1, 2\n' >"$tmp/open.yaml"
expect 1 "open.yaml:2: not valid YAML" -- calib check "$tmp/open.yaml"
expect 1 "/dev/zero: is a character device, not a regular file" -- calib check /dev/zero
# Board and config files that never end a line.
head -c 5000 /dev/zero | tr '\0' x >"$tmp/long.txt"
expect 1 "long.txt:1: line longer than" -- run --frames 1 --board "$tmp/long.txt"
expect 2 "long.txt:1: line longer than" -- run --frames 1 --config "$tmp/long.txt"
# Camera frames: a truncated PGM and a corrupt JPEG in a files camera are dropped with their
# reason, counted, and the run goes on (exit 0).
mkdir -p "$tmp/tc/left" "$tmp/tc/right"
for i in 0 1 2; do "$bin" synth "$tmp/tc/left/$i.pgm" "$tmp/tc/right/$i.pgm" --size 96x64 --ndisp 16 --frame $i >/dev/null; done
head -c 300 "$tmp/tc/right/1.pgm" >"$tmp/t1" && mv "$tmp/t1" "$tmp/tc/right/1.pgm"
expect 0 "frame dropped: right camera $tmp/tc/right: $tmp/tc/right/1.pgm: truncated: 6144 pixel bytes expected, 287 present" -- run --size 96x64 --ndisp 16 --frames 3 --camera "files:$tmp/tc"
mkdir -p "$tmp/jc/left" "$tmp/jc/right"
jpg=$(dirname "$0")/../fuzz/corpus/jpeg/color.jpg
for i in 0 1 2; do cp "$jpg" "$tmp/jc/left/$i.jpg"; cp "$jpg" "$tmp/jc/right/$i.jpg"; done
head -c 300 "$jpg" >"$tmp/jc/right/1.jpg"
expect 0 "frame dropped: right camera $tmp/jc/right: frame 1: not a readable JPEG: Invalid JPEG file structure" -- run --size 16x12 --ndisp 4 --algo sad --frames 3 --camera "files:$tmp/jc"
# Outputs named on the command line.
expect 2 "--preview 99999: expected [ADDRESS:]PORT" -- run --frames 1 --preview 99999
expect 2 "--udp nohost:: expected HOST:PORT" -- run --frames 1 --udp nohost:
expect 2 "--udp 999.1.1.1:5: " -- run --frames 1 --udp 999.1.1.1:5

# A good run still works and replaces the old output atomically.
printf 'old' >"$O"
if "$bin" match -q "$L" "$R" -o "$O" --ndisp 16 && [ "$(head -c 2 "$O")" = "Pf" ]; then
	echo "ok: a good run writes the PFM"
else
	echo "FAIL: the good run did not write the PFM"; fails=$((fails + 1))
fi
echo "$((cases + 1 - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
