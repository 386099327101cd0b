#!/bin/sh
# Dynamic aarch64 instruction counts per kernel element, from the cross build: qemu-aarch64
# runs tools/kernel_probe one instruction per block with exec tracing; the executed count
# with the kernel minus the count without it is the kernel's. Columns: the reference as
# shipped (gcc -O3, auto-vectorised), the reference with -fno-tree-vectorize (truly scalar;
# only when SCALAR_BUILD has a kernel_probe), and NEON.
# usage: tools/insn_count.sh [BUILD_DIR [SCALAR_BUILD]]
#   e.g. cmake --preset jetson -B build/jetson-scalar -DCMAKE_C_FLAGS=-fno-tree-vectorize &&
#        cmake --build build/jetson-scalar --target kernel_probe
set -eu
build=${1:-build/jetson}
scalar=${2:-build/jetson-scalar}
prefix=/
[ -e /lib/aarch64-linux-gnu/libc.so.6 ] || prefix=/usr/aarch64-linux-gnu
count() { # count BUILD KERNEL BACKEND
	qemu-aarch64 -cpu max -L "$prefix" -singlestep -d exec,nochain -D /dev/stdout \
		"$1/tools/kernel_probe" "$2" "$3" 2>/dev/null | grep -c '^Trace'
}
per() { echo "scale=2; $1 / $2" | bc; }
base=$(count "$build" census none)
have_scalar=0
[ -x "$scalar/tools/kernel_probe" ] && have_scalar=1 && sbase=$(count "$scalar" census none)
printf '%-18s %8s %10s %10s %10s %11s %9s\n' kernel elements ref-O3 ref-scalar neon \
	neon/scalar neon/ref
# elements (kernel_probe: 256x8 pixels, 64 disparities): what "per element" divides by
for spec in census:2048 sgm_cost:131072 sgm_aggregate:131072 sgm_select:131072 \
	sad_accumulate:17024 sad_wta:16384 bp_messages:2048 bp_messages_fp16:2048; do
	k=${spec%%:*} n=${spec#*:}
	ref=$(( $(count "$build" "$k" ref) - base ))
	neon=$(( $(count "$build" "$k" neon) - base ))
	sc=- scr=-
	if [ $have_scalar = 1 ]; then
		s=$(( $(count "$scalar" "$k" ref) - sbase ))
		sc=$(per $s $n) scr=$(per $s $neon)x
	fi
	printf '%-18s %8d %10s %10s %10s %11s %8sx\n' "$k" "$n" "$(per $ref $n)" "$sc" \
		"$(per $neon $n)" "$scr" "$(per $ref $neon)"
	if [ "$k" = bp_messages_fp16 ]; then
		f=$(( $(count "$build" "$k" neon-fp16) - base ))
		[ $have_scalar = 1 ] && scr=$(per $s $f)x
		printf '%-18s %8d %10s %10s %10s %11s %8sx\n' "  FP16 arithmetic" "$n" "" "" \
			"$(per $f $n)" "$scr" "$(per $ref $f)"
	fi
done
