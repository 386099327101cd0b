# Sourced by the test scripts: when the tests of a cross build run under an emulator
# ($JETDEPTH_EMULATOR, set by CMake from CMAKE_CROSSCOMPILING_EMULATOR), wrap the binary
# in a tiny launcher so every "$bin" call goes through it. Needs $bin and a scratch dir $1.
# jd_emulated PROGRAM NAME does the same for another cross-built program: it prints the path
# to call it by (PROGRAM itself without an emulator).
jd_emulated() {
	if [ -n "${JETDEPTH_EMULATOR:-}" ]; then
		printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$JETDEPTH_EMULATOR" "$1" >"$jd_emu_dir/$2"
		chmod +x "$jd_emu_dir/$2"
		echo "$jd_emu_dir/$2"
	else
		echo "$1"
	fi
}
jd_emu_dir=$1
bin=$(jd_emulated "$bin" jetdepth-emu)
