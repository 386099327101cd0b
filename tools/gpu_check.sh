#!/bin/sh
# On the GPU machine (the device tool): build with CUDA, run the gpu tests, compute-sanitizer
# memcheck and racecheck on them, the whole suite, and the CUDA benchmarks; logs into $OUT.
# Expects .gpudata (dataset copy) and, where the machine lacks TurboJPEG, .gpudeps (see docs).
set -u
out=${OUT:-/tmp/gpu-out}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
[ -d .gpudeps ] && export PKG_CONFIG_PATH=$PWD/.gpudeps/lib/pkgconfig LD_LIBRARY_PATH=$PWD/.gpudeps/lib
export JETDEPTH_DATA=$PWD/.gpudata
{
	cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DJD_WITH_CUDA=ON &&
	cmake --build build/gpu -j16
} >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
echo "== ctest -L gpu"; ctest --test-dir build/gpu -L gpu --output-on-failure 2>&1 | tee "$out/gpu.log" | tail -15
for t in ${JD_SANITIZE:-sad sgm bp}; do
	for tool in memcheck racecheck; do
		echo "== compute-sanitizer $tool test_cuda_$t"
		timeout 300 compute-sanitizer --tool $tool --error-exitcode 3 build/gpu/tests/test_cuda_$t \
			>"$out/$tool-$t.log" 2>&1
		echo "exit $?"; tail -3 "$out/$tool-$t.log"
	done
done
echo "== ctest (all)"; ctest --test-dir build/gpu -j16 --output-on-failure >"$out/all.log" 2>&1; tail -6 "$out/all.log"
echo "== bench"
b=build/gpu/jetdepth
for be in cuda cpu; do
	runs=21; [ $be = cpu ] && runs=5
	$b bench --algo sad --size 640x480 --ndisp 64 --runs $runs --backend $be 2>&1 | tail -2
	$b bench --algo sgm --size 450x375 --ndisp 64 --runs $runs --backend $be 2>&1 | tail -2
	$b bench --algo sgm --size 1280x720 --ndisp 128 --runs $runs --backend $be 2>&1 | tail -2
	$b bench --algo sgm --size 1920x1080 --ndisp 256 --runs $runs --backend $be 2>&1 | tail -2
	for fp in "" --fp16; do
		$b bench --algo bp $fp --size 384x288 --ndisp 16 --runs $runs --backend $be 2>&1 | tail -2
		$b bench --algo bp $fp --size 450x375 --ndisp 64 --runs $runs --backend $be 2>&1 | tail -2
		$b bench --algo bp $fp --size 900x750 --ndisp 128 --runs $runs --backend $be 2>&1 | tail -2
	done
done | tee "$out/bench.log"
