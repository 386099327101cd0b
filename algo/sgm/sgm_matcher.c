/* SGM's row of the matcher table: census or AD costs, 4 or 8 paths, and its filters. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "kernels.h"
#include "matcher_table.h"
#include "sgm.h"

static void sgm_defaults(struct jd_match_params *p)
{
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
}

static int sgm_validate(const struct jd_match_params *p, int width, int height, char *err,
			size_t errlen)
{
	const struct jd_sgm_params *s = &p->sgm;

	(void)width;
	(void)height;
	if (s->cost != JD_SGM_COST_CENSUS && s->cost != JD_SGM_COST_AD) {
		JD_MATCHER_FAIL("--cost %d: must be census or ad", (int)s->cost);
	}
	if (s->paths != 4 && s->paths != 8) {
		JD_MATCHER_FAIL("--paths %d: must be 4 or 8", s->paths);
	}
	if (s->p1 < 1) {
		JD_MATCHER_FAIL("--p1 %d: must be at least 1", s->p1);
	}
	if (s->p2 <= s->p1) {
		JD_MATCHER_FAIL("--p2 %d: must be larger than --p1 (%d)", s->p2, s->p1);
	}
	/* Path costs are bytes; a P2 above 255 would let saturation change the recurrence. */
	if (s->p2 > JD_SGM_P2_MAX) {
		JD_MATCHER_FAIL(
		    "--p2 %d: too large; path costs are bytes, so P2 must be at most %d", s->p2,
		    JD_SGM_P2_MAX);
	}
	if (s->p2_adapt < 0 || s->p2_adapt > 255) {
		JD_MATCHER_FAIL("--p2-adapt %d: must be between 0 (off) and 255", s->p2_adapt);
	}
	if (s->lr_max_diff < 0 || s->lr_max_diff > 64) {
		JD_MATCHER_FAIL("--lr-max-diff %d: must be between 0 and 64", s->lr_max_diff);
	}
	if (s->uniqueness < 0 || s->uniqueness > 99) {
		JD_MATCHER_FAIL("--uniqueness %d: must be a percentage between 0 and 99",
				s->uniqueness);
	}
	return 0;
}

/*
 * Census rows plus paths long enough to forget where they started: 64 rows left a few pixels
 * different on Tsukuba and Teddy, 96 on Teddy, 128 none on any pair (tests/unit/
 * test_tiling.c). Empirical, not a bound (docs/tiling.md), and a rank prefilter's few rows
 * are inside it.
 */
static int sgm_overlap(const struct jd_match_params *p, int prefilter_rows)
{
	(void)p;
	(void)prefilter_rows;
	return 128;
}

static int sgm_main_kernel(const struct jd_match_params *p)
{
	(void)p;
	return JD_K_CENSUS;
}

static void sgm_label(const struct jd_match_params *p, char *s, size_t n)
{
	snprintf(s, n, "sgm %s/%d", p->sgm.cost == JD_SGM_COST_AD ? "ad" : "census", p->sgm.paths);
}

#define SGM(field) offsetof(struct jd_match_params, sgm.field)

/* in the order of enum jd_sgm_cost */
static const char *const sgm_costs[] = {"census", "ad", NULL};

static const struct jd_matcher_opt sgm_opts[] = {
    {"cost", JD_MOPT_CHOICE, SGM(cost), 0, sgm_costs, "census|ad",
     "matching cost (census: 9x7 census codes)"},
    {"paths", JD_MOPT_INT, SGM(paths), 0, NULL, "4|8", "aggregation paths"},
    {"p1", JD_MOPT_INT, SGM(p1), 0, NULL, "N", "small-change penalty"},
    {"p2", JD_MOPT_INT, SGM(p2), 0, NULL, "N", "large-change penalty, above --p1"},
    {"p2-adapt", JD_MOPT_INT, SGM(p2_adapt), 0, NULL, "T",
     "P2 halves at an intensity step of T, 0 = constant"},
    {"subpixel", JD_MOPT_ONOFF, SGM(subpixel), 0, NULL, NULL, "equiangular sub-pixel fit"},
    {"lr-check", JD_MOPT_ONOFF, SGM(lr_check), 0, NULL, NULL, "left-right check"},
    {"lr-max-diff", JD_MOPT_INT, SGM(lr_max_diff), 0, NULL, "N",
     "pixels the left-right check allows"},
    {"uniqueness", JD_MOPT_INT, SGM(uniqueness), 0, NULL, "PCT",
     "uniqueness margin in percent, 0 = off"},
    {"fill", JD_MOPT_ONOFF, SGM(fill), 0, NULL, NULL,
     "fill invalid pixels from the farther neighbour"},
    {"median", JD_MOPT_ONOFF, SGM(median), 0, NULL, NULL, "3x3 median"},
};

const struct jd_matcher jd_sgm_matcher = {
    .algo = JD_ALGO_SGM,
    .name = "sgm",
    .title = "SGM",
    .defaults = sgm_defaults,
    .validate = sgm_validate,
    .mem_required = jd_sgm_mem_required,
    .run = jd_sgm_run,
    .overlap = sgm_overlap,
    /* its census is already a rank-like cost */
    .auto_prefilter = JD_PREFILTER_NONE,
    .census_radius = 0,
    .rank_window = 7,
    .main_kernel = sgm_main_kernel,
    .label = sgm_label,
    .opts = sgm_opts,
    .nopts = sizeof(sgm_opts) / sizeof(sgm_opts[0]),
};
