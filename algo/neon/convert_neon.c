/* NEON twins of convert.c: de-interleaving loads, sixteen pixels per step; bit-identical. */
#include "../convert.h"
#include "../convert_priv.h"
#include "neon_compat.h"

void jd_gray_from_rgb_neon(const uint8_t *rgb, int n, uint8_t *out)
{
	int i = 0;

	for (; i + 16 <= n; i += 16) {
		uint8x16x3_t p = vld3q_u8(rgb + 3 * i);
		uint16x8_t lo = vmull_u8(vget_low_u8(p.val[0]), vdup_n_u8(77));
		uint16x8_t hi = vmull_u8(vget_high_u8(p.val[0]), vdup_n_u8(77));

		lo = vmlal_u8(lo, vget_low_u8(p.val[1]), vdup_n_u8(150));
		hi = vmlal_u8(hi, vget_high_u8(p.val[1]), vdup_n_u8(150));
		lo = vmlal_u8(lo, vget_low_u8(p.val[2]), vdup_n_u8(29));
		hi = vmlal_u8(hi, vget_high_u8(p.val[2]), vdup_n_u8(29));
		/* (sum + 128) >> 8 exactly: the sum is at most 255 * 256, so no overflow. */
		vst1q_u8(out + i, vcombine_u8(vrshrn_n_u16(lo, 8), vrshrn_n_u16(hi, 8)));
	}
	jd_gray_from_rgb_ref(rgb + 3 * i, n - i, out + i);
}

void jd_gray_from_yuyv_neon(const uint8_t *yuyv, int n, uint8_t *out)
{
	int i = 0;

	for (; i + 16 <= n; i += 16) {
		vst1q_u8(out + i, vld2q_u8(yuyv + 2 * i).val[0]);
	}
	jd_gray_from_yuyv_ref(yuyv + 2 * i, n - i, out + i);
}

void jd_gray_from_uyvy_neon(const uint8_t *uyvy, int n, uint8_t *out)
{
	int i = 0;

	for (; i + 16 <= n; i += 16) {
		vst1q_u8(out + i, vld2q_u8(uyvy + 2 * i).val[1]);
	}
	jd_gray_from_uyvy_ref(uyvy + 2 * i, n - i, out + i);
}

/* Eight 16-bit little-endian samples at p (any alignment). */
static inline uint16x8_t load16(const uint8_t *p)
{
	return vreinterpretq_u16_u8(vld1q_u8(p));
}

void jd_gray_from_mono16_neon(const uint8_t *row, int n, int bits, uint8_t *out)
{
	const int16x8_t down = vdupq_n_s16((int16_t)(8 - bits));
	int i = 0;

	for (; i + 16 <= n; i += 16) {
		/* the shift, then a saturating narrow: past-depth samples give 255, as the ref */
		uint8x8_t lo = vqmovn_u16(vshlq_u16(load16(row + 2 * i), down));
		uint8x8_t hi = vqmovn_u16(vshlq_u16(load16(row + 2 * i + 16), down));
		vst1q_u8(out + i, vcombine_u8(lo, hi));
	}
	jd_gray_from_mono16_ref(row + 2 * i, n - i, bits, out + i);
}

/* Sixteen samples of a Bayer row from x as 8 bits (deep: the top 8, saturated, as the ref). */
static inline uint8x16_t bayer16(const uint8_t *row, int x, int bits)
{
	if (bits == 8) {
		return vld1q_u8(row + x);
	}
	const int16x8_t down = vdupq_n_s16((int16_t)(8 - bits));
	return vcombine_u8(vqmovn_u16(vshlq_u16(load16(row + 2 * x), down)),
			   vqmovn_u16(vshlq_u16(load16(row + 2 * x + 16), down)));
}

/* The rounded mean of four: (a + b + c + d + 2) >> 2, as the ref. */
static inline uint8x16_t mean4(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d)
{
	uint16x8_t lo = vaddq_u16(vaddl_u8(vget_low_u8(a), vget_low_u8(b)),
				  vaddl_u8(vget_low_u8(c), vget_low_u8(d)));
	uint16x8_t hi = vaddq_u16(vaddl_u8(vget_high_u8(a), vget_high_u8(b)),
				  vaddl_u8(vget_high_u8(c), vget_high_u8(d)));
	return vcombine_u8(vrshrn_n_u16(lo, 2), vrshrn_n_u16(hi, 2));
}

/* convert.h's RGB rule on sixteen pixels. */
static inline uint8x16_t luma601(uint8x16_t r, uint8x16_t g, uint8x16_t b)
{
	uint16x8_t lo = vmull_u8(vget_low_u8(r), vdup_n_u8(77));
	uint16x8_t hi = vmull_u8(vget_high_u8(r), vdup_n_u8(77));

	lo = vmlal_u8(lo, vget_low_u8(g), vdup_n_u8(150));
	hi = vmlal_u8(hi, vget_high_u8(g), vdup_n_u8(150));
	lo = vmlal_u8(lo, vget_low_u8(b), vdup_n_u8(29));
	hi = vmlal_u8(hi, vget_high_u8(b), vdup_n_u8(29));
	return vcombine_u8(vrshrn_n_u16(lo, 8), vrshrn_n_u16(hi, 8));
}

void jd_gray_from_bayer_neon(const uint8_t *up, const uint8_t *row, const uint8_t *down, int n,
			     int bits, int r_col, int r_row, uint8_t *out)
{
	static const uint8_t alt[17] = {0xff, 0,    0xff, 0,	0xff, 0,    0xff, 0,   0xff,
					0,    0xff, 0,	  0xff, 0,    0xff, 0,	  0xff};
	int i = 1;

	/* Pixel 0 mirrors; from pixel 1 on, steps of 16 keep each lane's column parity. */
	if (n > 0) {
		out[0] = jd__bayer_pixel(up, row, down, n, bits, r_col, r_row, 0);
	}
	/* lanes on an R column: pixel 1 + k is when (1 + k) ^ r_col is even */
	const uint8x16_t on = vld1q_u8(alt + ((1 ^ r_col) & 1));
	for (; i + 17 <= n; i += 16) {
		uint8x16_t c = bayer16(row, i, bits), l = bayer16(row, i - 1, bits);
		uint8x16_t r = bayer16(row, i + 1, bits), u = bayer16(up, i, bits);
		uint8x16_t d = bayer16(down, i, bits);
		uint8x16_t side = vrhaddq_u8(l, r), vert = vrhaddq_u8(u, d);
		uint8x16_t cross = mean4(l, r, u, d);
		uint8x16_t diag = mean4(bayer16(up, i - 1, bits), bayer16(up, i + 1, bits),
					bayer16(down, i - 1, bits), bayer16(down, i + 1, bits));
		uint8x16_t red, green, blue;
		if (r_row) {
			red = vbslq_u8(on, c, side);
			green = vbslq_u8(on, cross, c);
			blue = vbslq_u8(on, diag, vert);
		} else {
			red = vbslq_u8(on, vert, diag);
			green = vbslq_u8(on, c, cross);
			blue = vbslq_u8(on, side, c);
		}
		vst1q_u8(out + i, luma601(red, green, blue));
	}
	for (; i < n; i++) {
		out[i] = jd__bayer_pixel(up, row, down, n, bits, r_col, r_row, i);
	}
}
