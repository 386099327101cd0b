/* NEON twins of convert.c: de-interleaving loads, sixteen pixels per step; bit-identical. */
#include "../convert.h"
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
