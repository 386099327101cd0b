#!/usr/bin/env bash
# The vm tests: boot Debian's own kernel in QEMU (software emulation) with an initramfs holding
# busybox, the vivid driver and the statically linked camera test, and assert on the serial
# output (one "VMTEST name PASS|FAIL" line per scenario, see vm_camera_test.c).
# usage: run_vm.sh GUEST_BINARY CACHE_DIR [DAEMON]
# The guest's architecture (x86-64 or aarch64, the board's) is the test binary's: an aarch64
# guest boots Debian's arm64 kernel on qemu-system-aarch64 with arm64 busybox. With DAEMON
# (the jetdepth binary, dynamically linked: its libraries come along) the guest also runs it
# against both cameras: it streams and senses, and when a camera is unplugged (its driver
# unbound) and plugged back, it says so and carries on (init: daemon_* scenarios).
# Skips (exit 77, saying why) without qemu-system-*, busybox-static, cpio, kmod, or when
# the kernel package cannot be downloaded. JD_VM_KERNEL_DEB names a .deb to use instead.
set -u
guest=$1
cache=$2
daemon=${3:-}
skip() { echo "SKIP: $*"; exit 77; }
[ -x "$guest" ] || skip "no guest binary $guest"
if file -L "$guest" | grep -q aarch64; then
	arch=arm64 qemu=qemu-system-aarch64 console=ttyAMA0
	machine="-machine virt -cpu cortex-a72"
else
	arch=amd64 qemu=qemu-system-x86_64 console=ttyS0
	machine="-machine pc,accel=tcg -cpu max"
fi
for t in $qemu cpio depmod modprobe dpkg; do
	command -v "$t" >/dev/null || skip "$t not installed (apt-get install qemu-system-x86 qemu-system-arm busybox-static cpio kmod)"
done
mkdir -p "$cache"
if [ $arch = amd64 ]; then
	busybox=$(command -v busybox) || skip "busybox not installed (busybox-static)"
	file -L "$busybox" 2>/dev/null | grep -q "statically linked" || [ -x /bin/busybox ] || skip "busybox is not static"
else
	# the guest's own busybox: arm64's static build, unpacked (never installed)
	if [ ! -x "$cache/busybox/bin/busybox" ]; then
		(cd "$cache" && apt-get download busybox-static:arm64 >/dev/null 2>&1) || skip "apt-get download busybox-static:arm64 failed (no network?)"
		dpkg -x "$cache"/busybox-static_*arm64.deb "$cache/busybox" || skip "cannot unpack busybox-static:arm64"
		rm -f "$cache"/busybox-static_*.deb
	fi
	busybox=$cache/busybox/bin/busybox
fi

# The kernel: the image package linux-image-ARCH points at, unpacked (never installed).
if ! ls "$cache"/root/boot/vmlinuz-* >/dev/null 2>&1; then
	deb=${JD_VM_KERNEL_DEB:-}
	if [ -z "$deb" ]; then
		pkg=$(apt-cache depends linux-image-$arch:$arch 2>/dev/null | sed -n 's/.*Depends: \(linux-image-[0-9][^:]*\).*/\1/p' | head -1)
		[ -n "$pkg" ] || skip "apt cannot name the kernel package behind linux-image-$arch"
		pkg=$pkg:$arch
		(cd "$cache" && apt-get download "$pkg" >/dev/null 2>&1) || skip "apt-get download $pkg failed (no network?)"
		deb=$(ls "$cache"/linux-image-*.deb | head -1)
	fi
	dpkg -x "$deb" "$cache/root" || skip "cannot unpack $deb"
	rm -f "$cache"/linux-image-*.deb
fi
kernel=$(ls "$cache"/root/boot/vmlinuz-* | head -1)
ver=${kernel##*/vmlinuz-}
[ -f "$cache/root/lib/modules/$ver/modules.dep" ] || depmod -b "$cache/root" "$ver"

# The initramfs: busybox, init, vivid and what it needs (in load order), the test.
rd=$cache/initrd
rm -rf "$rd" && mkdir -p "$rd"/{bin,dev,proc,sys,modules,tmp}
cp "$busybox" "$rd/bin/busybox"
cp "$(dirname "$0")/init" "$rd/init"
cp "$guest" "$rd/vm_camera_test"
if [ -n "$daemon" ]; then
	# the daemon and every library it needs, where its loader looks (aarch64 only)
	mkdir -p "$rd/lib/aarch64-linux-gnu"
	cp "$daemon" "$rd/jetdepth"
	libs=$("$(dirname "$0")/needed_libs.sh" "$daemon") || { echo "FAIL: $libs"; exit 1; }
	for l in $libs; do
		cp -L "$l" "$rd/lib/aarch64-linux-gnu/"
	done
	ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$rd/lib/ld-linux-aarch64.so.1"
fi
: >"$rd/modules.order"
modprobe -d "$cache/root" -S "$ver" --show-depends vivid | sed -n 's/^insmod \([^ ]*\).*/\1/p' |
	while read -r m; do
		cp "$m" "$rd/modules/"
		b=$(basename "$m")
		[ "$b" = vivid.ko ] || echo "$b" >>"$rd/modules.order"
	done
[ -f "$rd/modules/vivid.ko" ] || { echo "FAIL: vivid.ko not found in $kernel's modules"; exit 1; }
(cd "$rd" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$cache/initrd.cpio.gz"

log=$cache/serial.log
# shellcheck disable=SC2086 # $machine is two options
timeout 300 $qemu $machine -m 512 -smp 2 -nographic \
	-no-reboot -nic none -kernel "$kernel" -initrd "$cache/initrd.cpio.gz" \
	-append "console=$console quiet panic=-1 WATCHDOG=240" >"$log" 2>&1
echo "qemu exit $? (serial log: $log)"
grep -a "VMTEST\|camera:\|start:\|control" "$log" | tr -d '\r'

fails=0
for t in stream_yuyv stream_grey stream_sbs stream_tb raw_formats controls buf_flag_error qbuf_error fatal_streaming_error \
	dropped_buffers wrap_sequence reqbufs_error streamon_error disconnect \
	${daemon:+daemon_stream daemon_sense daemon_sbs_bayer daemon_unplug}; do
	if ! grep -aq "VMTEST $t PASS" "$log"; then
		echo "FAIL: $t did not pass"
		fails=$((fails + 1))
	fi
done
grep -aq "VMTEST done 0 failure" "$log" || { echo "FAIL: the guest did not finish cleanly"; fails=$((fails + 1)); }
[ "$fails" -eq 0 ]
