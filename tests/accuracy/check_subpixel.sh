#!/usr/bin/env bash
# Sub-pixel accuracy on a dataset pair: the RMS error over the pixels within 1 px of the truth
# (on the first mask) at most MAX_RMS px (docs/accuracy.md, "Sub-pixel").
# usage: check_subpixel.sh JETDEPTH PAIR ALGO MAX_RMS [extra match options...]
set -u -o pipefail
bin=$1 pair=$2 algo=$3 limit=$4
shift 4
. "$(dirname "$0")/pair_env.sh"
"$bin" match -q "$dir/left.pgm" "$dir/right.pgm" -o "$out/disp.pfm" --algo "$algo" \
	--ndisp "$ndisp" "$@" || exit 1
"$bin" eval "$out/disp.pfm" "$dir" --max-subpix-rms "$limit" | grep '^subpixel'
