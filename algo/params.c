#include "jd_params.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bp.h"

void jd_params_default(struct jd_match_params *p, enum jd_algo algo, int ndisp)
{
	memset(p, 0, sizeof(*p));
	p->algo = algo;
	p->ndisp = ndisp;
	p->min_disp = 0;
	/* Thesis default: 11x11 window. */
	p->sad.window = 11;
	p->sad.lr_check = 1;
	p->sad.fill = 1;
	p->sad.median = 1;
	/* off: it halves the RMS within 1 px but raises bad1 a little (docs/accuracy.md) */
	p->sad.subpixel = 0;
	/* Census penalties for a 0..62 cost range, tuned on the dev pairs (docs/accuracy.md). */
	p->sgm.cost = JD_SGM_COST_CENSUS;
	p->sgm.paths = 8;
	p->sgm.p1 = 25;
	p->sgm.p2 = 200;
	p->sgm.p2_adapt = 4;
	p->sgm.subpixel = 1;
	p->sgm.lr_check = 1;
	p->sgm.lr_max_diff = 1;
	p->sgm.uniqueness = 5;
	p->sgm.fill = 1;
	p->sgm.median = 1;
	/* Seed defaults (bp-optimizing-gpu-cpu.txt). */
	p->bp.levels = 5;
	p->bp.iters = 7;
	p->bp.lambda = 0.1f;
	p->bp.data_k = 15.0f;
	p->bp.disc_k = 0.0f;
	p->bp.sigma = 0.0f;
	p->bp.fp16 = 0;
	/* off: it lowers the RMS within 1 px but raises the bad rates (docs/accuracy.md) */
	p->bp.subpixel = 0;
}

const char *jd_algo_name(enum jd_algo algo)
{
	switch (algo) {
	case JD_ALGO_SAD:
		return "sad";
	case JD_ALGO_SGM:
		return "sgm";
	case JD_ALGO_BP:
		return "bp";
	}
	return "?";
}

int jd_algo_parse(const char *name, enum jd_algo *out)
{
	static const enum jd_algo all[] = {JD_ALGO_SAD, JD_ALGO_SGM, JD_ALGO_BP};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (strcmp(name, jd_algo_name(all[i])) == 0) {
			*out = all[i];
			return 0;
		}
	}
	return -EINVAL;
}

const char *jd_prefilter_name(enum jd_prefilter f)
{
	switch (f) {
	case JD_PREFILTER_AUTO:
		return "auto";
	case JD_PREFILTER_NONE:
		return "none";
	case JD_PREFILTER_RANK:
		return "rank";
	case JD_PREFILTER_CENSUS:
		return "census";
	}
	return "?";
}

int jd_prefilter_parse(const char *name, enum jd_prefilter *out)
{
	static const enum jd_prefilter all[] = {JD_PREFILTER_AUTO, JD_PREFILTER_NONE,
						JD_PREFILTER_RANK, JD_PREFILTER_CENSUS};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (strcmp(name, jd_prefilter_name(all[i])) == 0) {
			*out = all[i];
			return 0;
		}
	}
	return -EINVAL;
}

float jd_bp_disc_k(const struct jd_match_params *p)
{
	/* on BP's 1/16 grid (bp.h), like every cost */
	return jd_bp_quantise(p->bp.disc_k > 0.0f ? p->bp.disc_k : (float)p->ndisp / 7.5f);
}

#define FAIL(...)                                                                             \
	do {                                                                                  \
		snprintf(err, errlen, __VA_ARGS__);                                          \
		return -EINVAL;                                                               \
	} while (0)

static int validate_sgm(const struct jd_sgm_params *s, char *err, size_t errlen)
{
	if (s->cost != JD_SGM_COST_CENSUS && s->cost != JD_SGM_COST_AD) {
		FAIL("--cost %d: must be census or ad", (int)s->cost);
	}
	if (s->paths != 4 && s->paths != 8) {
		FAIL("--paths %d: must be 4 or 8", s->paths);
	}
	if (s->p1 < 1) {
		FAIL("--p1 %d: must be at least 1", s->p1);
	}
	if (s->p2 <= s->p1) {
		FAIL("--p2 %d: must be larger than --p1 (%d)", s->p2, s->p1);
	}
	/* Path costs are bytes; a P2 above 255 would let saturation change the recurrence. */
	if (s->p2 > JD_SGM_P2_MAX) {
		FAIL("--p2 %d: too large; path costs are bytes, so P2 must be at most %d", s->p2,
		     JD_SGM_P2_MAX);
	}
	if (s->p2_adapt < 0 || s->p2_adapt > 255) {
		FAIL("--p2-adapt %d: must be between 0 (off) and 255", s->p2_adapt);
	}
	if (s->lr_max_diff < 0 || s->lr_max_diff > 64) {
		FAIL("--lr-max-diff %d: must be between 0 and 64", s->lr_max_diff);
	}
	if (s->uniqueness < 0 || s->uniqueness > 99) {
		FAIL("--uniqueness %d: must be a percentage between 0 and 99", s->uniqueness);
	}
	return 0;
}

static int validate_bp(const struct jd_match_params *p, int width, int height, char *err,
		       size_t errlen)
{
	const struct jd_bp_params *b = &p->bp;

	if (b->levels < 1 || b->levels > JD_BP_LEVELS_MAX) {
		FAIL("--levels %d: must be between 1 and %d", b->levels, JD_BP_LEVELS_MAX);
	}
	if ((width >> (b->levels - 1)) < 1 || (height >> (b->levels - 1)) < 1) {
		FAIL("--levels %d: too many for a %dx%d image", b->levels, width, height);
	}
	if (b->iters < 1 || b->iters > 100) {
		FAIL("--iters %d: must be between 1 and 100", b->iters);
	}
	if (!(b->lambda > 0.0f && b->lambda <= 10.0f)) {
		FAIL("--lambda %g: must be in (0, 10]", (double)b->lambda);
	}
	if (!(b->data_k > 0.0f && b->data_k <= 255.0f)) {
		FAIL("--data-k %g: must be in (0, 255]", (double)b->data_k);
	}
	/* fp16 holds the coarsest summed cost only while it stays far below 65504. */
	if (b->fp16 && b->lambda * b->data_k * (float)(1 << (2 * (b->levels - 1))) > 30000.0f) {
		FAIL("--lambda %g with --data-k %g and --levels %d: coarse costs overflow fp16",
		     (double)b->lambda, (double)b->data_k, b->levels);
	}
	if (!(b->disc_k >= 0.0f && b->disc_k <= 1000.0f)) {
		FAIL("--disc-k %g: must be in [0, 1000] (0 = ndisp / 7.5)", (double)b->disc_k);
	}
	if (!(b->sigma >= 0.0f && b->sigma <= 10.0f)) {
		FAIL("--sigma %g: must be in [0, 10]", (double)b->sigma);
	}
	return 0;
}

int jd_params_validate(const struct jd_match_params *p, int width, int height, char *err,
		       size_t errlen)
{
	if (width < 1 || height < 1) {
		FAIL("image size %dx%d: must be at least 1x1", width, height);
	}
	if (p->ndisp < 2 || p->ndisp > JD_NDISP_MAX) {
		FAIL("--ndisp %d: must be between 2 and %d", p->ndisp, JD_NDISP_MAX);
	}
	if (p->min_disp < 0) {
		FAIL("--min-disp %d: must be 0 or more", p->min_disp);
	}
	if (p->tiles < 0 || p->tiles > height) {
		FAIL("--tiles %d: must be 0 (automatic) to %d (the image's rows)", p->tiles, height);
	}
	if (p->tile_overlap < 0 || p->tile_overlap > height) {
		FAIL("--tile-overlap %d: must be 0 (the matcher's default) to %d", p->tile_overlap,
		     height);
	}
	if (p->rank_window && (p->rank_window < 3 || p->rank_window % 2 == 0 ||
			       p->rank_window > JD_RANK_WINDOW_MAX)) {
		FAIL("--rank-window %d: must be 0 (the matcher's default) or odd, 3 to %d",
		     p->rank_window, JD_RANK_WINDOW_MAX);
	}
	if ((unsigned)p->prefilter > JD_PREFILTER_CENSUS) {
		FAIL("--prefilter %d: unknown prefilter", (int)p->prefilter);
	}
	if (p->prefilter == JD_PREFILTER_CENSUS && p->algo != JD_ALGO_BP) {
		FAIL("--prefilter census: BP's cost only (SGM matches census codes already; %s "
		     "takes none or rank)",
		     p->algo == JD_ALGO_SAD ? "SAD" : "SGM");
	}
	if (p->ndisp + p->min_disp > width) {
		FAIL("--ndisp %d: with --min-disp %d it exceeds the image width %d", p->ndisp,
		     p->min_disp, width);
	}
	switch (p->algo) {
	case JD_ALGO_SAD:
		if (p->sad.window < 1 || p->sad.window % 2 == 0 ||
		    p->sad.window > JD_SAD_WINDOW_MAX) {
			FAIL("--window %d: must be odd, between 1 and %d", p->sad.window,
			     JD_SAD_WINDOW_MAX);
		}
		return 0;
	case JD_ALGO_SGM:
		return validate_sgm(&p->sgm, err, errlen);
	case JD_ALGO_BP:
		return validate_bp(p, width, height, err, errlen);
	}
	FAIL("--algo %d: unknown matcher", (int)p->algo);
}
