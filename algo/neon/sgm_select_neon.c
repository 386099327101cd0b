/*
 * NEON twin of sgm_select.c: the sum of the two sweeps, the winner, the uniqueness test and
 * the right view's winners eight disparities at a time. Same integer decisions (first index
 * on ties, strict comparisons) and the same sub-pixel division: bit-identical output.
 */
#include "../sgm/sgm_priv.h"
#include "neon_compat.h"

/* min of s[lo..hi), UINT16_MAX when empty. */
static uint16_t min_range(const uint16_t *s, int lo, int hi)
{
	uint16x8_t m = vdupq_n_u16(UINT16_MAX);
	uint16_t r;
	int d = lo;

	for (; d + 8 <= hi; d += 8) {
		m = vminq_u16(m, vld1q_u16(s + d));
	}
	r = vminvq_u16(m);
	for (; d < hi; d++) {
		r = s[d] < r ? s[d] : r;
	}
	return r;
}

/* First d with s[d] == v (v is the minimum, so it exists). */
static int first_equal(const uint16_t *s, int nd, uint16_t v)
{
	uint16x8_t vv = vdupq_n_u16(v);
	int d = 0;

	for (; d + 8 <= nd; d += 8) {
		if (vmaxvq_u16(vceqq_u16(vld1q_u16(s + d), vv))) {
			break;
		}
	}
	while (s[d] != v) {
		d++;
	}
	return d;
}

/* OpenCV's rule, as in sgm_select.c: the best outside best +- 1 must stay out of the margin. */
static int is_unique(const uint16_t *s, int nd, int best, int uniq)
{
	int lo_end = best - 1 > 0 ? best - 1 : 0, hi_start = best + 2;
	long lim = (long)s[best] * 100;
	uint16_t a = min_range(s, 0, lo_end), b = min_range(s, hi_start < nd ? hi_start : nd, nd);
	uint16_t m = a < b ? a : b;

	if (lo_end == 0 && hi_start >= nd) {
		return 1; /* nothing outside the band */
	}
	return !((long)m * (100 - uniq) < lim);
}

/* min_r[xr] / disp_r[xr] for xr = xr0 - d, d in [d0, d1): the right view's running winners. */
static void update_right(const uint16_t *s, int xr0, int d0, int d1, uint16_t *min_r, int *disp_r)
{
	int d = d0;

	for (; d + 8 <= d1; d += 8) {
		int base = xr0 - d - 7; /* memory slot j holds x_r = base + j, i.e. d + 7 - j */
		uint16x8_t sv = vld1q_u16(s + d);
		uint16x8_t sm = vextq_u16(vrev64q_u16(sv), vrev64q_u16(sv), 4);
		uint16x8_t m = vld1q_u16(min_r + base);
		uint16x8_t lt = vcltq_u16(sm, m);
		int32x4_t dv_lo = {d + 7, d + 6, d + 5, d + 4}, dv_hi = {d + 3, d + 2, d + 1, d};
		int32x4_t mlo = vmovl_s16(vget_low_s16(vreinterpretq_s16_u16(lt)));
		int32x4_t mhi = vmovl_s16(vget_high_s16(vreinterpretq_s16_u16(lt)));

		vst1q_u16(min_r + base, vbslq_u16(lt, sm, m));
		vst1q_s32(disp_r + base,
			  vbslq_s32(vreinterpretq_u32_s32(mlo), dv_lo, vld1q_s32(disp_r + base)));
		vst1q_s32(disp_r + base + 4, vbslq_s32(vreinterpretq_u32_s32(mhi), dv_hi,
						       vld1q_s32(disp_r + base + 4)));
	}
	for (; d < d1; d++) {
		int xr = xr0 - d;

		if (s[d] < min_r[xr]) {
			min_r[xr] = s[d];
			disp_r[xr] = d;
		}
	}
}

/* The per-pixel part of the selection (jd__sgm_select_pixels_fn), eight disparities a step. */
static void select_pixels(const struct jd_match_params *p, uint16_t *srow, const uint16_t *brow,
			  int w, const struct jd__sgm_select_scratch *sc, float *out)
{
	const struct jd_sgm_params *g = &p->sgm;
	int nd = p->ndisp;
	size_t n = (size_t)w * nd, i = 0;

	for (; i + 8 <= n; i += 8) {
		vst1q_u16(srow + i, vaddq_u16(vld1q_u16(srow + i), vld1q_u16(brow + i)));
	}
	for (; i < n; i++) {
		srow[i] = (uint16_t)(srow[i] + brow[i]);
	}
	for (int x = 0; x < w; x++) {
		const uint16_t *s = srow + (size_t)x * nd;
		int xr0 = x - p->min_disp;
		int dvalid = xr0 + 1 < nd ? xr0 + 1 : nd; /* d < dvalid keeps x_r >= 0 */
		int best = first_equal(s, nd, min_range(s, 0, nd));

		if (dvalid > 0) {
			update_right(s, xr0, 0, dvalid, sc->min_r, sc->disp_r);
		}
		sc->disp_l[x] = -1;
		if (xr0 - best < 0 || (g->uniqueness && !is_unique(s, nd, best, g->uniqueness))) {
			out[x] = JD_DISP_INVALID;
			continue;
		}
		sc->disp_l[x] = best;
		out[x] = (float)(p->min_disp + best) +
			 (g->subpixel ? jd__sgm_subpixel(s, nd, best) : 0.0f);
	}
}

void jd_sgm_select_neon(const struct jd_match_params *p, uint16_t *s_fwd, const uint16_t *s_bwd,
			struct jd_disp *out, void *scratch, const struct jd_exec *ex)
{
	jd__sgm_select_with(select_pixels, p, s_fwd, s_bwd, out, scratch, ex);
}
