#!/usr/bin/env bash
# ros2.soak: tests/ros2/ros2_soak (10^5 frames through the publisher) with ros2_listen
# subscribed to every topic from another process for the whole run (it stays until killed:
# a loaded machine's pause in the soak does not end it).
# usage: ros2_soak.sh ROS2_SOAK ROS2_LISTEN [FRAMES]
set -u
soak=$1 listen=$2 frames=${3:-100000}
tmp=$(mktemp -d)
trap 'kill $lpid 2>/dev/null; rm -rf "$tmp"' EXIT
NS=soak_$$
# a domain of its own: participants of other tests on this host are not discovered (their
# proxies would be allocated here and read as growth)
export ROS_DOMAIN_ID=$((100 + $$ % 100))
"$listen" "$tmp" "$NS" 128 96 jetdepth_left_optical 3000 120 >"$tmp/listen.out" 2>"$tmp/listen.err" &
lpid=$!
sleep 1
"$soak" "$NS" "$frames"
rc=$?
kill $lpid 2>/dev/null
wait $lpid 2>/dev/null
head -20 "$tmp/listen.out"
exit $rc
