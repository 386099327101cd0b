#!/usr/bin/env bash
# Robustness to brightness differences between the cameras: the right image of a pair with a
# gain of 1.1 and an offset of -10, and separately with 25 % radial vignetting, may move the
# 1-px bad rate by at most MAX_MOVE points.
# usage: check_photometric.sh JETDEPTH PHOTOMETRIC PAIR ALGO MAX_MOVE [extra match options...]
set -u
bin=$1 photometric=$2 pair=$3 algo=$4 limit=$5
shift 5
. "$(dirname "$0")/pair_env.sh"
photometric=$(jd_emulated "$photometric" photometric-emu) # cross-built too
"$photometric" "$dir/right.pgm" "$out/gain.pgm" gain 1.1 -10 || exit 1
"$photometric" "$dir/right.pgm" "$out/vignette.pgm" vignette 0.25 || exit 1
bad1() {
	"$bin" match -q "$dir/left.pgm" "$1" -o "$out/disp.pfm" --algo "$algo" --ndisp "$ndisp" \
		"${@:2}" || return 1
	"$bin" eval "$out/disp.pfm" "$dir" | awk 'NR == 2 {print $4}'
}
clean=$(bad1 "$dir/right.pgm" "$@") || exit 1
status=0
for kind in gain vignette; do
	moved=$(bad1 "$out/$kind.pgm" "$@") || exit 1
	if awk -v a="$clean" -v b="$moved" -v l="$limit" 'BEGIN {d = b - a; if (d < 0) d = -d; exit !(d > l)}'; then
		echo "FAIL: $algo on $pair: bad1 $clean % clean, $moved % with $kind (limit +-$limit)"
		status=1
	else
		echo "ok: $algo on $pair: bad1 $clean % clean, $moved % with $kind"
	fi
done
exit $status
