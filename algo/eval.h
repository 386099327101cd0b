/* Middlebury-style evaluation of a disparity map against ground truth. */
#ifndef JD_ALGO_EVAL_H
#define JD_ALGO_EVAL_H

#include <stdint.h>

#include "jd_image.h"

#define JD_EVAL_NTHRESH 4

/** The bad-pixel thresholds reported: 0.5, 1, 2 and 4 pixels. */
extern const float jd_eval_thresholds[JD_EVAL_NTHRESH];

struct jd_eval_result {
	long evaluated;                 /* pixels in the mask with known ground truth */
	double bad[JD_EVAL_NTHRESH];    /* percent with |d - gt| > threshold; invalid counts bad */
	double mae;                     /* mean |d - gt| over valid evaluated pixels */
	double invalid;                 /* percent of evaluated pixels without a disparity */
};

/**
 * Evaluate disp against gt (non-finite = unknown) over the pixels where mask is 255
 * (mask NULL: every pixel with known ground truth). All maps share one size.
 */
void jd_eval(const struct jd_disp *disp, const struct jd_disp *gt, const struct jd_image *mask,
	     struct jd_eval_result *res);

#endif
