/*
 * Image prefilters that make the absolute-difference costs of SAD and BP robust to the two
 * cameras differing in brightness (gain, offset, vignetting). The rank transform replaces
 * each pixel by the number of pixels in its window that are darker, scaled to 0..240: any
 * increasing change of brightness keeps every rank, so AD on ranks ignores it (Zabih and
 * Woodfill 1994; docs/accuracy.md has the measurements that chose it). Integer only, so
 * every backend computes the same bytes.
 */
#ifndef JD_ALGO_PREFILTER_H
#define JD_ALGO_PREFILTER_H

#include "jd_exec.h"
#include "jd_image.h"

/* Rank r of an n-pixel window is stored as r * (JD_RANK_RANGE / (n - 1)): intensity units. */
#define JD_RANK_RANGE 240

struct jd_match_params;

/** Does p's matcher see rank-transformed images (p->prefilter, with auto resolved)? */
int jd_prefilter_rank_on(const struct jd_match_params *p);

/** Does p's matcher (BP) compare census codes (p->prefilter, with auto resolved)? */
int jd_prefilter_census_on(const struct jd_match_params *p);

/** The rank window's side p's matcher uses (p->rank_window, or the matcher's default). */
int jd_rank_window(const struct jd_match_params *p);

/**
 * Rank transform of in into out (same size; must not overlap) over an odd window of side
 * 3..JD_RANK_WINDOW_MAX; pixels beyond the border repeat the edge.
 */
void jd_rank_ref(const struct jd_image *in, int window, struct jd_image *out,
		 const struct jd_exec *ex);

#endif
