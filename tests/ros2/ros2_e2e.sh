#!/usr/bin/env bash
# ros2.e2e: `jetdepth run --ros2` on the synthetic camera with tests/ros2/ros2_listen
# subscribed to every topic. The listener checks what it can alone (every topic, stamps,
# frame ids, encodings, sizes); then check_cdr.mjs decodes the captured bytes with npm's
# @foxglove/rosmsg2-serialization against ROS 2's definitions and compares every field with
# the listener's decoding and the contents with the daemon's JSON for the same frames.
# Node's part skips (77) when tests/ros2/node_modules is missing (npm ci there: .ci/run does).
# usage: ros2_e2e.sh JETDEPTH ROS2_LISTEN TESTS_ROS2_DIR
set -u
bin=$1 listen=$2 here=$3
tmp=$(mktemp -d)
trap 'kill $lpid 2>/dev/null; rm -rf "$tmp"' EXIT
lpid=
. "$(dirname "$0")/../harness/emulator.sh" "$tmp"
listen=$(jd_emulated "$listen" ros2_listen-emu)
W=320 H=240 NS=e2e_$$ FRAME=cam_left_optical
# a domain of its own: participants of other tests on this host are not discovered (their
# proxies would be allocated here and read as growth)
export ROS_DOMAIN_ID=$((100 + $$ % 100))
"$listen" "$tmp" "$NS" $W $H $FRAME 40 >"$tmp/listen.out" 2>"$tmp/listen.err" &
lpid=$!
sleep 1 # the listener's readers exist before the first frame
# 10 fps: the listener sees most frames (best effort drops none on loopback at this rate)
"$bin" run --ros2 --ros-namespace "/$NS" --ros-frame-id $FRAME --size ${W}x$H --algo sad \
	--ndisp 48 --frames 40 --fps 10 --json >"$tmp/frames.jsonl" 2>"$tmp/run.err"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL: jetdepth run --ros2 exited $rc"; cat "$tmp/run.err"; exit 1
fi
wait $lpid
lrc=$?
cat "$tmp/listen.out"
if [ $lrc -ne 0 ]; then
	echo "FAIL: the listener: exit $lrc"; cat "$tmp/listen.err"; exit 1
fi
grep '^ros2:' "$tmp/run.err"
echo "ok: every topic received; stamps increase; frame ids, encodings and sizes as asked"
if [ ! -d "$here/node_modules/@foxglove/rosmsg2-serialization" ]; then
	echo "SKIP: the byte-level check needs tests/ros2/node_modules (cd tests/ros2 && npm ci)"
	exit 77
fi
node "$here/check_cdr.mjs" "$tmp" "$tmp/frames.jsonl" $W $H $FRAME || exit 1
