/*
 * The preview's picture, one rule for the CPU (app/preview.c) and the GPU
 * (algo/cuda/preview_cuda.cu, the same bytes): the rectified left view, tinted red where the
 * depth is not trusted, beside the disparity colour-mapped from blue (far) to red (near),
 * black where there is none or it is not trusted. The objects' boxes are drawn on top by the
 * caller.
 */
#ifndef JD_ALGO_PREVIEW_COMPOSE_H
#define JD_ALGO_PREVIEW_COMPOSE_H

#include <stdint.h>

#include "jd_image.h"

/** One disparity's colour: d over 0 .. dmax, blue to red; invalid (or dmax <= 0) black. */
void jd_preview_colour(float d, float dmax, uint8_t out[3]);

/**
 * Compose left and disp (both w x h) into rgb: 2w x h RGB, 6w bytes a row. conf (w bytes a
 * row, or NULL): below min_conf a pixel is distrusted (red tint, black disparity, as
 * jd_confidence_mask() leaves it).
 */
void jd_preview_compose_ref(const struct jd_image *left, const struct jd_disp *disp,
			    const uint8_t *conf, int min_conf, float dmax, uint8_t *rgb);

#endif
