#!/usr/bin/env bash
# What only shows as root, in a scratch root (unshare -m + chroot: nothing outside is
# touched): `sense -o /dev/null` leaves /dev/null a character device; an output through a
# link keeps the link and the target's mode; SIGUSR1 without --dump-dir writes nothing into /.
# usage: as_root.sh JETDEPTH
set -u
bin=$1
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (run as root for the device-file cases)"; exit 77; }
[ -z "${JETDEPTH_EMULATOR:-}" ] || { echo "SKIP: a cross build's binary needs its emulator inside the chroot"; exit 77; }
command -v unshare >/dev/null && command -v chroot >/dev/null && command -v ldd >/dev/null ||
	{ echo "SKIP: needs unshare, chroot and ldd"; exit 77; }
unshare -m true 2>/dev/null || { echo "SKIP: unshare -m is not permitted here"; exit 77; }
r=$(mktemp -d)
trap 'rm -rf "$r"' EXIT
fails=0
mkdir -p "$r/bin" "$r/dev" "$r/work"
cp "$bin" "$r/bin/jetdepth"
for l in $(ldd "$bin" | grep -o '/[^ ]*'); do mkdir -p "$r$(dirname "$l")"; cp -L "$l" "$r$l"; done
mknod -m 666 "$r/dev/null" c 1 3 || { echo "SKIP: mknod refused"; exit 77; }
"$bin" synth "$r/work/l.pgm" "$r/work/r.pgm" --size 160x120 --ndisp 32 >/dev/null || exit 1
in_root() { unshare -m chroot "$r" /bin/jetdepth "$@"; }

in_root sense /work/l.pgm /work/r.pgm --rectified --focal 300 --baseline 60 --ndisp 32 -o /dev/null 2>/dev/null
if [ -c "$r/dev/null" ]; then echo "ok: sense -o /dev/null as root: still a character device"
else echo "FAIL: /dev/null is no longer a device: $(ls -l "$r/dev/null")"; fails=$((fails + 1)); fi

echo old >"$r/work/target.json"; chmod 640 "$r/work/target.json"; ln -s target.json "$r/work/link.json"
in_root sense /work/l.pgm /work/r.pgm --rectified --focal 300 --baseline 60 --ndisp 32 -o /work/link.json 2>/dev/null
if [ -L "$r/work/link.json" ] && grep -q '"objects"' "$r/work/target.json" &&
	[ "$(stat -c %a "$r/work/target.json")" = 640 ] && [ -z "$(ls "$r/work" | grep tmp)" ]; then
	echo "ok: an output through a link: the link stays, the target is replaced, mode 640 kept"
else
	echo "FAIL: link output: $(ls -l "$r/work")"; fails=$((fails + 1))
fi

before=$(ls -A "$r")
(cd / && unshare -m chroot "$r" /bin/jetdepth run --size 96x64 --ndisp 16 --fps 20 >"$r.out" 2>"$r.err") &
pid=$!
waited=0
while ! grep -q '^frame' "$r.out" 2>/dev/null && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
pkill -USR1 -f "/bin/jetdepth run --size 96x64 --ndisp 16 --fps 20" 
sleep 0.5
pkill -TERM -f "/bin/jetdepth run --size 96x64 --ndisp 16 --fps 20"
wait $pid
rc=$?
if [ $rc -eq 0 ] && [ "$(ls -A "$r")" = "$before" ] && grep -q 'SIGUSR1 ignored' "$r.err"; then
	echo "ok: SIGUSR1 without --dump-dir as root: said, nothing written into /, exit 0"
else
	echo "FAIL: SIGUSR1 as root: exit $rc, / now holds: $(ls -A "$r" | tr '\n' ' '): $(cat "$r.err")"
	fails=$((fails + 1))
fi
rm -f "$r.out" "$r.err"
[ $fails -eq 0 ]
