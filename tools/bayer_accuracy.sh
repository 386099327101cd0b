#!/usr/bin/env bash
# The raw Bayer luma rule's effect on matching (docs/cameras.md): each dev pair's colour PNGs
# mosaicked as an RGGB sensor would see them (8 bits), then turned into luma five ways and
# matched by SGM with its defaults through `jetdepth match`:
#   gray     the pair's own PGM (BT.601 luma of the colour images): what a GREY camera gives
#   jetdepth the rule of algo/convert.h: bilinear demosaic (rounded means of the nearest
#            same-colour sites, the mosaic mirrored at the edges), then the BT.601 rule
#   binomial the 3x3 binomial around each pixel: (R + 2G + B) / 4 at every site, centred
#   cell     the mean of the 2x2 cell at each pixel: the same weights, half a pixel off
#   binned   each 2x2 cell as one pixel (half resolution, half the disparities, the map
#            doubled back to full size for the evaluation)
# Bad > 1 px over the non-occluded mask (KITTI: all known pixels, and > 2 px beside).
# usage: tools/bayer_accuracy.sh JETDEPTH [DATA_DIR]
set -eu
bin=$1 data=${2:-../shared/data/stereo}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
echo "| pair (ndisp) | gray camera | jetdepth's rule | 3x3 binomial | 2x2 cell | 2x2 binned |"
echo "|---|---|---|---|---|---|"
for pair in tsukuba venus teddy cones kitti2015_000000; do
	dir=$data/$pair
	[ -f "$dir/left.png" ] || continue
	nd=$(sed -n 's/^ndisp: //p' "$dir/meta.txt")
	$py - "$dir" "$tmp" <<'PY'
import sys, cv2, numpy as np
src, out = sys.argv[1], sys.argv[2]
def pgm(path, a):
    a = np.clip(a, 0, 255).astype(np.uint8)
    with open(path, 'wb') as f:
        f.write(b'P5\n%d %d\n255\n' % (a.shape[1], a.shape[0])); f.write(a.tobytes())
for side in ('left', 'right'):
    bgr = cv2.imread('%s/%s.png' % (src, side), cv2.IMREAD_COLOR).astype(np.int64)
    h, w = bgr.shape[:2]
    m = np.empty((h, w), np.int64)          # RGGB: R at (0,0), G at (0,1) and (1,0), B at (1,1)
    m[0::2, 0::2] = bgr[0::2, 0::2, 2]; m[0::2, 1::2] = bgr[0::2, 1::2, 1]
    m[1::2, 0::2] = bgr[1::2, 0::2, 1]; m[1::2, 1::2] = bgr[1::2, 1::2, 0]
    p = np.pad(m, 1, mode='reflect')        # mirrored about the edge pixel, as jetdepth's rule
    hsum = p[:, :-2] + 2 * p[:, 1:-1] + p[:, 2:]
    bino = (hsum[:-2] + 2 * hsum[1:-1] + hsum[2:] + 8) >> 4
    q = np.pad(m, ((0, 1), (0, 1)), mode='edge')
    cell = (q[:-1, :-1] + q[:-1, 1:] + q[1:, :-1] + q[1:, 1:] + 2) >> 2
    hb, wb = h // 2, w // 2
    binned = (m[0:2*hb:2, 0:2*wb:2] + m[0:2*hb:2, 1:2*wb:2] + m[1:2*hb:2, 0:2*wb:2] + m[1:2*hb:2, 1:2*wb:2] + 2) >> 2
    # jetdepth's rule: the missing colours' rounded means, then (77 R + 150 G + 29 B + 128) >> 8
    L, R, U, D = p[1:-1, :-2], p[1:-1, 2:], p[:-2, 1:-1], p[2:, 1:-1]
    side2, vert = (L + R + 1) >> 1, (U + D + 1) >> 1
    cross = (L + R + U + D + 2) >> 2
    diag = (p[:-2, :-2] + p[:-2, 2:] + p[2:, :-2] + p[2:, 2:] + 2) >> 2
    yy, xx = np.mgrid[0:h, 0:w]
    rrow, rcol = yy % 2 == 0, xx % 2 == 0
    red = np.where(rrow, np.where(rcol, m, side2), np.where(rcol, vert, diag))
    grn = np.where(rrow, np.where(rcol, cross, m), np.where(rcol, m, cross))
    blu = np.where(rrow, np.where(rcol, diag, vert), np.where(rcol, side2, m))
    pgm('%s/jd_%s.pgm' % (out, side), (77 * red + 150 * grn + 29 * blu + 128) >> 8)
    pgm('%s/bino_%s.pgm' % (out, side), bino)
    pgm('%s/cell_%s.pgm' % (out, side), cell)
    pgm('%s/binned_%s.pgm' % (out, side), binned)
PY
	row="| $pair ($nd) |"
	for kind in gray jd bino cell binned; do
		l=$tmp/${kind}_left.pgm r=$tmp/${kind}_right.pgm n=$nd
		[ $kind = gray ] && l=$dir/left.pgm r=$dir/right.pgm
		[ $kind = binned ] && n=$(((nd / 2 + 15) / 16 * 16))
		"$bin" match "$l" "$r" -o "$tmp/d.pfm" --algo sgm --ndisp $n >/dev/null 2>&1
		if [ $kind = binned ]; then
			$py - "$tmp/d.pfm" "$dir/gt.pfm" <<'PY'
import sys, numpy as np
def rd(p):
    with open(p, 'rb') as f:
        f.readline(); w, h = map(int, f.readline().split()); s = float(f.readline())
        return np.fromfile(f, '<f4' if s < 0 else '>f4').reshape(h, w), s
d, s = rd(sys.argv[1]); g, _ = rd(sys.argv[2])
up = np.repeat(np.repeat(d, 2, 0), 2, 1) * 2
full = np.full(g.shape, np.inf, np.float32); full[:up.shape[0], :up.shape[1]] = up[:g.shape[0], :g.shape[1]]
with open(sys.argv[1], 'wb') as f:
    f.write(b'Pf\n%d %d\n-1.0\n' % (g.shape[1], g.shape[0])); f.write(full.astype('<f4').tobytes())
PY
		fi
		case $pair in
		kitti*) cell=$("$bin" eval "$tmp/d.pfm" "$dir" | awk '/^all/ { printf "%s / %s", $4, $5 }') ;; # bad > 1 / > 2 px
		*) cell=$("$bin" eval "$tmp/d.pfm" "$dir" | awk '/^nonocc/ { print $4 }') ;;
		esac
		row="$row $cell |"
	done
	echo "$row"
done
