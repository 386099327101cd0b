/*
 * BP messages in ARMv8.2 FP16 arithmetic for fp16 storage: eight columns per vector, no
 * conversions on the way in, twice the lanes of the float kernel. Built with +fp16 and
 * reached only through the kernel table when the CPU reports FP16 (HWCAP_ASIMDHP), so a CPU
 * without it never executes an FP16 instruction (tested under qemu -cpu cortex-a72).
 * Not bit-exact: sums round to 11 bits where the reference rounds to 24 (its 1/16 grid is
 * exact in fp16 below 128 only, and a coarse level's costs reach past that). The bound on
 * differing disparities and on accuracy is documented in docs/neon.md and asserted by
 * tests/neon/test_neon_bp_fp16.c.
 */
#include <arm_neon.h>

#include "../bp/bp_priv.h"

#define V 8

static inline float16x8_t ld(const uint16_t *p)
{
	return vreinterpretq_f16_u16(vld1q_u16(p));
}

/* h of the four messages at one disparity, in the reference's order of additions. */
static inline void sums8(const uint16_t *const src[5], size_t o, float16x8_t *u, float16x8_t *dn,
			 float16x8_t *l, float16x8_t *r)
{
	float16x8_t D = ld(src[0] + o), U = ld(src[1] + o), N = ld(src[2] + o);
	float16x8_t L = ld(src[3] + o), R = ld(src[4] + o);
	float16x8_t du = vaddq_f16(D, U), dud = vaddq_f16(du, N);

	*u = vaddq_f16(vaddq_f16(vaddq_f16(D, N), L), R);
	*dn = vaddq_f16(vaddq_f16(du, L), R);
	*l = vaddq_f16(dud, R);
	*r = vaddq_f16(dud, L);
}

static void send8(const struct jd_bp_chunk *c, int j0, float16_t *h)
{
	int nd = c->nd;
	size_t hp = c->hp, off = c->off + j0;
	float16x8_t one = vdupq_n_f16(1.0f);
	float16x8_t pu, pd, pl, pr, mu, md, ml, mr;
	float16x8_t lo[JD_BP_NDIR];
	const uint16_t *src[5];

	for (int k = 0; k < 5; k++) {
		src[k] = (const uint16_t *)c->src[k] + off;
	}
	sums8(src, 0, &pu, &pd, &pl, &pr);
	mu = pu;
	md = pd;
	ml = pl;
	mr = pr;
	for (int d = 0; d < nd; d++) {
		if (d > 0) {
			float16x8_t u, dn, l, r;

			sums8(src, (size_t)d * hp, &u, &dn, &l, &r);
			pu = vminq_f16(u, vaddq_f16(pu, one));
			pd = vminq_f16(dn, vaddq_f16(pd, one));
			pl = vminq_f16(l, vaddq_f16(pl, one));
			pr = vminq_f16(r, vaddq_f16(pr, one));
			mu = vminq_f16(mu, pu);
			md = vminq_f16(md, pd);
			ml = vminq_f16(ml, pl);
			mr = vminq_f16(mr, pr);
		}
		vst1q_f16(h + ((size_t)0 * nd + d) * V, pu);
		vst1q_f16(h + ((size_t)1 * nd + d) * V, pd);
		vst1q_f16(h + ((size_t)2 * nd + d) * V, pl);
		vst1q_f16(h + ((size_t)3 * nd + d) * V, pr);
	}
	lo[0] = mu;
	lo[1] = md;
	lo[2] = ml;
	lo[3] = mr;
	for (int k = 0; k < JD_BP_NDIR; k++) {
		float16_t *hk = h + (size_t)k * nd * V;
		float16x8_t cap = vaddq_f16(lo[k], vdupq_n_f16((float16_t)c->disc_k));
		float16x8_t next;
		uint16_t *dst;

		if (!c->dst[k]) {
			continue;
		}
		next = vminq_f16(vld1q_f16(hk + (size_t)(nd - 1) * V), cap);
		vst1q_f16(hk + (size_t)(nd - 1) * V, next);
		for (int d = nd - 2; d >= 0; d--) {
			float16x8_t v = vld1q_f16(hk + (size_t)d * V);

			next = vminq_f16(vminq_f16(v, vaddq_f16(next, one)), cap);
			vst1q_f16(hk + (size_t)d * V, next);
		}
		dst = (uint16_t *)c->dst[k] + c->doff[k] + j0;
		for (int d = 0; d < nd; d++) {
			float16x8_t v = vsubq_f16(vld1q_f16(hk + (size_t)d * V), lo[k]);
			vst1q_u16(dst + (size_t)d * hp, vreinterpretq_u16_f16(v));
		}
	}
}

void jd_bp_send_neon_fp16(const struct jd_bp_chunk *c, const struct jd_bp_scratch *sc)
{
	int j0 = 0;

	jd_bp_prefetch_targets(c);
	for (; j0 + V <= c->len; j0 += V) {
		send8(c, j0, (float16_t *)sc->h);
	}
	/* The remainder (fewer than eight columns) through the float NEON kernel. */
	jd_bp_send_tail(c, sc, j0, jd_bp_send_neon);
}
