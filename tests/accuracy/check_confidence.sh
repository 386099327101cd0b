#!/usr/bin/env bash
# The confidence map is worth having: on a dataset pair the most confident half of the pixels
# has at most RATIO times the 1-px bad rate of the other half, and at most BAND pixels are
# published where no match exists (docs/accuracy.md). $JD_CONF_THRESHOLD: the error that
# counts as bad, in px (default 1; KITTI's own is 3).
# usage: check_confidence.sh JETDEPTH PAIR ALGO RATIO BAND [extra match options...]
set -u
bin=$1 pair=$2 algo=$3 ratio=$4 band=$5
shift 5
. "$(dirname "$0")/pair_env.sh"
"$bin" match -q "$dir/left.pgm" "$dir/right.pgm" -o "$out/disp.pfm" --algo "$algo" \
	--ndisp "$ndisp" --confidence "$out/conf.png" "$@" || exit 1
"$bin" eval "$out/disp.pfm" "$dir" --confidence "$out/conf.png" --max-conf-ratio "$ratio" \
	--max-band-published "$band" --conf-threshold "${JD_CONF_THRESHOLD:-1}"
