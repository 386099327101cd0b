#!/usr/bin/env bash
# The shared libraries an aarch64 binary needs, recursively, one path a line, from the arm64
# multiarch directories (the cross build's); the loader included. Exit 1 naming one missing.
set -u
dirs="/lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/aarch64-linux-gnu/lib"
declare -A seen
walk() {
	local n d
	for n in $(aarch64-linux-gnu-readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		[ -n "${seen[$n]:-}" ] && continue
		for d in $dirs; do
			if [ -e "$d/$n" ]; then
				seen[$n]=$d/$n
				echo "$d/$n"
				walk "$(readlink -f "$d/$n")" || return 1
				break
			fi
		done
		[ -n "${seen[$n]:-}" ] || { echo "$1 needs $n, not found in $dirs"; return 1; }
	done
}
walk "$1"
