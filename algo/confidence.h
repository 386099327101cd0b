/*
 * How far a disparity can be trusted, 8 bits a pixel: 0 = no depth, 1..255 = more
 * trustworthy the higher. It is computed from the finished map and the rectified pair, so
 * every matcher and backend gets the same rule and, with the same map, the same bytes:
 *  - the band where no match can exist is 0: a match left of the right image's second column
 *    (x - d < 1: the true match may lie a fraction of a pixel outside), and, scanning a row
 *    from the right, once a column lies left of the disparity of the trusted surface just
 *    right of it, that surface (and everything left of it) is not seen by the right camera;
 *  - agreement: the 5x5 census of the left pixel against the right pixel it was matched to,
 *    above chance: 24 - 2 * Hamming distance, at least 0 (unrelated pixels share half the
 *    bits; a filled or wrong disparity rarely lands on a match);
 *  - support: how many of the 24 neighbours in 5x5 lie within 1 px of the disparity (a
 *    lone value, a noisy patch or an occlusion edge has few).
 * 1 + 254 * agreement * support^2 / 24^3, in integers; then
 *  - a search cut short: near the left border a pixel at x had only the candidates d <= x
 *    (avail = x - min_disp + 1 of ndisp), so its best match may be a wrong small disparity
 *    that looks unique because the right one was never tried. That matters only where a
 *    surface nearby needs more than x: when a trusted disparity (as for the claims) above x
 *    lies in columns x .. min_disp + 2 ndisp - 1 of the row (the reach), the confidence
 *    above 1 is scaled by the square of the share of the search that was made,
 *    1 + (c - 1) avail^2 / ndisp^2 (integers, rounded down): then in the left third of the
 *    band (a share below 0.35) not even 255 reaches the default threshold.
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

/**
 * The search's share of @p c at column @p x (the rule above), where the largest trusted
 * disparity in the reach is @p reach; c 0 stays 0.
 */
static inline uint8_t jd_confidence_cut(uint8_t c, int x, float reach,
					const struct jd_conf_search *s)
{
	long avail = s ? x - s->min_disp + 1 : 0;

	if (!s || c == 0 || avail >= s->ndisp || !(reach > (float)x)) {
		return c;
	}
	avail = avail < 0 ? 0 : avail;
	return (uint8_t)(1 + (long long)(c - 1) * avail * avail / ((long long)s->ndisp * s->ndisp));
}

/** Mark pixels of @p disp whose confidence is below @p min invalid (in place). */
void jd_confidence_mask(struct jd_disp *disp, const uint8_t *conf, int min);

#endif
