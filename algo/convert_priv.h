/*
 * The per-pixel rules of convert.h's deep formats, one copy for the reference, NEON's edges and
 * the GPU's luma step (algo/cuda/convert_cuda.cu compiles these same lines for the device);
 * hal/camera/capture.c takes the rows' mirror from here too.
 */
#ifndef JD_ALGO_CONVERT_PRIV_H
#define JD_ALGO_CONVERT_PRIV_H

#include <stdint.h>

#include "convert.h"
#include "jd_compiler.h"

/* The top 8 of `bits` bits, saturated (a sample past the depth is corrupt, not larger). */
static inline JD__HD uint8_t jd__top8(unsigned v, int bits)
{
	v >>= bits - 8;
	return (uint8_t)(v > 255 ? 255 : v);
}

/*
 * Index i of n mirrored about the end pixels (-1 reads 1, n reads n - 2): a Bayer mosaic's
 * columns here and its rows in the callers, so every site keeps its colour.
 */
static inline JD__HD int jd__mirror(int i, int n)
{
	return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i;
}

/* Sample x of a Bayer row as 8 bits (deep: its top 8, saturated), mirrored beyond the ends. */
static inline JD__HD unsigned jd__bayer_at(const uint8_t *row, int x, int n, int bits)
{
	x = jd__mirror(x, n);
	return bits == 8 ? row[x] : jd__top8(jd_sample16(row + 2 * x), bits);
}

/* convert.h's RGB rule on one pixel. */
static inline JD__HD uint8_t jd__luma601(unsigned r, unsigned g, unsigned b)
{
	return (uint8_t)((77 * r + 150 * g + 29 * b + 128) >> 8);
}

/* The luma of pixel x (convert.h's Bayer rule): its site, then its missing colours' means. */
static inline JD__HD uint8_t jd__bayer_pixel(const uint8_t *up, const uint8_t *row,
					     const uint8_t *down, int n, int bits, int r_col,
					     int r_row, int x)
{
#define AT(r, dx) jd__bayer_at(r, x + (dx), n, bits)
	unsigned c = AT(row, 0), side = (AT(row, -1) + AT(row, 1) + 1) >> 1;
	unsigned vert = (AT(up, 0) + AT(down, 0) + 1) >> 1;
	unsigned cross = (AT(row, -1) + AT(row, 1) + AT(up, 0) + AT(down, 0) + 2) >> 2;
	unsigned diag = (AT(up, -1) + AT(up, 1) + AT(down, -1) + AT(down, 1) + 2) >> 2;
#undef AT
	int on_r_col = ((x ^ r_col) & 1) == 0;

	if (r_row) {
		return on_r_col ? jd__luma601(c, cross, diag) : jd__luma601(side, c, vert);
	}
	return on_r_col ? jd__luma601(vert, c, side) : jd__luma601(diag, cross, c);
}

#endif
