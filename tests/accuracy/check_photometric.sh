#!/usr/bin/env bash
# Robustness to brightness differences between the cameras: the right image of a pair with a
# gain of 1.1 and an offset of -10, with a darkening gain of 0.8, and with 25 % radial
# vignetting may each move the 1-px bad rate by at most MAX_MOVE points. The rate counts the
# pixels (non-occluded where the pair has the mask) that neither image clips before or after
# the change: where a gain saturates the right image (KITTI's is 12.5 % white), no method has
# texture left to match.
# usage: check_photometric.sh JETDEPTH PHOTOMETRIC PAIR ALGO MAX_MOVE [extra match options...]
set -u
bin=$1 photometric=$2 pair=$3 algo=$4 limit=$5
shift 5
. "$(dirname "$0")/pair_env.sh"
photometric=$(jd_emulated "$photometric" photometric-emu) # cross-built too
"$photometric" "$dir/right.pgm" "$out/gain.pgm" gain 1.1 -10 || exit 1
"$photometric" "$dir/right.pgm" "$out/dark.pgm" gain 0.8 0 || exit 1
"$photometric" "$dir/right.pgm" "$out/vignette.pgm" vignette 0.25 || exit 1
base=$dir/mask_nonocc.pgm
[ -f "$base" ] || base=$dir/mask_all.pgm
match() {
	"$bin" match -q "$dir/left.pgm" "$1" -o "$2" --algo "$algo" --ndisp "$ndisp" "${@:3}"
}
bad1() { # MAP EVALDIR: the 1-px bad rate on the folder's one mask
	"$bin" eval "$1" "$2" | awk 'NR == 2 {print $4}'
}
match "$dir/right.pgm" "$out/clean.pfm" "$@" || exit 1
status=0
for kind in gain dark vignette; do
	ev=$out/ev-$kind
	mkdir -p "$ev" && ln -s "$dir/gt.pfm" "$ev/gt.pfm"
	"$photometric" "$dir/right.pgm" "$ev/mask_nonocc.pgm" unclipped "$dir/left.pgm" \
		"$out/$kind.pgm" "$dir/gt.pfm" "$base" || exit 1
	match "$out/$kind.pgm" "$out/$kind.pfm" "$@" || exit 1
	clean=$(bad1 "$out/clean.pfm" "$ev") moved=$(bad1 "$out/$kind.pfm" "$ev")
	if awk -v a="$clean" -v b="$moved" -v l="$limit" 'BEGIN {d = b - a; if (d < 0) d = -d; exit !(d > l)}'; then
		echo "FAIL: $algo on $pair: bad1 $clean % clean, $moved % with $kind, unclipped pixels (limit +-$limit)"
		status=1
	else
		echo "ok: $algo on $pair: bad1 $clean % clean, $moved % with $kind, unclipped pixels"
	fi
done
exit $status
