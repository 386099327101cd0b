/* SAD's row of the matcher table: the thesis's block matcher and its filters. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "kernels.h"
#include "matcher_table.h"
#include "sad.h"

static void sad_defaults(struct jd_match_params *p)
{
	p->sad.window = 11; /* the thesis's */
	p->sad.lr_check = 1;
	p->sad.fill = 1;
	p->sad.median = 1;
	/* off: it halves the RMS within 1 px but raises bad1 a little (docs/accuracy.md) */
	p->sad.subpixel = 0;
}

static int sad_validate(const struct jd_match_params *p, int width, int height, char *err,
			size_t errlen)
{
	(void)width;
	(void)height;
	if (p->sad.window < 1 || p->sad.window % 2 == 0 || p->sad.window > JD_SAD_WINDOW_MAX) {
		JD_MATCHER_FAIL("--window %d: must be odd, between 1 and %d", p->sad.window,
				JD_SAD_WINDOW_MAX);
	}
	return 0;
}

/* The prefilter's rows, the window, then the median's row: exact. */
static int sad_overlap(const struct jd_match_params *p, int prefilter_rows)
{
	return prefilter_rows + p->sad.window / 2 + 1;
}

static int sad_main_kernel(const struct jd_match_params *p)
{
	(void)p;
	return JD_K_SAD_ACCUMULATE;
}

static void sad_label(const struct jd_match_params *p, char *s, size_t n)
{
	snprintf(s, n, "sad %dx%d", p->sad.window, p->sad.window);
}

#define SAD(field) offsetof(struct jd_match_params, sad.field)

static const struct jd_matcher_opt sad_opts[] = {
    {"window", JD_MOPT_INT, SAD(window), 0, NULL, "N", "odd window side, 1..31"},
    {"lr-check", JD_MOPT_ONOFF, SAD(lr_check), 0, NULL, NULL, "left-right check"},
    {"fill", JD_MOPT_ONOFF, SAD(fill), 0, NULL, NULL,
     "fill invalid pixels from the farther neighbour"},
    {"median", JD_MOPT_ONOFF, SAD(median), 0, NULL, NULL, "3x3 median"},
    {"subpixel", JD_MOPT_ONOFF, SAD(subpixel), 0, NULL, NULL,
     "equiangular sub-pixel fit through the window sums"},
};

const struct jd_matcher jd_sad_matcher = {
    .algo = JD_ALGO_SAD,
    .name = "sad",
    .title = "SAD",
    .defaults = sad_defaults,
    .validate = sad_validate,
    .mem_required = jd_sad_mem_required,
    .run = jd_sad_run,
    .overlap = sad_overlap,
    /* measured on the dev pairs (docs/accuracy.md): SAD's sums like the wider window */
    .auto_prefilter = JD_PREFILTER_RANK,
    .census_radius = 0,
    .rank_window = 9,
    .main_kernel = sad_main_kernel,
    .label = sad_label,
    .opts = sad_opts,
    .nopts = sizeof(sad_opts) / sizeof(sad_opts[0]),
};
