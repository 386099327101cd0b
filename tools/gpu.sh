#!/usr/bin/env bash
# Every check and measurement on the GPU machine (the device tool), from the repository root:
#   tools/gpu.sh PART...            (default: tests sanitize bench)
# It builds this tree once (build/gpu), then runs the parts in the order given, each logging
# into $OUT (else /tmp/gpu-out). Split the parts over calls to stay inside the device tool's
# 10 minutes a command.
#
# Settings (environment):
#   ARCH     the sm the fatbin is built for: 90 (default, a quarter of the nvcc time), 87 (the
#            boards' code, run through the driver's JIT here), or all (the release's)
#   MEMORY   the GPU memory modes the tests and the sanitizers run in: "copy" (default),
#            "mapped" or "copy mapped"
#   GPU_TESTS  the GPU tests by short name (sad sgm ...); default every test ctest labels gpu
#   CMAKE_ARGS more configure options, e.g. -DJD_NVCC_FLAGS=-DJD_SGM_PREV
#
# Parts (tools/gpu/<file>.sh holds each; its header says its settings):
#   tests      ctest -L gpu (copy), each GPU test again in the other MEMORY modes, then
#              noalloc, e2e.daemon and e2e.same_map                     (check.sh)
#   suite      the whole ctest suite                                      (check.sh)
#   sanitize   compute-sanitizer memcheck and racecheck of every GPU test (check.sh)
#   bench      jetdepth bench: SAD, SGM and BP at the sizes of the figures in docs/perf.md, CUDA (CPU=1: and CPU)
#   same       the same maps and JSON: GPU copy, mapped and the CPU, raw frames, files camera,
#              a SIGUSR1 dump                                           (same.sh)
#   pipeline   bench --pipeline in each MEMORY mode (.gpuold beside it when carried) (same.sh)
#   loop       ncu: a `bench --pipeline` frame's kernels added up by stage (loop.sh)
#   sgm        SGM kernel variants side by side and beside libSGM, with ncu (sgm.sh)
#   bp         BP: bench with message-kernel variants, ncu bytes, profiles (bp.sh)
#   sad        SAD: rows a strip, ncu of each kernel                       (sad.sh)
#   preview    the browser preview end to end (its own build with libmicrohttpd) (preview.sh)
#   ros2       run --ros2 with a subscriber, from binaries built elsewhere  (ros2.sh)
#   jetpack    the boards' images (CUDA 11.8's sm_87, JIT here; its sm_90) beside CUDA 13's
#              and libSGM: tests, bench, ncu, sanitizers, memory     (jetpack.sh)
# Carry .gpudeps (TurboJPEG, libyaml) and .gpudata (the dataset pairs); a part names what
# else it needs.
set -u
here=$(dirname "$0")
out=${OUT:-/tmp/gpu-out}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
[ -d .gpudeps ] && export PKG_CONFIG_PATH=$PWD/.gpudeps/lib/pkgconfig LD_LIBRARY_PATH=$PWD/.gpudeps/lib
export JETDEPTH_DATA=$PWD/.gpudata
b=build/gpu/jetdepth
memory=${MEMORY:-copy}

# gpu_build NAME SRC DIR [CMAKE ARGS...]: the one CUDA build of every part, of the tree SRC in
# DIR for ARCH, logged in $out/build-NAME.log (its tail on failure)
gpu_build() {
	local name=$1 src=$2 dir=$3 arch=()
	shift 3
	case ${ARCH:-90} in all) ;; *) arch=(-DJD_CUDA_ONLY_ARCH="${ARCH:-90}") ;; esac
	{
		cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DJD_WITH_CUDA=ON \
			"${arch[@]}" ${CMAKE_ARGS:-} "$@" && cmake --build "$dir" -j16
	} >"$out/build-$name.log" 2>&1 || { tail -30 "$out/build-$name.log"; return 1; }
}

# The GPU tests' short names: ctest's gpu label, unless GPU_TESTS says
gpu_tests() {
	if [ -n "${GPU_TESTS:-}" ]; then
		echo "$GPU_TESTS"
		return
	fi
	ctest --test-dir build/gpu -L gpu -N | sed -n 's/.*Test *#[0-9]*: gpu\.cuda_//p' | tr '\n' ' '
}

# gpu_run MODE TIMEOUT CMD...: CMD with the GPU memory mode MODE
gpu_run() {
	local m=$1 t=$2
	shift 2
	JD_GPU_MEMORY=$m timeout "$t" "$@"
}

parts=${*:-tests sanitize bench}
# the file of a part, or nothing
part_file() {
	case $1 in
	tests | suite | sanitize | bench) echo check ;;
	same | pipeline) echo same ;;
	loop | sgm | bp | sad | preview | ros2 | jetpack) echo "$1" ;;
	esac
}
for part in $parts; do
	[ -n "$(part_file "$part")" ] || { echo "tools/gpu.sh: unknown part '$part' (see its header)"; exit 2; }
done
nvidia-smi -L
if [ "$parts" != ros2 ] && [ "$parts" != jetpack ]; then
	gpu_build gpu . build/gpu || exit 1
	grep "CUDA kernels: " "$out/build-gpu.log"
fi
for part in $parts; do
	. "$here/gpu/$(part_file "$part").sh"
	echo "== $part"
	"part_$part" 2>&1 | tee "$out/$part.log"
done
