/*
 * Rectification as a lookup table built once at boot (from the calibration) and applied per
 * frame with bilinear interpolation. The table holds source positions in fixed point, so
 * applying it is integer arithmetic and every backend gives the same bytes.
 */
#ifndef JD_ALGO_RECTIFY_H
#define JD_ALGO_RECTIFY_H

#include <stddef.h>
#include <stdint.h>

#include "jd_exec.h"
#include "jd_image.h"

/* Source positions in 1/32 px: finer steps move a bilinear result by less than 1/64 grey. */
#define JD_REMAP_FRAC_BITS 5
#define JD_REMAP_ONE (1 << JD_REMAP_FRAC_BITS)

struct jd_remap {
	int width, height; /* output size */
	int32_t *sx, *sy;  /* [height * width] source x and y in 1/32 px */
};

/**
 * Fill a table from float source positions (mx, my: width*height each, in pixels; NaN or
 * far outside means no source), rounding to the nearest 1/32 px. map->sx/sy must be set.
 */
void jd_remap_from_float(struct jd_remap *map, const float *mx, const float *my);

/**
 * dst(x, y) = bilinear sample of src at (sx, sy): with x0 = sx >> 5, fx = sx & 31 (same for
 * y) and the right/lower neighbour clamped to the image, (v00 (32-fx)(32-fy) + v01 fx (32-fy)
 * + v10 (32-fx) fy + v11 fx fy + 512) >> 10. A position with x0 or y0 outside the source
 * gives 0 (outside the valid region). dst must be map->width x map->height.
 */
void jd_remap_ref(const struct jd_remap *map, const struct jd_image *src, struct jd_image *dst,
		  const struct jd_exec *ex);
void jd_remap_neon(const struct jd_remap *map, const struct jd_image *src, struct jd_image *dst,
		   const struct jd_exec *ex);

#endif
