/*
 * A disparity map as a 16-bit grey PNG in the KITTI convention (value = disparity * 256,
 * rounded; 0 = no disparity), written through a callback without allocating: the deflate
 * stream uses stored blocks (no compression), so the encoder needs only a fixed buffer and
 * the dumps can run inside the frame loop. Any PNG reader opens it.
 */
#ifndef JD_APP_PNG_U16_H
#define JD_APP_PNG_U16_H

#include <stddef.h>

#include "../../algo/jd_image.h"

/** Writes n bytes; returns 0, or nonzero to stop (the encoder then returns -1). */
typedef int (*jd_png_put_fn)(void *ctx, const void *p, size_t n);

/** Encode disp through put. @retval 0 or -1 (put failed) */
int jd_png_u16_write(const struct jd_disp *disp, jd_png_put_fn put, void *ctx);

/** Encode an 8-bit grey image (a confidence map) the same way. @retval 0 or -1 */
int jd_png_u8_write(const struct jd_image *im, jd_png_put_fn put, void *ctx);

/** The 16-bit value stored for a disparity (0 for none, saturating at 65535). */
unsigned jd_png_u16_value(float d);

#endif
