# Sourced by the test scripts: when the tests of a cross build run under an emulator
# ($JETDEPTH_EMULATOR, set by CMake from CMAKE_CROSSCOMPILING_EMULATOR), wrap the binary
# in a tiny launcher so every "$bin" call goes through it. Needs $bin and a scratch dir $1.
if [ -n "${JETDEPTH_EMULATOR:-}" ]; then
	printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$JETDEPTH_EMULATOR" "$bin" >"$1/jetdepth-emu"
	chmod +x "$1/jetdepth-emu"
	bin=$1/jetdepth-emu
fi
