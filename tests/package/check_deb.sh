#!/bin/sh
# The .deb: build it with CPack from this build tree, unpack it into a scratch root
# (dpkg-deb -x) and check what README "Installing" promises: binary, boards, default
# configuration (a conffile), systemd unit (Restart=on-failure, unprivileged user in video),
# maintainer scripts; then run the unpacked binary on the unpacked boards.
# usage: check_deb.sh BUILD_DIR ARCH   (JETDEPTH_EMULATOR runs a cross-built binary)
set -u
build=$1 arch=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # check DESCRIPTION COMMAND...
	d=$1; shift
	if "$@" >/dev/null 2>&1; then echo "ok: $d"; else echo "FAIL: $d"; fail=1; fi
}

if ! command -v dpkg-deb >/dev/null 2>&1; then
	echo "SKIP: dpkg-deb not installed (not a Debian/Ubuntu machine)"; exit 77
fi
cpack --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1 ||
	{ echo "FAIL: cpack"; cat "$tmp/cpack.log"; exit 1; }
deb=$(ls "$tmp"/pkg/jetdepth_*_"$arch".deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { echo "FAIL: no jetdepth_*_$arch.deb in:"; ls "$tmp/pkg"; exit 1; }
echo "built $(basename "$deb")"
dpkg-deb -x "$deb" "$tmp/root"
dpkg-deb -e "$deb" "$tmp/ctl"
r=$tmp/root
# The package installs under the build's prefix (/usr in the presets).
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
p=$r${prefix:-/usr}

check "Package: jetdepth" sh -c "dpkg-deb -f '$deb' Package | grep -qx jetdepth"
check "Architecture: $arch" sh -c "dpkg-deb -f '$deb' Architecture | grep -qx $arch"
check "Depends names libturbojpeg, libpng and libyaml" sh -c "dpkg-deb -f '$deb' Depends | grep -q turbojpeg && dpkg-deb -f '$deb' Depends | grep -q libpng16 && dpkg-deb -f '$deb' Depends | grep -q libyaml"
check "binary /usr/bin/jetdepth, executable" test -x "$p/bin/jetdepth"
# --ros2 loads Cyclone DDS when asked: the package recommends it and never depends on it
check "Depends does not name Cyclone DDS" sh -c "! dpkg-deb -f '$deb' Depends | grep -q ddsc"
if [ -d "$build/ros2_types" ]; then
	check "Recommends Cyclone DDS's runtime" sh -c "dpkg-deb -f '$deb' Recommends | grep -q libddsc0debian"
	check "the RViz config /usr/share/jetdepth/jetdepth.rviz" test -f "$p/share/jetdepth/jetdepth.rviz"
	check "the binary does not link libddsc" sh -c "! readelf -d '$p/bin/jetdepth' | grep -q ddsc"
fi
for b in host orin-nano orin-nx agx-orin thor; do
	check "board $b" test -f "$p/share/jetdepth/boards/$b.board"
done
check "SoC includes" test -f "$p/share/jetdepth/boards/soc-orin.inc"
check "default config /etc/jetdepth/jetdepth.conf" grep -q '^JETDEPTH_ARGS=' "$r/etc/jetdepth/jetdepth.conf"
check "config is a conffile" grep -qx /etc/jetdepth/jetdepth.conf "$tmp/ctl/conffiles"
check "run.conf is a conffile" grep -qx /etc/jetdepth/run.conf "$tmp/ctl/conffiles"
check "unit: Type=notify with a watchdog" sh -c "grep -qx 'Type=notify' '$r/lib/systemd/system/jetdepth.service' && grep -q '^WatchdogSec=' '$r/lib/systemd/system/jetdepth.service'"
u=$r/lib/systemd/system/jetdepth.service
check "systemd unit" test -f "$u"
check "unit: Restart=on-failure" grep -qx 'Restart=on-failure' "$u"
check "unit: User=jetdepth" grep -qx 'User=jetdepth' "$u"
check "unit: SupplementaryGroups=video" grep -qx 'SupplementaryGroups=video' "$u"
check "unit: runs jetdepth run" grep -q '^ExecStart=/usr/bin/jetdepth run ' "$u"
check "postinst creates the user" grep -q 'useradd --system' "$tmp/ctl/postinst"
check "postinst is executable" test -x "$tmp/ctl/postinst"
if command -v systemd-analyze >/dev/null 2>&1; then
	check "systemd-analyze verify accepts the unit" sh -c "systemd-analyze verify '$u' 2>&1 | grep -v -e 'jetdepth: No such' -e 'Command /usr/bin/jetdepth' | grep -q . && exit 1 || exit 0"
fi

check "copyright file" grep -q '^Copyright:' "$p/share/doc/jetdepth/copyright"
check "the binary is stripped" sh -c "file -L '$p/bin/jetdepth' | grep -q ', stripped'"
check "its symbols are in jetdepth-dbgsym" sh -c "ls '$tmp'/pkg/jetdepth_*_'$arch'-dbgsym.ddeb && dpkg-deb -c '$tmp'/pkg/jetdepth_*_'$arch'-dbgsym.ddeb | grep -q '/usr/lib/debug/.build-id/.*\.debug'"
check "unit: StateDirectory for the tuning file and dumps" grep -qx 'StateDirectory=jetdepth jetdepth/dumps' "$u"
check "run.conf keeps per-frame JSON off the journal" sh -c "! grep -q '^json' '$r/etc/jetdepth/run.conf'"
check "postinst enables the unit only where a board matches" grep -q 'jetdepth board detect' "$tmp/ctl/postinst"
if command -v systemd-analyze >/dev/null 2>&1; then
	score=$(systemd-analyze security --offline=true "$u" 2>/dev/null | sed -n 's/.*Overall exposure level for jetdepth.service: \([0-9.]*\).*/\1/p')
	check "systemd-analyze security: exposure $score, at most 4.5" sh -c "[ -n '$score' ] && awk 'BEGIN { exit !($score <= 4.5) }'"
fi

# The unpacked binary finds the unpacked boards (the installed folder, redirected).
bin=$p/bin/jetdepth
[ -n "${JETDEPTH_EMULATOR:-}" ] && bin="$JETDEPTH_EMULATOR $bin"
out=$(JETDEPTH_BOARD_DIR=$p/share/jetdepth/boards JETDEPTH_DT_COMPATIBLE=/nonexistent \
	$bin run --board auto --frames 1 --size 64x48 --ndisp 16 2>&1)
if echo "$out" | grep -q "board host"; then
	echo "ok: the packaged binary runs with --board auto (no device tree: host)"
else
	echo "FAIL: packaged binary: $out"; fail=1
fi
exit $fail
