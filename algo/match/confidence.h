/*
 * How far a disparity can be trusted, 8 bits a pixel: 0 = no depth, 1..255 = more
 * trustworthy the higher. It is computed from the finished map and the rectified pair, so
 * every matcher and backend gets the same rule and, with the same map, the same bytes:
 *  - the band where no match can exist is 0: a match left of the right image's fourth column
 *    (x - d < JD_CONF_EDGE_COLS: the true match may lie a fraction of a pixel outside, and a
 *    match a pixel or two off there was most of what was published where none exists), and
 *    a right-image column a trusted nearer surface claims;
 *  - agreement: the 5x5 census of the left pixel against the right pixel it was matched to,
 *    above chance: 24 - 2 * Hamming distance, at least 0 (unrelated pixels share half the
 *    bits; a filled or wrong disparity rarely lands on a match);
 *  - support: how many of the 24 neighbours in 5x5 lie within 1 px of the disparity (a
 *    lone value, a noisy patch or an occlusion edge has few).
 * 1 + 254 * agreement * support^2 / 24^3, in integers; then
 *  - a search cut short: near the left border a pixel at x had only the candidates d <= x
 *    (x - min_disp + 1 of ndisp), so its best match may be a wrong small disparity that looks
 *    unique because the right one was never tried. That matters where a surface nearby
 *    needs more than x: when a trusted disparity (support >= 12, as for the claims) above x
 *    lies in columns x .. min_disp + 2 ndisp - 1 of rows y - JD_CONF_REACH_ROWS ..
 *    y + JD_CONF_REACH_ROWS (the reach), the pixel may belong to that surface, whose match
 *    lies outside the right image: its confidence is 0. (Scaling it by the share of the
 *    search made, the rule before, left 2413 band pixels of the dev pairs with confidence
 *    and 330 published; this rule 155 and 73, for 0.47 % of the good published pixels.)
 * docs/accuracy.md has the curve (bad
 * rate against the share of pixels kept) and the variants measured (texture, which edges
 * at occlusions make a poor sign, and other weights).
 */
#ifndef JD_ALGO_CONFIDENCE_H
#define JD_ALGO_CONFIDENCE_H

#include <stddef.h>
#include <stdint.h>

#include "jd_exec.h"
#include "jd_image.h"

/* The documented default of --min-confidence: depth, cloud and sensing keep pixels at or above. */
#define JD_MIN_CONFIDENCE_DEFAULT 32

/* The disparity search the map came from: [min_disp, min_disp + ndisp). */
struct jd_conf_search {
	int min_disp, ndisp;
};

/** Workspace bytes for jd_confidence_ref() at this size with this many workers. */
size_t jd_confidence_mem_required(int width, int height, int nworkers);

/**
 * Confidence of @p disp (matched from @p left and @p right, all one size, by the search
 * @p s; NULL: no search was cut short) into @p conf (width bytes a row).
 * @retval 0, -EINVAL (sizes differ), -ENOMEM (workspace too small)
 */
int jd_confidence_ref(const struct jd_image *left, const struct jd_image *right,
		      const struct jd_disp *disp, const struct jd_conf_search *s, uint8_t *conf,
		      void *ws, size_t ws_bytes, const struct jd_exec *ex);

/** The reach's end: columns below it may hold the surface a cut-short pixel belongs to. */
static inline int jd_confidence_reach_end(int w, const struct jd_conf_search *s)
{
	long e = (long)s->min_disp + 2L * s->ndisp;
	return e < w ? (int)e : w;
}

/* A match into the right image's first columns: no depth (the band's edge). */
#define JD_CONF_EDGE_COLS 3
/* The reach looks this many rows up and down: a surface's band edge wanders from row to row. */
#define JD_CONF_REACH_ROWS 5

/**
 * @p c at column @p x under the rule above, where the largest trusted disparity in the reach
 * is @p reach: 0 when the search there was cut short and @p reach needs more than x.
 */
static inline uint8_t jd_confidence_cut(uint8_t c, int x, float reach,
					const struct jd_conf_search *s)
{
	long avail = s ? x - s->min_disp + 1 : 0;

	return s && avail < s->ndisp && reach > (float)x ? 0 : c;
}

/** Mark pixels of @p disp whose confidence is below @p min invalid (in place). */
void jd_confidence_mask(struct jd_disp *disp, const uint8_t *conf, int min);

#endif
