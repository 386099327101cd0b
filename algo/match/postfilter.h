/* Filters applied to a finished disparity map. */
#ifndef JD_ALGO_POSTFILTER_H
#define JD_ALGO_POSTFILTER_H

#include "jd_exec.h"
#include "jd_image.h"

/**
 * 3x3 median over the valid values around each valid pixel (invalid pixels stay invalid;
 * with an even count the lower middle value is taken). in and out must not overlap.
 */
void jd_median3x3_ref(const struct jd_disp *in, struct jd_disp *out, const struct jd_exec *ex);

/**
 * Fill invalid pixels along each row with the smaller (farther) of the nearest valid
 * disparities to the left and right, as Hirschmueller does for occlusions; rows with no valid
 * pixel stay invalid. In place.
 */
void jd_fill_invalid_ref(struct jd_disp *d, const struct jd_exec *ex);

#endif
