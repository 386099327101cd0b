# Sourced by the tools/gpu_*.sh scripts on the GPU machine, from the repository root: the
# CUDA toolkit on PATH, the carried .gpudeps libraries (where the machine lacks TurboJPEG and
# libyaml) and .gpudata, $out for the logs ($OUT, else /tmp/gpu-out), and
# gpu_build [CMAKE ARGS...]: build/gpu with CUDA, logged to $out/build.log (its tail on failure).
out=${OUT:-/tmp/gpu-out}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
[ -d .gpudeps ] && export PKG_CONFIG_PATH=$PWD/.gpudeps/lib/pkgconfig LD_LIBRARY_PATH=$PWD/.gpudeps/lib
export JETDEPTH_DATA=$PWD/.gpudata

gpu_build() {
	{
		cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DJD_WITH_CUDA=ON "$@" &&
			cmake --build build/gpu -j16
	} >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; return 1; }
}
