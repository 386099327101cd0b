/* Camera pixels to 8-bit luma, the first stage of every frame. Integer: backends bit-exact. */
#ifndef JD_ALGO_CONVERT_H
#define JD_ALGO_CONVERT_H

#include <stdint.h>

#include "jd_compiler.h"

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

/*
 * Deep mono (Y10, Y12, Y16: a 16-bit little-endian sample a pixel, the depth's bits at the
 * bottom as V4L2 lays them out): the top 8 bits, v >> (bits - 8); a sample past the depth
 * (a corrupt one) gives 255. row: n samples; bits 9 .. 16.
 */
void jd_gray_from_mono16_ref(const uint8_t *row, int n, int bits, uint8_t *out);
void jd_gray_from_mono16_neon(const uint8_t *row, int n, int bits, uint8_t *out);

/*
 * Raw Bayer (RGGB, BGGR, GRBG or GBRG; 8 bits a byte, or 10 and 12 in 16-bit little-endian
 * containers) to luma at full resolution: each sample first to 8 bits as deep mono does (its
 * top 8 bits; a corrupt one past the depth gives 255), then a bilinear demosaic (a site's
 * missing colours are the rounded means of its nearest same-colour neighbours: the two beside
 * or above and below it, or the four around it) and the one RGB rule above. Measured against
 * a 3x3 binomial, the 2x2 cell mean and 2x2 binning on the dev pairs' colour images
 * (docs/cameras.md), this loses least. Beyond the edges the mosaic is mirrored about the edge
 * pixel (x = -1 reads x = 1), which keeps each site's colour.
 * up, row, down: the rows y - 1, y, y + 1 (the caller mirrors them at the top and bottom:
 * jd_bayer_mirror_row());
 * n >= 2 pixels; bits 8, 10 or 12; r_col: the column parity of the R sites, r_row: 1 when this
 * row holds R sites (RGGB: r_col 0, r_row = y even).
 */
void jd_gray_from_bayer_ref(const uint8_t *up, const uint8_t *row, const uint8_t *down, int n,
			    int bits, int r_col, int r_row, uint8_t *out);
void jd_gray_from_bayer_neon(const uint8_t *up, const uint8_t *row, const uint8_t *down, int n,
			     int bits, int r_col, int r_row, uint8_t *out);

/**
 * Row @p i of an @p n-row mosaic mirrored about the end rows (-1 reads 1, n reads n - 2): the
 * rows above and below a Bayer row, as every backend takes them, so each site keeps its colour.
 */
int jd_bayer_mirror_row(int i, int n);

/** A 16-bit little-endian sample, as the deep formats store them. */
static inline JD__HD unsigned jd_sample16(const uint8_t *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

#endif
