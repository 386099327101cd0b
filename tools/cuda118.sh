#!/usr/bin/env bash
# CUDA 11.8 for the boards' JetPack 5 and 6 image: Debian bookworm's nvidia-cuda-toolkit (the
# non-free component) unpacked into DIR without installing it (installing wants the
# driver's libcuda1, which a machine without a GPU cannot take), with an nvcc.profile that
# points nvcc at DIR. Idempotent; prints DIR/bin/nvcc.
#   tools/cuda118.sh [DIR]   (default: the repository's build/toolkits/cuda-11.8)
# apt must reach Debian's non-free component: a sources file of your own, e.g.
#   Types: deb / URIs: http://deb.debian.org/debian / Suites: bookworm / Components: non-free
# (.ci/install-deps --cross writes one). nvcc 11.8 wants a host compiler no newer than
# gcc 11: give it -ccbin clang-14 (the CMake option JD_NVCC_LEGACY_CCBIN does).
set -euo pipefail
dir=${1:-$(dirname "$0")/../build/toolkits/cuda-11.8}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ ! -x "$dir/root/usr/lib/nvidia-cuda-toolkit/bin/nvcc" ]; then
	mkdir -p "$dir/debs"
	(cd "$dir/debs" && apt-get download nvidia-cuda-toolkit nvidia-cuda-dev libnvvm4 >&2)
	for f in "$dir"/debs/*.deb; do
		dpkg -x "$f" "$dir/root"
	done
	rm -rf "$dir/debs"
fi
r=$dir/root
rm -f "$r/usr/lib/nvidia-cuda-toolkit/bin/nvcc.profile" # Debian's points at /etc
cat >"$r/usr/lib/nvidia-cuda-toolkit/bin/nvcc.profile" <<PROFILE
NVVMIR_LIBRARY_DIR = $r/usr/lib/nvidia-cuda-toolkit/libdevice
PATH		+= $r/usr/lib/nvidia-cuda-toolkit/bin:$r/usr/bin:
INCLUDES	+= "-I$r/usr/include" \$(_SPACE_)
LIBRARIES	=+ \$(_SPACE_) -L$r/usr/lib/x86_64-linux-gnu
PROFILE
# nvcc reads nvcc.profile beside the name it was called by: the link's folder too
mkdir -p "$dir/bin"
ln -sf "$r/usr/lib/nvidia-cuda-toolkit/bin/nvcc" "$dir/bin/nvcc"
cp "$r/usr/lib/nvidia-cuda-toolkit/bin/nvcc.profile" "$dir/bin/nvcc.profile"
echo "$dir/bin/nvcc"
