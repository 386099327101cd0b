/* Middlebury-style evaluation of a disparity map against ground truth. */
#ifndef JD_ALGO_EVAL_H
#define JD_ALGO_EVAL_H

#include <stdint.h>

#include "jd_image.h"

#define JD_EVAL_NTHRESH 4

/** The bad-pixel thresholds reported: 0.5, 1, 2 and 4 pixels. */
extern const float jd_eval_thresholds[JD_EVAL_NTHRESH];

struct jd_eval_result {
	long evaluated;		     /* pixels in the mask with known ground truth */
	double bad[JD_EVAL_NTHRESH]; /* percent with |d - gt| > threshold; invalid counts bad */
	double mae;		     /* mean |d - gt| over valid evaluated pixels */
	double invalid;		     /* percent of evaluated pixels without a disparity */
};

/**
 * Evaluate disp against gt (non-finite = unknown) over the pixels where mask is 255
 * (mask NULL: every pixel with known ground truth). All maps share one size.
 */
void jd_eval(const struct jd_disp *disp, const struct jd_disp *gt, const struct jd_image *mask,
	     struct jd_eval_result *res);

/* Evaluated pixels and bad ones (error above the threshold, or invalid) at each confidence level.
 */
struct jd_eval_conf {
	long n[256], bad[256];
};

/** Tally disp's errors above @p thresh px by the confidence conf gives each pixel. */
void jd_eval_confidence(const struct jd_disp *disp, const struct jd_disp *gt,
			const struct jd_image *mask, const struct jd_image *conf, float thresh,
			struct jd_eval_conf *out);

/**
 * Bad rates in percent of the most confident @p share (0..1) of the evaluated pixels and of
 * the rest. Pixels tied at the level where the share ends count pro rata, at that level's
 * rate, so the split does not depend on pixel order.
 */
void jd_eval_conf_split(const struct jd_eval_conf *c, double share, double *top, double *rest);

#endif
