/* Camera pixels to 8-bit luma, the first stage of every frame. Integer: backends bit-exact. */
#ifndef JD_ALGO_CONVERT_H
#define JD_ALGO_CONVERT_H

#include <stdint.h>

/*
 * BT.601 luma in 8-bit fixed point, Y = (77 R + 150 G + 29 B + 128) >> 8 (the weights
 * 0.299/0.587/0.114 scaled by 256 and rounded so they sum to 256: white stays 255).
 * rgb: n packed RGB triples; out: n bytes.
 */
void jd_gray_from_rgb_ref(const uint8_t *rgb, int n, uint8_t *out);
void jd_gray_from_rgb_neon(const uint8_t *rgb, int n, uint8_t *out);

/*
 * The one rule for image files (PGM/PPM and PNG, whatever the depth): each sample scaled to
 * 8 bits as round(v * 255 / maxval) (no gamma), then gray as is and RGB by the rule above.
 * row: n pixels of channels (1 or 3) samples, each one byte or, with wide, two (big-endian,
 * as both formats store them); samples above maxval count as maxval. out: n bytes.
 */
void jd_gray_from_samples(const uint8_t *row, int n, int channels, int wide, unsigned maxval,
			  uint8_t *out);

/* YUYV 4:2:2 (Y0 U Y1 V): the luma bytes. n pixels (even), out: n bytes. */
void jd_gray_from_yuyv_ref(const uint8_t *yuyv, int n, uint8_t *out);
void jd_gray_from_yuyv_neon(const uint8_t *yuyv, int n, uint8_t *out);

/*
 * UYVY 4:2:2 (U Y0 V Y1): the luma bytes, its own entry (the YUYV walk one byte on would
 * make a 32-byte load read one byte past the row). n pixels (even), out: n bytes.
 */
void jd_gray_from_uyvy_ref(const uint8_t *uyvy, int n, uint8_t *out);
void jd_gray_from_uyvy_neon(const uint8_t *uyvy, int n, uint8_t *out);

#endif
