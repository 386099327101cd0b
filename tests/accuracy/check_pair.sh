#!/usr/bin/env bash
# Accuracy of one matcher on one dataset pair, through the CLI a user would run:
#   jetdepth match LEFT RIGHT -o OUT.pfm ...; jetdepth eval OUT.pfm PAIR_DIR --max-bad LIMIT
# usage: check_pair.sh JETDEPTH PAIR ALGO MAX_BAD1 [extra match options...]
# Data: $JETDEPTH_DATA (default ../shared/data beside the checkout); skipped when absent.
set -u
bin=$1 pair=$2 algo=$3 limit=$4
shift 4
data=${JETDEPTH_DATA:-$JD_DEFAULT_DATA}
dir=$data/stereo/$pair
if [ ! -f "$dir/left.pgm" ] || [ ! -f "$dir/meta.txt" ]; then
	echo "SKIP: no dataset at $dir (set JETDEPTH_DATA to the folder that holds stereo/)"
	exit 77
fi
ndisp=$(awk '/^ndisp:/ {print $2}' "$dir/meta.txt")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$(dirname "$0")/../cli/emulator.sh" "$out"
"$bin" match -q "$dir/left.pgm" "$dir/right.pgm" -o "$out/disp.pfm" --algo "$algo" \
	--ndisp "$ndisp" "$@" || exit 1
"$bin" eval "$out/disp.pfm" "$dir" --max-bad "$limit"
