#!/bin/sh
# FP16 code is never reached on a CPU without FP16. Usage: fp16_gating.sh JETDEPTH PROBE LD_PREFIX
set -u
bin=$1 probe=$2 prefix=$3
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. The probe calls the FP16 kernel directly: on a Cortex-A72 it must trap (SIGILL = 132).
qemu-aarch64 -cpu cortex-a72 -L "$prefix" "$probe" >"$tmp/probe.out" 2>&1
rc=$?
if [ "$rc" -ne 132 ]; then
	echo "FAIL: fp16 kernel on cortex-a72 exited $rc, expected SIGILL (132)"; fail=1
else
	echo "ok: the fp16 kernel traps on cortex-a72 (SIGILL), so the CPU model lacks FP16"
fi

# 2. jetdepth with fp16 BP on the same CPU: finishes, and its kernel line names the float path.
qemu-aarch64 -cpu cortex-a72 -L "$prefix" "$bin" run --frames 1 --algo bp --fp16 --ndisp 16 \
	--size 64x48 --backend neon >"$tmp/a72.out" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
	echo "FAIL: jetdepth on cortex-a72 exited $rc"; cat "$tmp/a72.out"; fail=1
elif ! grep -q "cpu fp16 no).* bp_messages=neon\$" "$tmp/a72.out"; then
	echo "FAIL: cortex-a72 kernel line:"; grep kernels "$tmp/a72.out"; fail=1
else
	echo "ok: cortex-a72: $(grep kernels "$tmp/a72.out")"
fi

# 3. On a CPU with FP16 (qemu's max) the table picks the FP16 kernel.
qemu-aarch64 -cpu max -L "$prefix" "$bin" run --frames 1 --algo bp --fp16 --ndisp 16 \
	--size 64x48 --backend neon >"$tmp/max.out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] || ! grep -q "cpu fp16 yes).* bp_messages=neon+fp16" "$tmp/max.out"; then
	echo "FAIL: -cpu max exited $rc:"; cat "$tmp/max.out"; fail=1
else
	echo "ok: -cpu max: $(grep kernels "$tmp/max.out")"
fi
exit $fail
