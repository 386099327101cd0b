#!/usr/bin/env bash
# The CLI's everyday paths: --help everywhere, exit codes, match -> eval on the synthetic
# scene, every output format, the demo run, and a one-case bench table.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../harness/emulator.sh" "$tmp"
fails=0 n=0
check() { # check DESCRIPTION COMMAND...
	local what=$1; shift
	n=$((n + 1))
	if "$@" >"$tmp/log" 2>&1; then echo "ok: $what"; else
		echo "FAIL: $what"; cat "$tmp/log"; fails=$((fails + 1)); fi
}
for c in "" run match eval bench synth board; do
	check "help $c" bash -c "'$bin' $c --help | grep -q usage"
done
check "version" bash -c "'$bin' --version | grep -q '^jetdepth '"
"$bin" synth "$tmp/l.pgm" "$tmp/r.pgm" "$tmp/gt.pfm" --size 200x120 --ndisp 32
mkdir -p "$tmp/truth" && cp "$tmp/gt.pfm" "$tmp/truth/"
for a in sgm bp sad; do
	check "match $a writes pfm, png and colour" "$bin" match -q "$tmp/l.pgm" "$tmp/r.pgm" \
		-o "$tmp/$a.pfm" --color "$tmp/$a.color.png" --algo $a --ndisp 32
	check "match $a png16" "$bin" match -q "$tmp/l.pgm" "$tmp/r.pgm" -o "$tmp/$a.png" \
		--algo $a --ndisp 32
	check "png16 is 16-bit" bash -c "[ \"\$(od -An -tu1 -j24 -N1 '$tmp/$a.png' | tr -d ' ')\" = 16 ]"
	check "eval $a on the synthetic truth under 10%" "$bin" eval "$tmp/$a.pfm" "$tmp/truth" \
		--max-bad 10
done
check "eval fails above the limit" bash -c "! '$bin' eval '$tmp/sad.pfm' '$tmp/truth' --max-bad 0"
check "run 2 frames" bash -c "'$bin' run --frames 2 --size 160x120 --ndisp 32 | grep -q '2 frame(s)'"
mkdir -p "$tmp/cam/left" "$tmp/cam/right"
for k in 0 1 2; do
	"$bin" synth "$tmp/cam/left/$k.pgm" "$tmp/cam/right/$k.pgm" --size 160x120 --ndisp 32 --frame $k >/dev/null
done
check "run replays a files camera to its end" bash -c "'$bin' run --size 160x120 --ndisp 32 --camera 'files:$tmp/cam' | grep -q '^3 frame(s)'"
check "run --loop keeps replaying" bash -c "'$bin' run --frames 7 --size 160x120 --ndisp 32 --camera 'files:$tmp/cam' --loop | grep -q '^7 frame(s)'"
# a board's file:DIR cameras go through the one parser of a source, as --camera files:DIR does
printf 'include %s\nundef camera left\nundef camera right\ncamera left file:%s - 160x120@5\ncamera right file:%s - 160x120@5\n' \
	"$(cd "$(dirname "$0")/../../boards" && pwd)/host.board" "$tmp/cam" "$tmp/cam" >"$tmp/files.board"
check "a board's file:DIR cameras replay the files" bash -c "'$bin' run --ndisp 32 --board '$tmp/files.board' | grep -q '^3 frame(s)'"
# a board whose one-device source the parser refuses (a comma in the node): one error naming
# the board and the source, exit 1, nothing on stdout
printf 'include %s\nundef camera left\nundef camera right\ncamera left sbs:/dev/video0,1 - 160x120@5\ncamera right sbs:/dev/video0,1 - 160x120@5\n' \
	"$(cd "$(dirname "$0")/../../boards" && pwd)/host.board" >"$tmp/bad-cam.board"
check "a board's camera source the parser refuses is said, nothing written" bash -c "'$bin' run --frames 1 --json --board '$tmp/bad-cam.board' >'$tmp/bad-cam.out' 2>'$tmp/bad-cam.err'; test \$? = 1 && grep -q 'bad-cam.board: camera left sbs:/dev/video0,1, right sbs:/dev/video0,1: not a source jetdepth reads' '$tmp/bad-cam.err' && test ! -s '$tmp/bad-cam.out'"
check "cameras lists or says there are none" bash -c "JD_DEV_DIR='$tmp/nodev' '$bin' cameras | grep -q 'no V4L2 devices'"
check "cameras on a non-V4L2 node fails and says why" bash -c "'$bin' cameras /dev/null | grep -q 'not a V4L2 device' && ! '$bin' cameras /dev/null >/dev/null"
check "match --tiles 3 (SAD) equals untiled" bash -c "'$bin' match '$tmp/l.pgm' '$tmp/r.pgm' -o '$tmp/full.pfm' --algo sad --ndisp 16 && '$bin' match '$tmp/l.pgm' '$tmp/r.pgm' -o '$tmp/tiled.pfm' --algo sad --ndisp 16 --tiles 3 && cmp '$tmp/full.pfm' '$tmp/tiled.pfm'"
printf 'include %s\nundef memory.ceiling_mb\nmemory.ceiling_mb 40\n' "$(cd "$(dirname "$0")/../../boards" && pwd)/host.board" >"$tmp/small.board"
check "a board's ceiling makes boot tile (and say so)" bash -c "'$bin' run --frames 1 --size 320x400 --ndisp 64 --algo sgm --backend cpu --board '$tmp/small.board' | grep -q '^tiling: .* strips .* to fit the board'"
"$bin" synth "$tmp/sl.pgm" "$tmp/sr.pgm" --size 450x375 --ndisp 64 >/dev/null
check "sense finds the synthetic scene's three boxes" bash -c "'$bin' sense '$tmp/sl.pgm' '$tmp/sr.pgm' --rectified --focal 360 --baseline 60 -o - | grep -o '\"id\":' | wc -l | grep -qx 3"
check "sense writes objects.json" bash -c "'$bin' sense '$tmp/sl.pgm' '$tmp/sr.pgm' --rectified --focal 360 --baseline 60 -o '$tmp/objects.json' 2>/dev/null && grep -q '\"table\":{' '$tmp/objects.json'"
check "run --json: one JSON object per frame with the objects, nothing else on stdout" bash -c "'$bin' run --frames 3 --size 320x240 --ndisp 32 --json 2>/dev/null | grep -c '^{\"frame\":[0-9]*,\"timestamp_ns\":[0-9]*,\"latency_ms\":{.*\"objects\":\[{\"id\":1,' | grep -qx 3"
check "run --udp with a bad destination is a usage error" bash -c "'$bin' run --frames 1 --udp nowhere 2>&1 | grep -q 'expected HOST:PORT'"
# The synthetic rig as an OpenCV stereo calibration (identity rotation, no distortion).
cat >"$tmp/stereo.yaml" <<'YAML'
%YAML:1.0
---
M1: !!opencv-matrix
   rows: 3
   cols: 3
   dt: d
   data: [ 360., 0., 224.5, 0., 360., 187., 0., 0., 1. ]
D1: !!opencv-matrix
   rows: 1
   cols: 5
   dt: d
   data: [ 0., 0., 0., 0., 0. ]
M2: !!opencv-matrix
   rows: 3
   cols: 3
   dt: d
   data: [ 360., 0., 224.5, 0., 360., 187., 0., 0., 1. ]
D2: !!opencv-matrix
   rows: 1
   cols: 5
   dt: d
   data: [ 0., 0., 0., 0., 0. ]
R: !!opencv-matrix
   rows: 3
   cols: 3
   dt: d
   data: [ 1., 0., 0., 0., 1., 0., 0., 0., 1. ]
T: !!opencv-matrix
   rows: 3
   cols: 1
   dt: d
   data: [ -60., 0., 0. ]
YAML
check "calib check prints baseline and the disparity range" bash -c "'$bin' calib check '$tmp/stereo.yaml' --size 450x375 --depth 400,2000 | grep -q 'baseline 60.00 mm' && '$bin' calib check '$tmp/stereo.yaml' --size 450x375 --depth 400,2000 | grep -q -- '--min-disp 10 --ndisp 45'"
mkdir -p "$tmp/cam2/left" "$tmp/cam2/right"
for k in 0 1; do
	"$bin" synth "$tmp/cam2/left/$k.pgm" "$tmp/cam2/right/$k.pgm" --size 450x375 --ndisp 64 --frame $k >/dev/null
done
check "sense --calib rectifies the raw pair and finds the boxes" bash -c "'$bin' sense '$tmp/sl.pgm' '$tmp/sr.pgm' --calib '$tmp/stereo.yaml' -o - | grep -o '\"id\":' | wc -l | grep -qx 3"
check "run rectifies a files camera with --calib and senses with its model" bash -c "'$bin' run --size 450x375 --camera 'files:$tmp/cam2' --calib '$tmp/stereo.yaml' 2>&1 | grep -q 'from the calibration' && '$bin' run --size 450x375 --camera 'files:$tmp/cam2' --calib '$tmp/stereo.yaml' | grep -c 'objects 3  table found' | grep -qx 2"
check "the shipped run.conf parses and keeps per-frame JSON off the journal" bash -c "'$bin' run --config '$(cd "$(dirname "$0")/../../packaging" && pwd)/run.conf' --frames 1 --size 160x120 --ndisp 16 2>/dev/null | grep -q '^frame    0' && ! grep -q '^json' '$(cd "$(dirname "$0")/../../packaging" && pwd)/run.conf'"
printf 'size 160x120\nndisp 16\nalgo sad\n' >"$tmp/run.conf"
check "the command line wins over the config file" bash -c "'$bin' run --config '$tmp/run.conf' --ndisp 32 --frames 1 | grep -q 'sad, ndisp 32'"
check "run prints the budget" bash -c "'$bin' run --frames 1 --size 160x120 --ndisp 32 | grep -q 'memory budget'"
boards=$(cd "$(dirname "$0")/../../boards" && pwd)
check "every shipped board parses" "$bin" board check "$boards"/*.board
check "run with the host board" bash -c "'$bin' run --frames 1 --board '$boards/host.board' | grep -q 'board host'"
check "run --board applies its defaults, options win" bash -c "JETDEPTH_DT_COMPATIBLE=<(printf 'nvidia,p3767-0005\\0') '$bin' run --frames 1 --board '$boards/orin-nano.board' --size 160x120 | grep -q '160x120, bp, ndisp 128'"
check "run --board NAME looks in the board folder" bash -c "JETDEPTH_BOARD_DIR='$boards' '$bin' run --frames 1 --board host --size 64x48 --ndisp 16 | grep -q 'board host'"
printf 'nvidia,p3768-0000+p3767-0000\0nvidia,p3767-0000\0nvidia,tegra234\0' >"$tmp/dt-orin-nx"
check "run --board auto picks the board the device tree names" bash -c "JETDEPTH_BOARD_DIR='$boards' JETDEPTH_DT_COMPATIBLE='$tmp/dt-orin-nx' '$bin' run --frames 1 --board auto --size 64x48 --ndisp 16 | grep -q 'board orin-nx'"
check "run --board auto without a device tree is host" bash -c "JETDEPTH_BOARD_DIR='$boards' JETDEPTH_DT_COMPATIBLE=/nonexistent '$bin' run --frames 1 --board auto --size 64x48 --ndisp 16 | grep -q 'board host'"
# (Output to a file, then grep: grep -q closing a pipe early can kill the writer mid-run.)
# A binary built without nvcc has no GPU to fall back from or boot on: its GPU checks skip
"$bin" run --frames 1 --size 64x48 --ndisp 16 2>&1 | grep -q 'built without CUDA kernels' &&
	no_cuda=1 || no_cuda=0
[ $no_cuda = 1 ] && echo "skip: the GPU checks (this binary was built without CUDA kernels)"
[ $no_cuda = 0 ] && check "auto falls back to the CPU without a CUDA driver, saying why" bash -c "JD_CUDA_LIB=/nonexistent/libcuda.so.1 '$bin' match '$tmp/l.pgm' '$tmp/r.pgm' -o '$tmp/fb.pfm' --algo sad --ndisp 16 >'$tmp/fb.log' 2>&1 && grep -q 'gpu: not used (no CUDA driver' '$tmp/fb.log' && test -s '$tmp/fb.pfm'"
if [ $no_cuda = 0 ] && [ -n "${JD_FAKE_LIBCUDA:-}" ] && [ -e "$JD_FAKE_LIBCUDA" ]; then
	for a in sad sgm bp; do
		check "--backend cuda boots $a on a (stand-in) GPU" bash -c "JD_CUDA_LIB='$JD_FAKE_LIBCUDA' '$bin' match '$tmp/l.pgm' '$tmp/r.pgm' -o '$tmp/cu.pfm' --algo $a --ndisp 16 --backend cuda 2>&1 | grep -q '$a on the GPU'"
	done
	# SAD's sub-pixel fit stages its window rows, dmax columns wider on the right, in shared memory:
	# past what the GPU has, boot refuses by name and writes nothing
	"$bin" synth "$tmp/wide_l.pgm" "$tmp/wide_r.pgm" --size 7300x40 --ndisp 16 >/dev/null
	check "sad --subpixel too wide for the GPU's shared memory is refused, nothing written" bash -c "! JD_CUDA_LIB='$JD_FAKE_LIBCUDA' '$bin' match '$tmp/wide_l.pgm' '$tmp/wide_r.pgm' -o '$tmp/wide.pfm' --algo sad --ndisp 16 --min-disp 7200 --window 31 --subpixel --backend cuda >'$tmp/wide.log' 2>&1 && grep -q 'sad --subpixel on fake GPU: window 31 up to disparity 7215 needs 233461 bytes of shared memory, the GPU has 232448' '$tmp/wide.log' && test ! -e '$tmp/wide.pfm'"
	# the GPU's bytes, counted by its carving strip by strip, make boot tile where the CPU alone fits
	# (the path volume is a byte a disparity a direction: 125 MiB whole, 78 in the smallest strips)
	printf 'include %s\nundef memory.ceiling_mb\nmemory.ceiling_mb 100\n' "$boards/host.board" >"$tmp/small100.board"
	check "a board's ceiling makes boot tile on the (stand-in) GPU, its memory counted" bash -c "JD_CUDA_LIB='$JD_FAKE_LIBCUDA' '$bin' run --frames 1 --size 320x400 --ndisp 64 --algo sgm --board '$tmp/small100.board' --backend cuda >'$tmp/gt.log' 2>&1 && grep -q 'sgm on the GPU' '$tmp/gt.log' && grep -q '^tiling: .* strips .* to fit the board' '$tmp/gt.log'"
fi
check "bench one case" bash -c "'$bin' bench --algo sad --size 160x120 --ndisp 32 --runs 1 | grep -q 'sad 11x11'"
check "run stops on SIGTERM" bash -c "'$bin' run --size 160x120 --ndisp 32 >'$tmp/run.log' & pid=\$!; sleep 1; kill -TERM \$pid; wait \$pid; grep -q 'frame(s)' '$tmp/run.log'"
# Every sensing option reaches run (a full option table once dropped the last ones silently).
check "run takes every sensing option" "$bin" run --frames 1 --size 160x120 --ndisp 32 \
	--plane-tol 1 --fixed-disp 5 --min-area 50 --min-confidence 10 --min-height 10 \
	--min-area-mm2 300
printf 'translation:\n  x: 0.5\n  y: 0\n  z: 0\nrotation:\n  x: 0\n  y: 0\n  z: 0\n  w: 1\n' >"$tmp/pose.yaml"
check "run --json with --extrinsics: tracks and base-frame positions" bash -c \
	"'$bin' run --frames 3 --json --extrinsics '$tmp/pose.yaml' 2>/dev/null | tail -1 | grep -q '\"track\":{\"id\":1,\"age\":3.*\"base\":{\"centroid_mm\"'"
echo "1 2 3" >"$tmp/pose3.txt"
check "a pose file with 3 numbers is refused by name" bash -c \
	"! '$bin' run --frames 1 --extrinsics '$tmp/pose3.txt' 2>'$tmp/err' && grep -q 'pose3.txt: 3 numbers' '$tmp/err'"
check "match --confidence writes an 8-bit PNG" bash -c \
	"'$bin' match -q '$tmp/l.pgm' '$tmp/r.pgm' -o '$tmp/c.pfm' --ndisp 16 --confidence '$tmp/c.png' && [ \"\$(od -An -tu1 -j24 -N1 '$tmp/c.png' | tr -d ' ')\" = 8 ]"
check "--min-confidence 256 is refused, nothing written" bash -c \
	"! '$bin' match -q '$tmp/l.pgm' '$tmp/r.pgm' -o '$tmp/c256.pfm' --min-confidence 256 2>'$tmp/err' && grep -q 'min-confidence 256' '$tmp/err' && [ ! -e '$tmp/c256.pfm' ]"
check "run --json: each frame after the first says its CPU time (every thread), a positive number" bash -c \
	"'$bin' run --frames 3 --size 160x120 --ndisp 16 --json 2>/dev/null | sed -n 2,3p | grep -c '},\"cpu_ms\":[0-9]*[.][0-9]*[1-9][0-9]*,' | grep -qx 2"
check "bench --pipeline: a cpu column, positive, and a replayed camera that costs almost nothing" bash -c \
	"'$bin' bench --pipeline --size 160x120 --ndisp 16 --algo sad --runs 4 --threads 1 2>/dev/null | awk 'NR == 1 && \$(NF - 1) != \"cpu\" {exit 1} NR == 2 {ok = \$(NF - 1) > 0 && \$6 < 1.0} END {exit !ok}'"
check "bench --pipeline: the cpu column by stage, every stage named, none negative, adding up to the column" bash -c \
	"'$bin' bench --pipeline --size 160x120 --ndisp 16 --algo sad --runs 4 --threads 1 2>/dev/null | awk 'NR == 2 {cpu = \$(NF - 1)} NR == 3 && /by stage: capture [0-9.]+ submit [0-9.]+ collect [0-9.]+ confidence [0-9.]+ sense [0-9.]+ other -?[0-9.]+\$/ {s = 0; for (i = 8; i <= NF; i += 2) s += \$i; ok = \$NF > -0.05 && s > cpu - 0.05 && s < cpu + 0.05} END {exit !ok}'"
check "--gpu-memory foo is refused by name, nothing written" bash -c \
	"! '$bin' match -q '$tmp/l.pgm' '$tmp/r.pgm' -o '$tmp/gm.pfm' --gpu-memory foo 2>'$tmp/err' && grep -q 'gpu-memory foo: must be auto, copy or mapped' '$tmp/err' && [ ! -e '$tmp/gm.pfm' ]"
check "--prefilter foo is refused by name, nothing written" bash -c \
	"! '$bin' match -q '$tmp/l.pgm' '$tmp/r.pgm' -o '$tmp/pf.pfm' --algo sad --prefilter foo 2>'$tmp/err' && grep -q 'prefilter foo: must be auto, census, rank or none' '$tmp/err' && [ ! -e '$tmp/pf.pfm' ]"
check "--prefilter census is BP's only: SAD refuses it by name, nothing written" bash -c \
	"! '$bin' match -q '$tmp/l.pgm' '$tmp/r.pgm' -o '$tmp/pc.pfm' --algo sad --prefilter census 2>'$tmp/err' && grep -q 'prefilter census: BP.s cost only' '$tmp/err' && [ ! -e '$tmp/pc.pfm' ]"
check "--rank-window 4 is refused by name, nothing written" bash -c \
	"! '$bin' match -q '$tmp/l.pgm' '$tmp/r.pgm' -o '$tmp/rw.pfm' --algo bp --rank-window 4 2>'$tmp/err' && grep -q 'rank-window 4: must be 0' '$tmp/err' && [ ! -e '$tmp/rw.pfm' ]"
check "a pose file that is not a rotation is refused by name" bash -c \
	"echo '2 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1' >'$tmp/scaled.txt' && ! '$bin' run --frames 1 --extrinsics '$tmp/scaled.txt' 2>'$tmp/err' && grep -q 'scaled.txt: the upper-left 3x3 is not a rotation' '$tmp/err'"
# The calibration monitor: a right camera 0.8 rows low is measured, warned about once, and
# the JSON says to recalibrate.
mkdir -p "$tmp/drift/left" "$tmp/drift/right"
"$bin" synth "$tmp/drift/left/0.pgm" "$tmp/drift/r0.pgm" --size 320x240 --ndisp 48 >/dev/null
python3 - "$tmp/drift/r0.pgm" "$tmp/drift/right/0.pgm" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
head, px = data[:15], data[15:]  # "P5\n320 240\n255\n"
w, h = 320, 240
out = bytearray(px)
for y in range(h):
    for x in range(w):
        a, b = px[max(y - 1, 0) * w + x], px[y * w + x]
        out[y * w + x] = int(0.8 * a + 0.2 * b + 0.5)  # content 0.8 rows down
open(sys.argv[2], 'wb').write(head + bytes(out))
PY
check "a drifted rig: vertical offset measured, recalibrate said once" bash -c \
	"'$bin' run --camera 'files:$tmp/drift' --loop --frames 3 --size 320x240 --ndisp 48 --json 2>'$tmp/err' | tail -1 | grep -q '\"calibration\":{\"vertical_offset_px\":0\.[6-9][0-9]*,\"recalibrate\":true}' && [ \"\$(grep -c 'redo the calibration' '$tmp/err')\" = 1 ]"
# ROS 2 (docs/ros2.md): names and the domain checked at boot (a build without Cyclone DDS:
# tests/ros2/not_built.sh)
check "--ros-namespace refuses a part starting with a digit, by name" bash -c \
	"! '$bin' run --frames 1 --size 160x120 --ros2 --ros-namespace 'a/9b' 2>'$tmp/err' && grep -q 'ros-namespace a/9b: not a ROS 2 namespace: a part starting with a digit' '$tmp/err'"
check "--ros-frame-id refuses a leading slash" bash -c \
	"! '$bin' run --frames 1 --size 160x120 --ros-frame-id /cam 2>'$tmp/err' && grep -q \"ros-frame-id '/cam': not a frame id\" '$tmp/err'"
if [ "${JD_HAVE_ROS2:-OFF}" = ON ]; then
	check "ROS_DOMAIN_ID out of range is refused by name" bash -c \
		"! ROS_DOMAIN_ID=300 '$bin' run --frames 1 --size 160x120 --ros2 2>'$tmp/err' && grep -q 'ROS_DOMAIN_ID=300: not a ROS 2 domain id (0 to 232)' '$tmp/err'"
	check "run --ros2 publishes and says so" bash -c \
		"'$bin' run --frames 3 --size 160x120 --ndisp 32 --ros2 --ros-namespace cli_\$\$ | grep -q '^ros2: 3 of 3 frame(s) published'"
	check "run --ros2 without Cyclone's runtime names the package, exits 1" bash -c \
		"JD_DDSC_LIB=/nonexistent/libddsc.so.0 '$bin' run --frames 1 --size 160x120 --ros2 >/dev/null 2>'$tmp/err'; [ \$? = 1 ] && grep -q 'install libddsc0debian' '$tmp/err'"
	check "bench --ros2 needs --pipeline" bash -c \
		"! '$bin' bench --ros2 2>'$tmp/err' && grep -q 'only with --pipeline' '$tmp/err'"
fi
echo "$((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
