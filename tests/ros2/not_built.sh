#!/usr/bin/env bash
# ros2.not_built (a build without Cyclone DDS: CI's fuzz preset): --ros2 is refused at boot
# with one line saying why and how to get it, exit 2, nothing published or written.
# usage: not_built.sh JETDEPTH
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../harness/emulator.sh" "$tmp"
fails=0
for cmd in "run --frames 1 --size 160x120 --ros2" "bench --pipeline --ros2 --size 160x120 --runs 1"; do
	$bin $cmd >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q 'built without Cyclone DDS (install cyclonedds-dev and cyclonedds-tools, then rebuild)' "$tmp/err" &&
		[ "$(wc -l <"$tmp/err")" -eq 1 ] && ! grep -q '^frame' "$tmp/out"; then
		echo "ok: $cmd: $(cat "$tmp/err")"
	else
		echo "FAIL: $cmd: exit $rc"; cat "$tmp/err"; fails=$((fails + 1))
	fi
done
exit $((fails > 0))
