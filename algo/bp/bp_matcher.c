/* BP's row of the matcher table: the seed's hierarchical belief propagation. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "bp.h"
#include "kernels.h"
#include "matcher_table.h"

static void bp_defaults(struct jd_match_params *p)
{
	/* the seed's (bp-optimizing-gpu-cpu.txt) */
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

static int bp_validate(const struct jd_match_params *p, int width, int height, char *err,
		       size_t errlen)
{
	const struct jd_bp_params *b = &p->bp;

	if (b->levels < 1 || b->levels > JD_BP_LEVELS_MAX) {
		JD_MATCHER_FAIL("--levels %d: must be between 1 and %d", b->levels,
				JD_BP_LEVELS_MAX);
	}
	if ((width >> (b->levels - 1)) < 1 || (height >> (b->levels - 1)) < 1) {
		JD_MATCHER_FAIL("--levels %d: too many for a %dx%d image", b->levels, width,
				height);
	}
	if (b->iters < 1 || b->iters > 100) {
		JD_MATCHER_FAIL("--iters %d: must be between 1 and 100", b->iters);
	}
	if (!(b->lambda > 0.0f && b->lambda <= 10.0f)) {
		JD_MATCHER_FAIL("--lambda %g: must be in (0, 10]", (double)b->lambda);
	}
	if (!(b->data_k > 0.0f && b->data_k <= 255.0f)) {
		JD_MATCHER_FAIL("--data-k %g: must be in (0, 255]", (double)b->data_k);
	}
	/* fp16 holds the coarsest summed cost only while it stays far below 65504. */
	if (b->fp16 && b->lambda * b->data_k * (float)(1 << (2 * (b->levels - 1))) > 30000.0f) {
		JD_MATCHER_FAIL(
		    "--lambda %g with --data-k %g and --levels %d: coarse costs overflow fp16",
		    (double)b->lambda, (double)b->data_k, b->levels);
	}
	if (!(b->disc_k >= 0.0f && b->disc_k <= 1000.0f)) {
		JD_MATCHER_FAIL("--disc-k %g: must be in [0, 1000] (0 = ndisp / 7.5)",
				(double)b->disc_k);
	}
	if (!(b->sigma >= 0.0f && b->sigma <= 10.0f)) {
		JD_MATCHER_FAIL("--sigma %g: must be in [0, 10]", (double)b->sigma);
	}
	return 0;
}

/* The prefilter's rows and the seed's padding. */
static int bp_overlap(const struct jd_match_params *p, int prefilter_rows)
{
	(void)p;
	return prefilter_rows + 20;
}

static int bp_main_kernel(const struct jd_match_params *p)
{
	return p->bp.fp16 ? JD_K_BP_MESSAGES : JD_K_CENSUS;
}

static void bp_label(const struct jd_match_params *p, char *s, size_t n)
{
	snprintf(s, n, "bp %s", p->bp.fp16 ? "fp16" : "float");
}

#define BP(field) offsetof(struct jd_match_params, bp.field)

static const struct jd_matcher_opt bp_opts[] = {
    {"levels", JD_MOPT_INT, BP(levels), 0, NULL, "N", "pyramid levels"},
    {"iters", JD_MOPT_INT, BP(iters), 0, NULL, "N", "iterations a level"},
    {"lambda", JD_MOPT_FLOAT, BP(lambda), 0, NULL, "F", "data cost weight"},
    {"data-k", JD_MOPT_FLOAT, BP(data_k), 0, NULL, "F", "data cost cap"},
    {"disc-k", JD_MOPT_FLOAT, BP(disc_k), 0, NULL, "F", "discontinuity cap, 0 = ndisp / 7.5"},
    {"sigma", JD_MOPT_FLOAT, BP(sigma), 0, NULL, "F", "Gaussian pre-smoothing"},
    {"fp16", JD_MOPT_SET, BP(fp16), 1, NULL, NULL, "messages stored as half"},
    {"float", JD_MOPT_SET, BP(fp16), 0, NULL, NULL, "messages stored as float"},
    {"subpixel", JD_MOPT_ONOFF, BP(subpixel), 0, NULL, NULL,
     "equiangular sub-pixel fit through the beliefs"},
};

const struct jd_matcher jd_bp_matcher = {
    .algo = JD_ALGO_BP,
    .name = "bp",
    .title = "BP",
    .defaults = bp_defaults,
    .validate = bp_validate,
    .mem_required = jd_bp_mem_required,
    .run = jd_bp_run,
    .overlap = bp_overlap,
    /* it compares census codes itself */
    .auto_prefilter = JD_PREFILTER_CENSUS,
    .census_radius = JD_BP_CENSUS_RADIUS,
    .rank_window = 7,
    .main_kernel = bp_main_kernel,
    .label = bp_label,
    .opts = bp_opts,
    .nopts = sizeof(bp_opts) / sizeof(bp_opts[0]),
};
