#!/usr/bin/env bash
# SGM's accuracy on the dev pairs, the table docs/accuracy.md keeps for the path arithmetic:
# bad > 1 px over the non-occluded mask (KITTI: all known pixels) and KITTI's bad > 3 px,
# for census and AD, 8 and 4 paths, through `jetdepth match` (the reference C matcher).
# usage: tools/sgm_accuracy.sh JETDEPTH [DATA_DIR]
set -eu
bin=$1 data=${2:-../shared/data/stereo}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
score() { # PFM GT_DIR THRESH -> bad share in percent
	/usr/bin/python3 - "$@" <<'PY'
import sys, numpy as np
def pfm(p):
    with open(p, 'rb') as f:
        kind = f.readline().strip(); w, h = map(int, f.readline().split()); s = float(f.readline())
        a = np.fromfile(f, '<f4' if s < 0 else '>f4').reshape(h, w)
    return np.flipud(a)
def pgm(p):
    with open(p, 'rb') as f:
        f.readline(); w, h = map(int, f.readline().split()); f.readline()
        return np.fromfile(f, np.uint8).reshape(h, w)
import os
d, g, t = pfm(sys.argv[1]), pfm(sys.argv[2] + '/gt.pfm'), float(sys.argv[3])
m = np.isfinite(g)
mask = sys.argv[2] + '/mask_nonocc.pgm'
if os.path.exists(mask):
    m &= pgm(mask) == 255
e = np.abs(np.where(np.isfinite(d), d, 1e9) - g)[m]
print('%.2f' % (100.0 * np.mean(e > t)))
PY
}
echo "| pair (ndisp) | census 8 paths | census 4 paths | AD 8 paths |"
echo "|---|---|---|---|"
for pair in tsukuba venus teddy cones kitti2015_000000; do
	dir=$data/$pair
	[ -d "$dir" ] || continue
	nd=$(sed -n 's/^ndisp: //p' "$dir/meta.txt")
	row="| $pair ($nd) |"
	for cfg in "census 8" "census 4" "ad 8"; do
		set -- $cfg
		"$bin" match "$dir/left.pgm" "$dir/right.pgm" -o "$tmp/d.pfm" --algo sgm --ndisp "$nd" \
			--cost "$1" --paths "$2" >/dev/null 2>&1
		cell=$(score "$tmp/d.pfm" "$dir" 1)
		case $pair in kitti*) cell="$cell / $(score "$tmp/d.pfm" "$dir" 3) (3 px)" ;; esac
		row="$row $cell |"
	done
	echo "$row"
done
