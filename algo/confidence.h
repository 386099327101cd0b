/*
 * How far a disparity can be trusted, 8 bits a pixel: 0 = no depth, 1..255 = more
 * trustworthy the higher. It is computed from the finished map and the rectified pair, so
 * every matcher and backend gets the same rule and, with the same map, the same bytes:
 *  - the band where no match can exist is 0: scanning a row from the right, once a column
 *    lies left of the disparity of the trusted surface just right of it, that surface (and
 *    everything left of it) is not seen by the right camera;
 *  - agreement: the 5x5 census of the left pixel against the right pixel it was matched to,
 *    above chance: 24 - 2 * Hamming distance, at least 0 (unrelated pixels share half the
 *    bits; a filled or wrong disparity rarely lands on a match);
 *  - support: how many of the 24 neighbours in 5x5 lie within 1 px of the disparity (a
 *    lone value, a noisy patch or an occlusion edge has few).
 * 1 + 254 * agreement * support^2 / 24^3, in integers. docs/accuracy.md has the curve (bad
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

/** Workspace bytes for jd_confidence_ref() at this size with this many workers. */
size_t jd_confidence_mem_required(int width, int height, int nworkers);

/**
 * Confidence of @p disp (matched from @p left and @p right, all one size) into @p conf
 * (width bytes a row). @retval 0, -EINVAL (sizes differ), -ENOMEM (workspace too small)
 */
int jd_confidence_ref(const struct jd_image *left, const struct jd_image *right,
		      const struct jd_disp *disp, uint8_t *conf, void *ws, size_t ws_bytes,
		      const struct jd_exec *ex);

/** Mark pixels of @p disp whose confidence is below @p min invalid (in place). */
void jd_confidence_mask(struct jd_disp *disp, const uint8_t *conf, int min);

#endif
