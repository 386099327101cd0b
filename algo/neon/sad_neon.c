/*
 * NEON twins of the SAD row kernels (sad_kernels.h): column sums sixteen pixels at a time with
 * the widening absolute difference, and the sliding window as a four-lane prefix sum. uint16
 * and uint32 wrap-around arithmetic as in the reference: bit-identical.
 */
#include "../sad/sad_kernels.h"
#include "neon_compat.h"

void jd_sad_accumulate_neon(uint16_t *colsum, const uint8_t *lrow, const uint8_t *rrow, int padw,
			    int ndisp, int min_disp, int dmax, int sign)
{
	for (int d = 0; d < ndisp; d++) {
		uint16_t *cs = colsum + (size_t)d * padw;
		const uint8_t *rr = rrow + dmax - (min_disp + d);
		int i = 0;

		for (; i + 16 <= padw; i += 16) {
			uint8x16_t l = vld1q_u8(lrow + i), r = vld1q_u8(rr + i);
			uint16x8_t lo = vabdl_u8(vget_low_u8(l), vget_low_u8(r));
			uint16x8_t hi = vabdl_u8(vget_high_u8(l), vget_high_u8(r));
			uint16x8_t c0 = vld1q_u16(cs + i), c1 = vld1q_u16(cs + i + 8);

			if (sign > 0) {
				vst1q_u16(cs + i, vaddq_u16(c0, lo));
				vst1q_u16(cs + i + 8, vaddq_u16(c1, hi));
			} else {
				vst1q_u16(cs + i, vsubq_u16(c0, lo));
				vst1q_u16(cs + i + 8, vsubq_u16(c1, hi));
			}
		}
		for (; i < padw; i++) {
			int diff = lrow[i] - rr[i];
			int a = diff < 0 ? -diff : diff;
			cs[i] = (uint16_t)(sign > 0 ? cs[i] + a : cs[i] - a);
		}
	}
}

/* Winner updates for four consecutive x from x0 with sums s (strict <: ties keep smaller d). */
static inline void update4(uint32x4_t s, int32x4_t dv, uint32_t *best, int *bestd)
{
	uint32x4_t b = vld1q_u32(best);
	uint32x4_t lt = vcltq_u32(s, b);

	vst1q_u32(best, vbslq_u32(lt, s, b));
	vst1q_s32(bestd, vbslq_s32(lt, dv, vld1q_s32(bestd)));
}

void jd_sad_wta_neon(const uint16_t *cs, int w, int win, int d, int shift, uint32_t *best,
		     int *bestd, uint32_t *best_r, int *bestd_r)
{
	int32x4_t dv = vdupq_n_s32(d);
	uint32x4_t zero = vdupq_n_u32(0);
	uint32_t sum = 0;
	int x = 1;

	for (int i = 0; i < win; i++) {
		sum += cs[i];
	}
	/* x = 0 as the reference does it; then S(x) = S(x - 1) + cs[x + win - 1] - cs[x - 1]. */
	if (sum < best[0]) {
		best[0] = sum;
		bestd[0] = d;
	}
	if (shift == 0 && sum < best_r[0]) {
		best_r[0] = sum;
		bestd_r[0] = d;
	}
	for (; x + 4 <= w; x += 4) {
		uint32x4_t in = vmovl_u16(vld1_u16(cs + x + win - 1));
		uint32x4_t out = vmovl_u16(vld1_u16(cs + x - 1));
		uint32x4_t t = vsubq_u32(in, out);

		/* Inclusive prefix sum of four lanes, plus the running sum before them. */
		t = vaddq_u32(t, vextq_u32(zero, t, 3));
		t = vaddq_u32(t, vextq_u32(zero, t, 2));
		t = vaddq_u32(t, vdupq_n_u32(sum));
		sum = vgetq_lane_u32(t, 3);
		update4(t, dv, best + x, bestd + x);
		if (x >= shift) {
			update4(t, dv, best_r + x - shift, bestd_r + x - shift);
		} else {
			uint32_t v[4];

			vst1q_u32(v, t);
			for (int j = 0; j < 4; j++) {
				if (x + j >= shift && v[j] < best_r[x + j - shift]) {
					best_r[x + j - shift] = v[j];
					bestd_r[x + j - shift] = d;
				}
			}
		}
	}
	for (; x < w; x++) {
		sum += (uint32_t)cs[x + win - 1] - cs[x - 1];
		if (sum < best[x]) {
			best[x] = sum;
			bestd[x] = d;
		}
		if (x >= shift && sum < best_r[x - shift]) {
			best_r[x - shift] = sum;
			bestd_r[x - shift] = d;
		}
	}
}
