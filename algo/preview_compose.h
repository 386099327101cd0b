/*
 * The preview's picture, one rule for the CPU (app/net/preview.c) and the GPU
 * (algo/cuda/preview_cuda.cu, the same bytes): the rectified left view, tinted red where the
 * depth is not trusted, beside the disparity colour-mapped from blue (far) to red (near),
 * black where there is none or it is not trusted. The objects' boxes are drawn on top by the
 * caller. Downscaled by a whole step (every step-th pixel of every step-th row) so that a
 * view is at most JD_PREVIEW_MAX_WIDTH wide: a browser's glance needs no more, and on a
 * discrete GPU the picture is what crosses the bus.
 */
#ifndef JD_ALGO_PREVIEW_COMPOSE_H
#define JD_ALGO_PREVIEW_COMPOSE_H

#include <stdint.h>

#include "jd_image.h"

/* The widest view the picture shows, pixels. */
#define JD_PREVIEW_MAX_WIDTH 640

/** The step for views w wide: the smallest that makes them at most JD_PREVIEW_MAX_WIDTH. */
static inline int jd_preview_step(int w)
{
	return w > JD_PREVIEW_MAX_WIDTH ? (w + JD_PREVIEW_MAX_WIDTH - 1) / JD_PREVIEW_MAX_WIDTH : 1;
}

/** A side n pixels long in the picture at that step (every pixel counted from 0). */
static inline int jd_preview_scaled(int n, int step)
{
	return (n + step - 1) / step;
}

/** One disparity's colour: d over 0 .. dmax, blue to red; invalid (or dmax <= 0) black. */
void jd_preview_colour(float d, float dmax, uint8_t out[3]);

/**
 * Compose left and disp (both w x h) into rgb at step s: pw = jd_preview_scaled(w, s) and
 * ph = jd_preview_scaled(h, s), 2pw x ph RGB, 6pw bytes a row; the picture's (x, y) shows the
 * pixel (s x, s y). conf (w bytes a row, or NULL): below min_conf a pixel is distrusted (red
 * tint, black disparity, as jd_confidence_mask() leaves it).
 */
void jd_preview_compose_ref(const struct jd_image *left, const struct jd_disp *disp,
			    const uint8_t *conf, int min_conf, float dmax, int step, uint8_t *rgb);

#endif
