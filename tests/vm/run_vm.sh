#!/usr/bin/env bash
# The vm tests: boot Debian's own kernel in QEMU (software emulation) with an initramfs holding
# busybox, the vivid driver and the statically linked camera test, and assert on the serial
# output (one "VMTEST name PASS|FAIL" line per scenario, see vm_camera_test.c).
# usage: run_vm.sh GUEST_BINARY CACHE_DIR
# Skips (exit 77, saying why) without qemu-system-x86_64, busybox-static, cpio, kmod, or when
# the kernel package cannot be downloaded. JD_VM_KERNEL_DEB names a .deb to use instead.
set -u
guest=$1
cache=$2
skip() { echo "SKIP: $*"; exit 77; }
for t in qemu-system-x86_64 cpio depmod modprobe dpkg; do
	command -v "$t" >/dev/null || skip "$t not installed (apt-get install qemu-system-x86 busybox-static cpio kmod)"
done
busybox=$(command -v busybox) || skip "busybox not installed (busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q "statically linked" || [ -x /bin/busybox ] || skip "busybox is not static"
[ -x "$guest" ] || skip "no guest binary $guest"
mkdir -p "$cache"

# The kernel: the image package linux-image-amd64 points at, unpacked (never installed).
if ! ls "$cache"/root/boot/vmlinuz-* >/dev/null 2>&1; then
	deb=${JD_VM_KERNEL_DEB:-}
	if [ -z "$deb" ]; then
		pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/.*Depends: \(linux-image-[0-9].*\)/\1/p' | head -1)
		[ -n "$pkg" ] || skip "apt cannot name the kernel package behind linux-image-amd64"
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
rm -rf "$rd" && mkdir -p "$rd"/{bin,dev,proc,sys,modules}
cp "$busybox" "$rd/bin/busybox"
cp "$(dirname "$0")/init" "$rd/init"
cp "$guest" "$rd/vm_camera_test"
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
timeout 300 qemu-system-x86_64 -machine pc,accel=tcg -cpu max -m 512 -smp 2 -nographic \
	-no-reboot -nic none -kernel "$kernel" -initrd "$cache/initrd.cpio.gz" \
	-append "console=ttyS0 quiet panic=-1 WATCHDOG=240" >"$log" 2>&1
echo "qemu exit $? (serial log: $log)"
grep -a "VMTEST\|camera:\|start:\|control" "$log" | tr -d '\r'

fails=0
for t in stream_yuyv stream_grey buf_flag_error qbuf_error fatal_streaming_error \
	dropped_buffers wrap_sequence reqbufs_error streamon_error disconnect; do
	if ! grep -aq "VMTEST $t PASS" "$log"; then
		echo "FAIL: $t did not pass"
		fails=$((fails + 1))
	fi
done
grep -aq "VMTEST done 0 failure" "$log" || { echo "FAIL: the guest did not finish cleanly"; fails=$((fails + 1)); }
[ "$fails" -eq 0 ]
