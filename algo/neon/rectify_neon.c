/*
 * NEON twin of rectify.c's remap. NEON has no gather, so the four neighbours are fetched with
 * scalar loads; positions, clamping, weights and the blend are vector integer arithmetic in
 * the reference's formula: bit-identical.
 */
#include "../geometry/rectify.h"
#include "neon_compat.h"

struct remap_job {
	const struct jd_remap *map;
	const struct jd_image *src;
	struct jd_image *dst;
};

static void remap_row(void *ctx, int y, int worker)
{
	const struct remap_job *job = ctx;
	const struct jd_image *s = job->src;
	int w = job->map->width, x = 0;
	const int32_t *sx = job->map->sx + (size_t)y * w;
	const int32_t *sy = job->map->sy + (size_t)y * w;
	uint8_t *out = job->dst->data + (size_t)y * job->dst->stride;
	int32x4_t zero = vdupq_n_s32(0), one = vdupq_n_s32(JD_REMAP_ONE);
	int32x4_t wmax = vdupq_n_s32(s->width - 1), hmax = vdupq_n_s32(s->height - 1);
	int32x4_t fmask = vdupq_n_s32(JD_REMAP_ONE - 1);

	(void)worker;
	for (; x + 4 <= w; x += 4) {
		int32x4_t px = vld1q_s32(sx + x), py = vld1q_s32(sy + x);
		int32x4_t x0 = vshrq_n_s32(px, JD_REMAP_FRAC_BITS);
		int32x4_t y0 = vshrq_n_s32(py, JD_REMAP_FRAC_BITS);
		int32x4_t fx = vandq_s32(px, fmask), fy = vandq_s32(py, fmask);
		uint32x4_t inside = vandq_u32(vandq_u32(vcgeq_s32(x0, zero), vcgeq_s32(y0, zero)),
					      vandq_u32(vcleq_s32(x0, wmax), vcleq_s32(y0, hmax)));
		/* Outside lanes read pixel (0, 0) and are zeroed at the end. */
		int32x4_t cx0 = vbslq_s32(inside, x0, zero), cy0 = vbslq_s32(inside, y0, zero);
		int32x4_t cx1 = vminq_s32(vaddq_s32(cx0, vdupq_n_s32(1)), wmax);
		int32x4_t cy1 = vminq_s32(vaddq_s32(cy0, vdupq_n_s32(1)), hmax);
		int32_t ix0[4], ix1[4], iy0[4], iy1[4];
		uint32_t v00[4], v01[4], v10[4], v11[4];

		vst1q_s32(ix0, cx0);
		vst1q_s32(ix1, cx1);
		vst1q_s32(iy0, cy0);
		vst1q_s32(iy1, cy1);
		for (int j = 0; j < 4; j++) {
			const uint8_t *r0 = jd_image_row(s, iy0[j]), *r1 = jd_image_row(s, iy1[j]);

			v00[j] = r0[ix0[j]];
			v01[j] = r0[ix1[j]];
			v10[j] = r1[ix0[j]];
			v11[j] = r1[ix1[j]];
		}
		uint32x4_t gx = vreinterpretq_u32_s32(vsubq_s32(one, fx));
		uint32x4_t gy = vreinterpretq_u32_s32(vsubq_s32(one, fy));
		uint32x4_t ux = vreinterpretq_u32_s32(fx), uy = vreinterpretq_u32_s32(fy);
		uint32x4_t v = vmulq_u32(vmulq_u32(vld1q_u32(v00), gx), gy);

		v = vmlaq_u32(v, vmulq_u32(vld1q_u32(v01), ux), gy);
		v = vmlaq_u32(v, vmulq_u32(vld1q_u32(v10), gx), uy);
		v = vmlaq_u32(v, vmulq_u32(vld1q_u32(v11), ux), uy);
		v = vshrq_n_u32(vaddq_u32(v, vdupq_n_u32(512)), 10);
		v = vandq_u32(v, inside);
		uint8_t b[4] = {(uint8_t)vgetq_lane_u32(v, 0), (uint8_t)vgetq_lane_u32(v, 1),
				(uint8_t)vgetq_lane_u32(v, 2), (uint8_t)vgetq_lane_u32(v, 3)};
		out[x] = b[0];
		out[x + 1] = b[1];
		out[x + 2] = b[2];
		out[x + 3] = b[3];
	}
	if (x < w) {
		/* The last w % 4 pixels through the reference on a one-row window of the map. */
		struct jd_remap tail = {w - x, 1, (int32_t *)sx + x, (int32_t *)sy + x};
		struct jd_image dst = {out + x, w - x, 1, job->dst->stride};

		jd_remap_ref(&tail, s, &dst, NULL);
	}
}

void jd_remap_neon(const struct jd_remap *map, const struct jd_image *src, struct jd_image *dst,
		   const struct jd_exec *ex)
{
	struct remap_job job = {map, src, dst};

	jd_exec_run(ex, map->height, remap_row, &job);
}
