/*
 * NEON twin of the reference BP message kernel (bp_messages.c, jd_bp_send_ref): four
 * columns per vector, the same float operations (forward pass, backward pass with the cap,
 * the minimum subtracted), so float storage is bit-identical.
 * fp16 storage converts with FCVT, which rounds to nearest even like jd_float_to_half().
 * vminq_f32 equals the reference's a < b ? a : b here: no NaN arises, and no -0 either
 * (every input is +0 or non-zero, and x - x is +0 under round-to-nearest).
 */
#include "../bp/bp_priv.h"
#include "neon_compat.h"

#define V 4

static inline float32x4_t load4(const void *base, size_t off, int fp16)
{
	if (fp16) {
		return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16((const uint16_t *)base + off)));
	}
	return vld1q_f32((const float *)base + off);
}

/* h of the four messages at one disparity (element offset o): D + the three other incoming. */
static inline void sums4(const struct jd_bp_chunk *c, size_t o, float32x4_t *u, float32x4_t *dn,
			 float32x4_t *l, float32x4_t *r)
{
	float32x4_t D = load4(c->src[0], o, c->fp16), U = load4(c->src[1], o, c->fp16);
	float32x4_t N = load4(c->src[2], o, c->fp16), L = load4(c->src[3], o, c->fp16);
	float32x4_t R = load4(c->src[4], o, c->fp16);
	float32x4_t du = vaddq_f32(D, U), dud = vaddq_f32(du, N);

	*u = vaddq_f32(vaddq_f32(vaddq_f32(D, N), L), R);
	*dn = vaddq_f32(vaddq_f32(du, L), R);
	*l = vaddq_f32(dud, R);
	*r = vaddq_f32(dud, L);
}

/* Columns j0 .. j0 + 3 of the chunk; h: [4 messages][nd][4] floats of scratch. */
static void send4(const struct jd_bp_chunk *c, int j0, float *h)
{
	int nd = c->nd;
	size_t hp = c->hp, off = c->off + j0;
	float32x4_t one = vdupq_n_f32(1.0f);
	float32x4_t pu, pd, pl, pr, mu, md, ml, mr;
	float32x4_t lo[JD_BP_NDIR];

	sums4(c, off, &pu, &pd, &pl, &pr);
	mu = pu;
	md = pd;
	ml = pl;
	mr = pr;
	for (int d = 0; d < nd; d++) {
		if (d > 0) {
			float32x4_t u, dn, l, r;

			sums4(c, off + (size_t)d * hp, &u, &dn, &l, &r);
			pu = vminq_f32(u, vaddq_f32(pu, one));
			pd = vminq_f32(dn, vaddq_f32(pd, one));
			pl = vminq_f32(l, vaddq_f32(pl, one));
			pr = vminq_f32(r, vaddq_f32(pr, one));
			mu = vminq_f32(mu, pu);
			md = vminq_f32(md, pd);
			ml = vminq_f32(ml, pl);
			mr = vminq_f32(mr, pr);
		}
		vst1q_f32(h + ((size_t)0 * nd + d) * V, pu);
		vst1q_f32(h + ((size_t)1 * nd + d) * V, pd);
		vst1q_f32(h + ((size_t)2 * nd + d) * V, pl);
		vst1q_f32(h + ((size_t)3 * nd + d) * V, pr);
	}
	lo[0] = mu;
	lo[1] = md;
	lo[2] = ml;
	lo[3] = mr;
	for (int k = 0; k < JD_BP_NDIR; k++) {
		float *hk = h + (size_t)k * nd * V;
		float32x4_t cap = vaddq_f32(lo[k], vdupq_n_f32(c->disc_k));
		float32x4_t next;

		if (!c->dst[k]) {
			continue;
		}
		next = vminq_f32(vld1q_f32(hk + (size_t)(nd - 1) * V), cap);
		vst1q_f32(hk + (size_t)(nd - 1) * V, next);
		for (int d = nd - 2; d >= 0; d--) {
			float32x4_t v = vld1q_f32(hk + (size_t)d * V);

			next = vminq_f32(vminq_f32(v, vaddq_f32(next, one)), cap);
			vst1q_f32(hk + (size_t)d * V, next);
		}
		size_t o = c->doff[k] + j0;

		/* Two loops rather than a branch per store: this one runs 4 * nd times a chunk. */
		if (c->fp16) {
			uint16_t *dst = (uint16_t *)c->dst[k] + o;
			for (int d = 0; d < nd; d++, dst += hp) {
				float32x4_t v = vsubq_f32(vld1q_f32(hk + (size_t)d * V), lo[k]);
				vst1_u16(dst, vreinterpret_u16_f16(vcvt_f16_f32(v)));
			}
		} else {
			float *dst = (float *)c->dst[k] + o;
			for (int d = 0; d < nd; d++, dst += hp) {
				vst1q_f32(dst, vsubq_f32(vld1q_f32(hk + (size_t)d * V), lo[k]));
			}
		}
	}
}

/* Columns from j0 to the end (fewer than one vector) through another kernel. */
void jd_bp_send_tail(const struct jd_bp_chunk *c, const struct jd_bp_scratch *sc, int j0,
		     jd_bp_send_fn fn)
{
	struct jd_bp_chunk t = *c;

	if (j0 >= c->len) {
		return;
	}
	t.off += j0;
	t.len -= j0;
	for (int k = 0; k < JD_BP_NDIR; k++) {
		t.doff[k] += j0;
	}
	fn(&t, sc);
}

void jd_bp_send_neon(const struct jd_bp_chunk *c, const struct jd_bp_scratch *sc)
{
	int j0 = 0;

	jd_bp_prefetch_targets(c);
	for (; j0 + V <= c->len; j0 += V) {
		send4(c, j0, sc->h);
	}
	jd_bp_send_tail(c, sc, j0, jd_bp_send_ref);
}
