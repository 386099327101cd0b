# Sourced by the accuracy scripts after they set $bin and $pair: the dataset pair's folder
# ($dir, from $JETDEPTH_DATA, else ../shared/data; the script skips with exit 77 when it is
# absent), its disparity count ($ndisp), a scratch folder ($out, removed on exit) and the
# emulator wrapper for cross builds (tests/harness/emulator.sh).
data=${JETDEPTH_DATA:-$JD_DEFAULT_DATA}
dir=$data/stereo/$pair
if [ ! -f "$dir/left.pgm" ] || [ ! -f "$dir/meta.txt" ]; then
	echo "SKIP: no dataset at $dir (set JETDEPTH_DATA to the folder that holds stereo/)"
	exit 77
fi
ndisp=$(awk '/^ndisp:/ {print $2}' "$dir/meta.txt")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$(dirname "$0")/../harness/emulator.sh" "$out"
