/*
 * Is this pair what the matcher assumes: rectified, the left camera's view first? Swapped
 * images or a raw pair called rectified give confident nonsense (a table 2.4 m away tilted
 * 38 degrees, 40 objects), so before trusting a pair a few textured patches of the left view
 * are looked for in the right one, at positive and negative disparities and a few rows up
 * and down (zero-mean normalised correlation: a brightness difference does not matter).
 * On a good pair the confident matches lie at disparity >= 0 on the same row; how far off
 * the row they lie, to a fraction of a pixel, is the residual vertical misalignment that a
 * drifting rig grows (the daemon reports it and warns above JD_PAIR_MAX_DY_PX).
 */
#ifndef JD_ALGO_PAIR_CHECK_H
#define JD_ALGO_PAIR_CHECK_H

#include "jd_image.h"

enum jd_pair_verdict {
	JD_PAIR_OK,	     /* matches where a rectified left/right pair has them */
	JD_PAIR_UNSURE,	     /* too few textured, confident patches to tell */
	JD_PAIR_SWAPPED,     /* most matches at negative disparity: right given as left */
	JD_PAIR_UNRECTIFIED, /* most matches rows apart: not rectified (or a bad calibration) */
};

struct jd_pair_check {
	enum jd_pair_verdict verdict;
	int patches;   /* textured patches tried */
	int confident; /* of those, matched clearly */
	int negative;  /* confident, at disparity <= -2 */
	int positive;  /* confident, at disparity >= 2 */
	int off_row;   /* confident, 2 or more rows apart */
	int median_dy; /* rows apart, the median of the confident ones */
	float dy_px;   /* the same to a fraction of a row (parabola through the row scores):
			  a rectified rig's residual vertical misalignment */
};

/* A residual misalignment above this (px) makes matching worse: recalibrate. */
#define JD_PAIR_MAX_DY_PX 0.5f

/** Is a measured misalignment (px; NaN: not measured) one to recalibrate for? */
static inline int jd_pair_recalibrate(float dy_px)
{
	return dy_px > JD_PAIR_MAX_DY_PX || dy_px < -JD_PAIR_MAX_DY_PX;
}

/* rows searched up and down: a raw rig's offset is a few rows; more costs time */
#define JD_PAIR_CHECK_ROWS 8

/**
 * Check l against r (same size) for disparities up to max_disp either way. No allocation;
 * about (2 max_disp + 1) * 17 * 81 * 64 multiply-adds.
 */
void jd_pair_check(const struct jd_image *l, const struct jd_image *r, int max_disp,
		   struct jd_pair_check *out);

/** What is wrong, for the log and the report's "suspect"; NULL for OK and UNSURE. */
const char *jd_pair_verdict_text(enum jd_pair_verdict v);

#endif
