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
. "$(dirname "$0")/../harness/emulator.sh" "$tmp"
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

# A binary built without nvcc says so for every --backend cuda: its driver cases skip.
"$bin" run --frames 1 --size 64x48 --ndisp 16 2>&1 | grep -q 'built without CUDA kernels' &&
	no_cuda=1 || no_cuda=0
[ $no_cuda = 1 ] && echo "skip: the GPU driver's cases (this binary was built without CUDA kernels)"

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
[ $no_cuda = 1 ] || JD_CUDA_LIB=/nonexistent/libcuda.so.1 expect 1 "--backend cuda: no CUDA driver: /nonexistent/libcuda.so.1" -- match "$L" "$R" -o "$O" --algo sad --ndisp 16 --backend cuda
[ $no_cuda = 1 ] || JD_CUDA_LIB=/nonexistent/libcuda.so.1 expect 1 "--backend cuda: no CUDA driver: /nonexistent/libcuda.so.1" -- match "$L" "$R" -o "$O" --algo bp --ndisp 16 --backend cuda
expect 2 "--backend gpu9000: must be auto, cpu, ref, neon or cuda" -- match "$L" "$R" -o "$O" --backend gpu9000
JD_BACKEND=warp expect 1 "JD_BACKEND=warp: must be auto, cpu, ref, neon or cuda" -- match "$L" "$R" -o "$O" --ndisp 16
JD_BACKEND=warp expect 1 "JD_BACKEND=warp: must be auto, cpu, ref, neon or cuda" -- run --frames 1
JD_BACKEND=warp expect 1 "JD_BACKEND=warp: must be auto, cpu, ref, neon or cuda" -- bench --pipeline --runs 1
[ "$(grep -c 'JD_BACKEND=warp' "$tmp/stderr")" = 1 ] && [ ! -s "$tmp/stdout" ] ||
	{ echo "FAIL: bench --pipeline with JD_BACKEND=warp: the error not once, or a table"; fails=$((fails + 1)); }
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
expect 2 "--max-subpix-rms 0: must be above 0 px" -- eval "$tmp/gt.pfm" "$tmp" --max-subpix-rms 0
expect 2 "--max-band-published -1: must be 0 or more pixels" -- eval "$tmp/gt.pfm" "$tmp" --max-band-published -1
expect 2 "--max-conf-ratio needs --confidence CONF.png" -- eval "$tmp/gt.pfm" "$tmp" --max-conf-ratio 0.3
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
expect 2 "--min-area-mm2 -5: must be a number from 0 to 1e+08" -- sense "$tmp/l.pgm" "$tmp/r.pgm" --rectified --focal 300 --baseline 60 --min-area-mm2 -5 -o "$tmp/out.pfm"
expect 2 "--roi 5,5,2,2: expected X0,Y0,X1,Y1" -- sense "$tmp/l.pgm" "$tmp/r.pgm" --rectified --focal 300 --baseline 60 --roi 5,5,2,2 -o "$tmp/out.pfm"
expect 2 "--roi 0,0,500,50: outside the 96x64 image" -- sense "$tmp/l.pgm" "$tmp/r.pgm" --rectified --focal 300 --baseline 60 --roi 0,0,500,50 --ndisp 16 -o "$tmp/out.pfm"
expect 2 "--baseline 0: must be a number from 1 to 10000" -- sense "$tmp/l.pgm" "$tmp/r.pgm" --rectified --focal 300 --baseline 0 -o "$tmp/out.pfm"
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
expect 2 "--pixfmt NV12: expected one of GREY, YUYV, UYVY, MJPG (MJPEG), Y10" -- run --frames 1 --pixfmt NV12
expect 2 "--buffers 99: must be 2 to 16" -- run --frames 1 --buffers 99
expect 1 "synth camera: --pixfmt MJPG: it gives every layout but MJPG" -- run --frames 1 --pixfmt MJPG
expect 2 "bench --pixfmt: only with --pipeline" -- bench --pixfmt YUYV
expect 2 "bench --pixfmt MJPG: expected a camera layout but MJPG" -- bench --pipeline --pixfmt MJPG
[ $no_cuda = 1 ] || JD_CUDA_WAIT=spin expect 1 "JD_CUDA_WAIT=spin: must be poll or block" -- match "$L" "$R" -o "$O" --ndisp 16 --backend cuda

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
expect 1 "fe.yaml:8: distortion_model: 'fisheye': expected plumb_bob, rational_polynomial or equidistant" -- calib check "$tmp/fe.yaml" "$tmp/fe.yaml"
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

# --- Nothing dangerous reaches the robot. ---
# Outputs: two names for one file; a directory, a FIFO nobody reads.
expect 2 "-o $O and --color $O name the same file" -- match "$L" "$R" -o "$O" --color "$O" --ndisp 16
expect 2 "name the same file" -- match "$L" "$R" -o "$O" --color "$tmp/./out.pfm" --ndisp 16
ln -sf out.pfm "$tmp/alias.pfm"
expect 2 "-o $O and --color $tmp/alias.pfm name the same file" -- match "$L" "$R" -o "$O" --color "$tmp/alias.pfm" --ndisp 16
expect 2 "-o $O and --disp $O name the same file" -- sense "$L" "$R" --rectified --focal 300 --baseline 60 --ndisp 16 -o "$O" --disp "$O"
expect 2 "LEFT $tmp/same.pgm and RIGHT $tmp/same.pgm name the same file" -- synth "$tmp/same.pgm" "$tmp/same.pgm" --size 64x48 --ndisp 16
mkdir -p "$tmp/dir.pfm" "$tmp/dir.json"
expect 1 "$tmp/dir.pfm: is a directory" -- match "$L" "$R" -o "$tmp/dir.pfm" --ndisp 16
expect 1 "$tmp/dir.json: is a directory" -- sense "$L" "$R" --rectified --focal 300 --baseline 60 --ndisp 16 -o "$tmp/dir.json"
mkfifo "$tmp/fifo.pfm" "$tmp/fifo.pgm" "$tmp/fifo.yaml" "$tmp/fifo.conf" "$tmp/fifo.board"
expect 1 "$tmp/fifo.pfm: cannot write: a FIFO that nobody reads" -- match "$L" "$R" -o "$tmp/fifo.pfm" --ndisp 16
# Inputs that are not regular files: refused up front, never a hang.
expect 1 "$tmp/fifo.pgm: is a FIFO, not a regular file" -- match "$tmp/fifo.pgm" "$R" -o "$O" --ndisp 16
expect 1 "$tmp/gtdir: is a directory, not a file" -- match "$tmp/gtdir" "$R" -o "$O" --ndisp 16
expect 1 "/dev/zero: is a character device, not a regular file" -- match "$L" /dev/zero -o "$O" --ndisp 16
expect 1 "$tmp/fifo.pgm: is a FIFO, not a regular file" -- eval "$tmp/fifo.pgm" "$tmp"
expect 1 "$tmp/fifo.yaml: is a FIFO, not a regular file" -- calib check "$tmp/fifo.yaml"
expect 1 "$tmp/gtdir: is a directory, not a file" -- calib check "$tmp/gtdir"
expect 1 "$tmp/gtdir: is a directory, not a file" -- sense "$L" "$R" --calib "$tmp/gtdir" -o "$O"
expect 1 "$tmp/fifo.board: is a FIFO, not a regular file" -- run --frames 1 --board "$tmp/fifo.board"
expect 1 "--config $tmp/gtdir: is a directory, not a file" -- run --frames 1 --config "$tmp/gtdir"
expect 1 "--config $tmp/fifo.conf: is a FIFO, not a regular file" -- run --frames 1 --config "$tmp/fifo.conf"
mkdir -p "$tmp/ff/left" "$tmp/ff/right"
mkfifo "$tmp/ff/left/0.pgm" "$tmp/ff/right/0.pgm"
expect 1 "$tmp/ff/left/0.pgm: is a FIFO, not a regular file" -- run --frames 1 --camera "files:$tmp/ff"
# Calibrations that parse but cannot be this rig, or not at this frame size.
rs=$(dirname "$0")/../fuzz/corpus/calib/ros_single.yaml
sed 's/data: \[500, 0, 320, 0, 0, 500, 240, 0, 0, 0, 1, 0\]/data: [500, 0, 320, -30000, 0, 500, 240, 0, 0, 0, 1, 0]/' "$rs" >"$tmp/right.yaml"
cp "$rs" "$tmp/left.yaml"
sed 's/image_width: 640/image_width: 1280/; s/image_height: 480/image_height: 720/' "$tmp/right.yaml" >"$tmp/right720.yaml"
expect 1 "$tmp/left.yaml is for 640x480 images but $tmp/right720.yaml for 1280x720" -- calib check "$tmp/left.yaml" "$tmp/right720.yaml"
sed 's/data: \[1, 0, 0, 0, 1, 0, 0, 0, 1\]/data: [0, 0, 0, 0, 0, 0, 0, 0, 0]/' "$tmp/left.yaml" >"$tmp/r0.yaml"
expect 1 "$tmp/r0.yaml: rectification_matrix: not a rotation" -- calib check "$tmp/r0.yaml" "$tmp/right.yaml"
sed 's/-30000/-1e-297/' "$tmp/right.yaml" >"$tmp/tiny_b.yaml"
expect 1 "a stereo rig's is 1 to 10000 mm" -- calib check "$tmp/left.yaml" "$tmp/tiny_b.yaml"
sed 's/-30000/-1e300/' "$tmp/right.yaml" >"$tmp/huge_b.yaml"
expect 1 "a stereo rig's is 1 to 10000 mm" -- calib check "$tmp/left.yaml" "$tmp/huge_b.yaml"
sed 's/data: \[500, 0, 320, -30000, 0, 500/data: [500, 0, 320, -30000, 0, -500/' "$tmp/right.yaml" >"$tmp/negf.yaml"
expect 1 "$tmp/negf.yaml: projection_matrix: focal lengths must be positive (P[0][0] 500, P[1][1] -500)" -- calib check "$tmp/left.yaml" "$tmp/negf.yaml"
{ cat "$tmp/right.yaml"; printf 'camera_matrix:\n  rows: 3\n  cols: 3\n  data: [1, 0, 0, 0, 1, 0, 0, 0, 1]\n'; } >"$tmp/dup.yaml"
expect 1 "dup.yaml:21: camera_matrix: given twice (first at line 4)" -- calib check "$tmp/left.yaml" "$tmp/dup.yaml"
sed 's/data: \[500, 0, 320, 0, 500, 240, 0, 0, 1\]/data: [500, 0, 900, 0, 500, 240, 0, 0, 1]/' "$tmp/right.yaml" >"$tmp/pp.yaml"
expect 1 "$tmp/pp.yaml: camera_matrix: principal point (900, 240) outside the 640x480 image" -- calib check "$tmp/left.yaml" "$tmp/pp.yaml"
sed 's/-30000/30000/' "$tmp/right.yaml" >"$tmp/txpos.yaml"
expect 1 "Tx = P[0][3] = 30000 > 0: is this the left camera's file?" -- calib check "$tmp/left.yaml" "$tmp/txpos.yaml"
expect 1 "$tmp/right.yaml: projection_matrix: Tx = P[0][3] = -30000, the left camera's is 0: is this the right camera's file?" -- calib check "$tmp/right.yaml" "$tmp/left.yaml"
sed 's/data: \[ -60., 0., 0. \]/data: [ 60., 0., 0. ]/' "$sc" >"$tmp/tpos.yaml"
expect 1 "tpos.yaml: T: T[0] = 60 > 0 puts the right camera left of the left one" -- calib check "$tmp/tpos.yaml"
sed 's/data: \[ 1., 0., 0., 0., 1., 0., 0., 0., 1. \]/data: [ 2., 0., 0., 0., 2., 0., 0., 0., 2. ]/' "$sc" >"$tmp/r2.yaml"
expect 1 "r2.yaml: R: not a rotation" -- calib check "$tmp/r2.yaml"
expect 1 "$tmp/left.yaml: the calibration is for 640x480 images, the frames are 96x64" -- run --frames 1 --size 96x64 --ndisp 16 --camera "files:$tmp/cam" --calib "$tmp/left.yaml" --calib "$tmp/right.yaml"
expect 1 "$tmp/left.yaml: the calibration is for 640x480 images, the frames are 96x64" -- sense "$L" "$R" --calib "$tmp/left.yaml" --calib "$tmp/right.yaml" --ndisp 16 -o "$O"
expect 1 "M1: principal point (224.5, 187) lies outside the 96x64 frames" -- sense "$L" "$R" --calib "$sc" --ndisp 16 -o "$O"
expect 1 "M1: principal point (224.5, 187) lies outside the 96x64 frames" -- calib check "$sc" --size 96x64
python3 -c "print('a: ' + '[' * 100000 + ']' * 100000)" >"$tmp/deep.yaml" 2>/dev/null || printf 'a: [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]\n' >"$tmp/deep.yaml"
expect 1 "deep.yaml:1: nested deeper than 16 levels: not a calibration file" -- calib check "$tmp/deep.yaml"
# Swapped or unrectified pairs: refused by sense with the reason.
"$bin" synth "$tmp/sl.pgm" "$tmp/sr.pgm" --size 320x240 --ndisp 48 >/dev/null
expect 1 "left and right look swapped" -- sense "$tmp/sr.pgm" "$tmp/sl.pgm" --rectified --focal 300 --baseline 60 --ndisp 48 -o "$O"
{ printf 'P5\n320 240\n255\n'; tail -c $((320 * 240)) "$tmp/sr.pgm" | head -c $((320 * 234)) | { head -c $((320 * 6)) /dev/zero | tr '\0' '\200'; cat; }; } >"$tmp/sdown.pgm"
expect 1 "the pair does not look rectified (matches rows apart)" -- sense "$tmp/sl.pgm" "$tmp/sdown.pgm" --rectified --focal 300 --baseline 60 --ndisp 48 -o "$O"
# Boards: an unknown Jetson is named, never a silent demo; a service needs a real camera.
printf 'nvidia,p3768-0000+p3767-0099\0nvidia,p3767-0099\0nvidia,tegra234\0' >"$tmp/dt99"
JETDEPTH_BOARD_DIR=$(dirname "$0")/../../boards JETDEPTH_DT_COMPATIBLE=$tmp/dt99 expect 1 "this Jetson's device tree (compatible: nvidia,p3768-0000+p3767-0099, nvidia,p3767-0099, nvidia,tegra234) matches no board" -- run --frames 1 --board auto
JETDEPTH_BOARD_DIR=$(dirname "$0")/../../boards JETDEPTH_DT_COMPATIBLE=$tmp/dt99 expect 1 "matches no board" -- board detect
JETDEPTH_BOARD_DIR=$(dirname "$0")/../../boards JETDEPTH_DT_COMPATIBLE=$tmp/nodt expect 1 "not a Jetson" -- board detect
NOTIFY_SOCKET=$tmp/no-such-socket expect 1 "no camera configured (board (built-in defaults)): under systemd (NOTIFY_SOCKET is set) the synthetic scene runs only when asked for" -- run --frames 1 --size 96x64 --ndisp 16
# INVOCATION_ID alone (a shell in a user session under systemd) is no service: the demo runs
INVOCATION_ID=test "$bin" run --frames 1 --size 64x48 --ndisp 16 >/dev/null 2>&1 ||
	{ echo "FAIL: INVOCATION_ID alone switched service mode on"; fails=$((fails + 1)); }
WATCHDOG_USEC=junk "$bin" run --frames 1 --size 64x48 --ndisp 16 2>&1 >/dev/null |
	grep -q "WATCHDOG_USEC=junk: not a whole number of microseconds" ||
	{ echo "FAIL: WATCHDOG_USEC=junk is not said"; fails=$((fails + 1)); }
# Options: every number in range, with its name and value.
expect 2 "--udp localhost:70000: port 70000: must be 1 to 65535" -- run --frames 1 --udp localhost:70000
expect 2 "--udp localhost:0: port 0: must be 1 to 65535" -- run --frames 1 --udp localhost:0
expect 2 "--udp ::1:5000: expected HOST:PORT (an IPv6 address in brackets: [::1]:5000)" -- run --frames 1 --udp ::1:5000
expect 1 "files camera: $tmp/cam/left/0.pgm is 96x64 but --size is 450x375: every frame would be dropped" -- run --frames 1 --size 450x375 --camera "files:$tmp/cam"
mkdir -p "$tmp/bad/left" "$tmp/bad/right"
cp "$tmp/l.pgm" "$tmp/bad/left/0.pgm"; head -c 300 "$tmp/r.pgm" >"$tmp/bad/right/0.pgm"
expect 1 "no frame was processed; the last drop: right camera" -- run --ndisp 16 --camera "files:$tmp/bad"
expect 2 "--frame -5: must be 0 or more" -- synth "$tmp/x.pgm" "$tmp/y.pgm" --frame -5
expect 2 "--max-bad 500: must be a percentage" -- eval "$tmp/gt.pfm" "$tmp" --max-bad 500
expect 2 "--stats 100000: seconds, 0 (never) to 86400" -- run --frames 1 --stats 100000
expect 2 "--seed 99999999999: not a whole number" -- run --frames 1 --seed 99999999999
expect 2 "--stall -1: seconds, 0 (never) to 3600" -- run --frames 1 --stall -1
long=$(printf 'd%.0s' $(seq 600))
expect 2 "characters: 1 to 511" -- run --frames 1 --dump-dir "$tmp/$long"
expect 1 "--dump-dir $tmp/nodump: No such file or directory" -- run --frames 1 --dump-dir "$tmp/nodump"
expect 1 "--dump-dir $L: not a directory" -- run --frames 1 --dump-dir "$L"

# --- Round two: calibrations and options in the wrong units, contradictions, misspellings. ---
sed 's/data: \[ -60., 0., 0. \]/data: [ -6.2, 0., 0. ]/' "$sc" >"$tmp/cm.yaml"
expect 1 "cm.yaml: P2: baseline 6.2 in the file's unit, which it does not state: 6.2 mm, or 62 mm if centimetres; add a line \"units: mm\"" -- calib check "$tmp/cm.yaml" --size 450x375
{ cat "$tmp/cm.yaml"; printf 'units: furlongs\n'; } >"$tmp/furlong.yaml"
expect 1 "furlong.yaml:33: units: 'furlongs': expected mm, cm or m" -- calib check "$tmp/furlong.yaml" --size 450x375
sed 's/data: \[ -60., 0., 0. \]/data: [ -2., -60., 0. ]/' "$sc" >"$tmp/vert.yaml"
expect 1 "vert.yaml: T: (-2, -60, 0) runs mostly along y: one camera above the other" -- calib check "$tmp/vert.yaml" --size 450x375
sed 's/data: \[ -60., 0., 0. \]/data: [ -5., 0., -60. ]/' "$sc" >"$tmp/depthwise.yaml"
expect 1 "depthwise.yaml: T: (-5, 0, -60) runs mostly along z" -- calib check "$tmp/depthwise.yaml" --size 450x375
{ cat "$sc"; printf 'image_width: 1280\nimage_height: 720\n'; } >"$tmp/sized.yaml"
expect 1 "sized.yaml: the calibration is for 1280x720 images, the frames are 450x375" -- calib check "$tmp/sized.yaml" --size 450x375
{ cat "$sc"; printf 'imageSize: [ 1280, 720 ]\n'; } >"$tmp/isize.yaml"
expect 1 "isize.yaml: the calibration is for 1280x720 images, the frames are 450x375" -- calib check "$tmp/isize.yaml" --size 450x375
{ cat "$sc"; printf 'image_width: 450\nimage_height: 375\nimage_size: [ 640, 480 ]\n'; } >"$tmp/twosize.yaml"
expect 1 "twosize.yaml:35: image_size says 640x480 but image_width and image_height say 450x375" -- calib check "$tmp/twosize.yaml"
sed 's/distortion_coefficients/distortion_coefficents/' "$tmp/left.yaml" >"$tmp/typo.yaml"
expect 1 "typo.yaml:9: distortion_coefficents: unknown key; did you mean distortion_coefficients?" -- calib check "$tmp/typo.yaml" "$tmp/right.yaml"
expect 2 "--baseline 0.06: millimetres, 1 to 10000 (0.06 m is 60 mm: give --baseline 60)" -- sense "$L" "$R" --rectified --focal 300 --baseline 0.06 -o "$O"
expect 2 "--baseline 60000: must be a number from 1 to 10000" -- sense "$L" "$R" --rectified --focal 300 --baseline 60000 -o "$O"
expect 2 "--cx 5000: outside the 96x64 image" -- sense "$L" "$R" --rectified --focal 300 --baseline 60 --cx 5000 -o "$O"
expect 2 "--cy -100: outside the 96x64 image" -- sense "$L" "$R" --rectified --focal 300 --baseline 60 --cy -100 -o "$O"
printf '0.1 0.2 850 0 0 0 1\n' >"$tmp/pose_mm.txt"
expect 2 "pose_mm.txt: the translation (0.1, 0.2, 850) is 850 m from the robot's base: is the file in millimetres? Add a line \"units: mm\"" -- sense "$L" "$R" --rectified --focal 300 --baseline 60 --extrinsics "$tmp/pose_mm.txt" -o "$O"
expect 2 "--calib $sc: the synthetic camera renders rectified frames of its own rig and takes no calibration" -- run --frames 1 --calib "$sc"

# The formats calibration tools write, and files other tools wrote that are not ours.
printf '<?xml version="1.0"?>\n<opencv_storage>\n<M1 type_id="opencv-matrix">\n<rows>3</rows><cols>3</cols><dt>d</dt>\n<data>1 0 0 0 1 0 0 0 1</data></M2>\n</opencv_storage>\n' >"$tmp/cross.xml"
expect 1 "cross.xml:5: not OpenCV XML: </M2> closes <M1>" -- calib check "$tmp/cross.xml"
printf '<?xml version="1.0"?>\n<opencv_storage>\n<M1 type_id="opencv-matrix"><rows>3</rows><cols>3</cols><dt>d</dt><data>1 0 0 0 1 0 0 0</data></M1>\n</opencv_storage>\n' >"$tmp/short.xml"
expect 1 "short.xml:3: M1: 8 values, expected 9" -- calib check "$tmp/short.xml"
sed '12s/data: \[ 0., 0., 0., 0., 0. \]/data: [ 0., 0., 0., 0., 0., 0. ]/' "$sc" >"$tmp/d6.yaml"
expect 1 "D1: 6 numbers; OpenCV's model takes 4, 5, 8, 12, 14" -- calib check "$tmp/d6.yaml" --size 450x375
printf 'cam0:\n  camera_model: omni\n  intrinsics: [1, 300, 300, 160, 120]\ncam1:\n  camera_model: omni\n' >"$tmp/omni.yaml"
expect 1 "omni.yaml:2: cam0: camera_model: 'omni': only pinhole is supported" -- calib check "$tmp/omni.yaml"
printf 'cam0:\n  camera_model: pinhole\n  intrinsics: [300, 300, 160, 120]\n  distortion_model: radtan\n  distortion_coefs: [0, 0, 0, 0]\n' >"$tmp/kal_typo.yaml"
expect 1 "kal_typo.yaml:5: distortion_coefs: unknown key; did you mean distortion_coeffs?" -- calib check "$tmp/kal_typo.yaml"
printf '\xff\xfeM\x001\x00' >"$tmp/utf16.yaml"
expect 1 "utf16.yaml: UTF-16 text (it starts with a byte-order mark): save it as UTF-8" -- calib check "$tmp/utf16.yaml"
{ printf '\xef\xbb\xbf'; cat "$sc"; } >"$tmp/bom.yaml"
expect 1 "bom.yaml: M1: principal point (224.5, 187) lies outside the 96x64 frames" -- calib check "$tmp/bom.yaml" --size 96x64
printf 'P2\n2 2\n255\n1 2 3 4\n' >"$tmp/plain.pgm"
expect 1 "plain.pgm: a plain-text (ASCII) P2 netpbm file: only the binary ones (P5, P6) are read" -- match "$tmp/plain.pgm" "$R" -o "$O" --ndisp 16
expect 1 "cmyk.jpg: a CMYK JPEG (print colours)" -- match "$(dirname "$0")/../fuzz/corpus/jpeg/cmyk.jpg" "$R" -o "$O" --ndisp 16
expect 2 "--calib '': an empty file name" -- run --frames 1 --calib ''
expect 1 "a calibration file named '' (empty)" -- sense "$L" "$R" --calib '' -o "$O"
printf 'size 96x64\n\0fps 3\n' >"$tmp/nul.conf"
expect 2 "nul.conf:2: a NUL byte: not a text file" -- run --frames 1 --config "$tmp/nul.conf"
printf 'size 96x64\nndisp 16\nsize 160x120\n' >"$tmp/twice.conf"
expect 2 "twice.conf:3: size: given twice (first at line 1)" -- run --frames 1 --config "$tmp/twice.conf"

# An output that names an input is refused, naming both, and the input is kept: the same
# name, a symbolic link to it, a hard link to it.
cp "$L" "$tmp/in_l.pgm"; cp "$R" "$tmp/in_r.pgm"
ln -sf "$tmp/in_l.pgm" "$tmp/sym_l.pgm"; ln -f "$tmp/in_r.pgm" "$tmp/hard_r.pgm"
sums=$(md5sum "$tmp/in_l.pgm" "$tmp/in_r.pgm")
expect 2 "-o $tmp/in_l.pgm is the input LEFT $tmp/in_l.pgm: refusing to replace an input" -- match "$tmp/in_l.pgm" "$tmp/in_r.pgm" -o "$tmp/in_l.pgm" --color "$tmp/in_r.pgm" --ndisp 16
expect 2 "-o $tmp/in_r.pgm is the input RIGHT" -- match "$tmp/in_l.pgm" "$tmp/in_r.pgm" -o "$tmp/in_r.pgm" --ndisp 16
expect 2 "--color $tmp/in_r.pgm is the input RIGHT" -- match "$tmp/in_l.pgm" "$tmp/in_r.pgm" -o "$O" --color "$tmp/in_r.pgm" --ndisp 16
expect 2 "--confidence $tmp/sym_l.pgm is the input LEFT $tmp/in_l.pgm" -- match "$tmp/in_l.pgm" "$tmp/in_r.pgm" -o "$O" --confidence "$tmp/sym_l.pgm" --ndisp 16
expect 2 "-o $tmp/hard_r.pgm is the input RIGHT $tmp/in_r.pgm" -- match "$tmp/in_l.pgm" "$tmp/in_r.pgm" -o "$tmp/hard_r.pgm" --ndisp 16
expect 2 "--disp $tmp/in_l.pgm is the input LEFT" -- sense "$tmp/in_l.pgm" "$tmp/in_r.pgm" --rectified --focal 300 --baseline 60 -o "$O" --disp "$tmp/in_l.pgm"
expect 2 "-o $tmp/sym_l.pgm is the input LEFT" -- sense "$tmp/in_l.pgm" "$tmp/in_r.pgm" --rectified --focal 300 --baseline 60 -o "$tmp/sym_l.pgm"
cp "$sc" "$tmp/maps_left_x.pfm"
expect 2 "--maps $tmp/maps_left_x.pfm is the input FILE" -- calib check "$tmp/maps_left_x.pfm" --size 450x375 --maps "$tmp/maps"
[ "$(md5sum "$tmp/in_l.pgm" "$tmp/in_r.pgm")" = "$sums" ] && [ -L "$tmp/sym_l.pgm" ] && cmp -s "$sc" "$tmp/maps_left_x.pfm" &&
	! ls "$tmp"/maps_right_* >/dev/null 2>&1 ||
	{ echo "FAIL: an input named as an output was changed"; fails=$((fails + 1)); }

# Numbers at the ends of their ranges: refused by name, never a crash or a wrapped sum.
for algo in sgm bp sad; do
	expect 2 "--min-disp 2147483647: must be less than the image width 96" -- match "$L" "$R" -o "$O" --algo $algo --ndisp 16 --min-disp 2147483647
	expect 2 "--min-disp 2147483640: must be less than the image width 96" -- match "$L" "$R" -o "$O" --algo $algo --ndisp 16 --min-disp 2147483640
done
expect 2 "--min-disp 2147483640: must be less than the image width 64" -- run --frames 1 --size 64x48 --ndisp 16 --min-disp 2147483640
expect 2 "--ndisp 16: with --min-disp 90 it exceeds the image width 96" -- match "$L" "$R" -o "$O" --ndisp 16 --min-disp 90
expect 2 "--tiles 65: must be 0 (automatic) to 64" -- match "$L" "$R" -o "$O" --ndisp 16 --tiles 65
# Another matcher's option would do nothing: refused, naming whose it is (even when invalid).
expect 2 "--lambda: an option of bp, and the matcher is sgm (--algo bp to use it)" -- match "$L" "$R" -o "$O" --ndisp 16 --lambda -2147483649
expect 2 "--window: an option of sad, and the matcher is bp (--algo sad to use it)" -- match "$L" "$R" -o "$O" --ndisp 16 --algo bp --window 7
expect 2 "--p1: an option of sgm, and the matcher is sad (--algo sgm to use it)" -- run --frames 1 --size 64x48 --ndisp 16 --p1 5 --algo sad

# A config file: a '#' inside a value is the value's, `--key value` is read as on the command
# line, `record DIR` outlives the file's line, and one --config (a second would be ignored).
printf -- '--size 64x48\nndisp 16 # a comment\nframes 1\nrecord %s/rec#1\n' "$tmp" >"$tmp/hash.conf"
if "$bin" run --config "$tmp/hash.conf" >/dev/null 2>"$tmp/stderr" && [ -d "$tmp/rec#1" ] &&
	[ -n "$(ls "$tmp/rec#1")" ]; then
	echo "ok: a config file with --size, a '#' inside a value and record DIR"
else
	echo "FAIL: config with --size, '#' in a value and record:"; cat "$tmp/stderr"; fails=$((fails + 1))
fi
expect 2 "--config given twice ($tmp/hash.conf, $tmp/twice.conf): give one" -- run --config "$tmp/hash.conf" --config "$tmp/twice.conf"

# A camera model given twice: the calibration's (or the synthetic rig's) and the command line's.
expect 2 "--focal with --calib: --calib gives the camera the frames are rectified for" -- sense "$L" "$R" --calib "$sc" --focal 300 -o "$O"
expect 2 "--cx with --calib" -- sense "$L" "$R" --calib "$sc" --rectified --cx 40 -o "$O"
expect 2 "--focal with the synthetic camera" -- run --frames 1 --size 64x48 --ndisp 16 --focal 300 --baseline 60
expect 2 "--baseline with the synthetic camera" -- run --frames 1 --size 64x48 --ndisp 16 --baseline 60
# A rectification whose right principal point is not the left's (stereoRectify without
# CALIB_ZERO_DISPARITY): jetdepth rectifies raw pairs onto one principal point and says the
# offset; a pair rectified elsewhere with the file would have every disparity off: refused.
eye='   rows: 3\n   cols: 3\n   dt: d\n   data: [ 1., 0., 0., 0., 1., 0., 0., 0., 1. ]\n'
{ cat "$sc"; printf "R1: !!opencv-matrix\n$eye""R2: !!opencv-matrix\n$eye"
  printf 'P1: !!opencv-matrix\n   rows: 3\n   cols: 4\n   dt: d\n   data: [ 360., 0., 224.5, 0., 0., 360., 187., 0., 0., 0., 1., 0. ]\n'
  printf 'P2: !!opencv-matrix\n   rows: 3\n   cols: 4\n   dt: d\n   data: [ 360., 0., 188.1, -21600., 0., 360., 187., 0., 0., 0., 1., 0. ]\n'; } >"$tmp/offset.yaml"
expect 2 "sense --rectified: $tmp/offset.yaml puts the right view's principal point 36.40 px from the left's" -- sense "$L" "$R" --rectified --calib "$tmp/offset.yaml" -o "$O"
"$bin" calib check "$tmp/offset.yaml" --size 450x375 >"$tmp/stdout" 2>&1 &&
	grep -q "right rectified principal point (188.10, 187.00) in the file, 36.40 px from the left's" "$tmp/stdout" &&
	grep -q "disparities 7 to 72: --min-disp 7 --ndisp 66" "$tmp/stdout" ||
	{ echo "FAIL: calib check of a file with cx' != cx: $(cat "$tmp/stdout")"; fails=$((fails + 1)); }
# calib check's advice stays inside what the search can do, and says so past it.
for d in 0.000001,2000 10,2000; do
	"$bin" calib check "$sc" --size 450x375 --depth $d >"$tmp/stdout" 2>&1 &&
		grep -q "more than jetdepth searches (--ndisp at most 1024, --min-disp + --ndisp at most the width 450); the nearest depth it reaches is 49 mm: --min-disp 10 --ndisp 440" "$tmp/stdout" ||
		{ echo "FAIL: calib check --depth $d: $(tail -1 "$tmp/stdout")"; fails=$((fails + 1)); }
done

# Settings a camera cannot take are refused by name, not dropped.
expect 2 "--buffers: the synthetic camera has no such setting (only V4L2 cameras take it)" -- run --frames 1 --size 64x48 --ndisp 16 --buffers 4
expect 2 "--exposure: the synthetic camera has no such setting" -- run --frames 1 --size 64x48 --ndisp 16 --exposure 100
mkdir -p "$tmp/fcam/left" "$tmp/fcam/right"; cp "$L" "$tmp/fcam/left/0.pgm"; cp "$R" "$tmp/fcam/right/0.pgm"
expect 2 "--gain: the files camera has no such setting" -- run --frames 1 --ndisp 16 --camera "files:$tmp/fcam" --gain 3
expect 2 "--pixfmt: the files camera reads each file's own format" -- run --frames 1 --ndisp 16 --camera "files:$tmp/fcam" --pixfmt Y10

# A board's cameras give the frame size; a default.size that disagrees is asked about.
printf 'x,y\0' >"$tmp/dt"
boards=$(cd "$(dirname "$0")/../../boards" && pwd)
printf 'include %s/soc-orin.inc\nname t\ncompatible x,y\nmemory.ceiling_mb 3000\ncamera left /dev/video0 YUYV 1280x720@30\ncamera right /dev/video1 YUYV 1280x720@30\ndefault.size 640x480\n' "$boards" >"$tmp/size.board"
JETDEPTH_DT_COMPATIBLE=$tmp/dt expect 1 "size.board: default.size 640x480 but the cameras give 1280x720: which is meant?" -- run --board "$tmp/size.board" --frames 1

# A good run still works and replaces the old output atomically.
printf 'old' >"$O"
if "$bin" match -q "$L" "$R" -o "$O" --ndisp 16 && [ "$(head -c 2 "$O")" = "Pf" ]; then
	echo "ok: a good run writes the PFM"
else
	echo "FAIL: the good run did not write the PFM"; fails=$((fails + 1))
fi
echo "$((cases + 1 - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
