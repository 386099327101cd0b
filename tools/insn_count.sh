#!/bin/sh
# Dynamic aarch64 instruction counts per kernel, reference vs NEON, from the cross build:
# qemu-aarch64 runs tools/kernel_probe one instruction per block with exec tracing, and the
# count of executed instructions with the kernel minus without it is the kernel's.
# usage: tools/insn_count.sh [BUILD_DIR]   (default build/jetson; needs the kernel_probe target)
set -eu
build=${1:-build/jetson}
probe=$build/tools/kernel_probe
prefix=/
[ -e /lib/aarch64-linux-gnu/libc.so.6 ] || prefix=/usr/aarch64-linux-gnu
count() { # count KERNEL BACKEND
	qemu-aarch64 -cpu max -L "$prefix" -singlestep -d exec,nochain -D /dev/stdout \
		"$probe" "$1" "$2" 2>/dev/null | grep -c '^Trace'
}
base=$(count census none)
# elements: what one "per element" figure divides by (pixel x disparity, or pixel)
printf '%-18s %14s %12s %12s %10s\n' kernel elements ref/elem neon/elem ratio
for spec in census:1024 sgm_cost:65536 sgm_aggregate:65536 sgm_select:65536 \
	sad_accumulate:4736 sad_wta:4096 bp_messages:2048 bp_messages_fp16:2048; do
	k=${spec%%:*} n=${spec#*:}
	ref=$(( $(count "$k" ref) - base ))
	neon=$(( $(count "$k" neon) - base ))
	line=$(printf '%-18s %14d %12.2f %12.2f' "$k" "$n" "$(echo "$ref / $n" | bc -l)" \
		"$(echo "$neon / $n" | bc -l)")
	printf '%s %9.2fx\n' "$line" "$(echo "$ref / $neon" | bc -l)"
	if [ "$k" = bp_messages_fp16 ]; then
		f16=$(( $(count "$k" neon-fp16) - base ))
		printf '%-18s %14d %12s %12.2f %9.2fx\n' "  +fp16 arith" "$n" "" \
			"$(echo "$f16 / $n" | bc -l)" "$(echo "$ref / $f16" | bc -l)"
	fi
done
