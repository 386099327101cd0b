/*
 * NEON twin of sgm_aggregate.c. The reference steps each path over the whole disparity vector
 * in turn; here all paths of a pixel advance together, eight disparities at a time, so the
 * cost and the running sum are loaded and stored once per pixel instead of once per path.
 * The same bytes as jd__sgm_path_step(): bit-identical to jd_sgm_aggregate_ref().
 */
#include "../sgm/sgm_priv.h"
#include "neon_compat.h"

#define MAXP 4 /* horizontal, vertical, diagonal, anti-diagonal */

/* One path at one pixel: the kept vector upstream (d = 0; edges at [-1], [nd]), the new one. */
struct path {
	const uint8_t *prev;
	uint8_t *cur;
	uint8_t p2;
};

/*
 * The last nd % 16 disparities of one path's first pass, as jd__sgm_path_step() computes them
 * (a whole vector would read past the edge). Kept out of line: inlined, its set-up ran on
 * every pixel.
 */
__attribute__((noinline)) static int tail(const struct path *q, const uint8_t *cost, int d0, int nd,
					  int p1, int best)
{
	for (int e = d0; e < nd; e++) {
		int t = jd__sgm_path_t(q->prev, e, cost[e], p1, q->p2);

		q->cur[e] = (uint8_t)t;
		best = t < best ? t : best;
	}
	return best;
}

/* jd__sgm_term() of sixteen kept values: their levels' values where coded, else themselves. */
static inline uint8x16_t term16(uint8x16_t v, int coded)
{
	if (!coded) {
		return v;
	}
	uint8x16_t exact = vdupq_n_u8(JD__SGM_CODE_EXACT);
	uint8x16_t c = vminq_u8(v, vminq_u8(vaddq_u8(vshrq_n_u8(v, JD__SGM_CODE_SHIFT), exact),
					    vdupq_n_u8(JD__SGM_CODE_MAX)));
	/* 16 c - 120 for the coarse levels: at most 120, so no byte overflows */
	uint8x16_t coarse =
	    vsubq_u8(vshlq_n_u8(c, JD__SGM_CODE_SHIFT),
		     vdupq_n_u8((JD__SGM_CODE_EXACT << JD__SGM_CODE_SHIFT) - JD__SGM_CODE_EXACT));
	return vbslq_u8(vcgeq_u8(c, exact), coarse, c);
}

/*
 * Every path of a pixel (n = 2 or 4, a constant after inlining, so the path loop unrolls and
 * its state stays in registers): the bytes of jd__sgm_path_step(), sixteen disparities a
 * vector, saturating adds where the reference clamps at 255. A first pass makes t and each
 * path's minimum; the second keeps V' and adds min t + jd__sgm_term(V') into the sum, loaded
 * and stored once for all paths. coded: bit k set where path k adds levels.
 */
static inline __attribute__((always_inline)) void pixel_step(const struct path *q, int n,
							     const uint8_t *cost, uint16_t *sum,
							     int nd, int p1, int coded)
{
	uint8x16_t vp1 = vdupq_n_u8((uint8_t)p1);
	uint8x16_t lim[MAXP], best[MAXP];
	int bs[MAXP];
	int d = 0;

	for (int k = 0; k < n; k++) {
		lim[k] = vdupq_n_u8(q[k].p2);
		best[k] = vdupq_n_u8(255);
	}
	for (; d + 16 <= nd; d += 16) {
		uint8x16_t c = vld1q_u8(cost + d);

		for (int k = 0; k < n; k++) {
			const uint8_t *pv = q[k].prev + d;
			uint8x16_t near =
			    vqaddq_u8(vminq_u8(vld1q_u8(pv - 1), vld1q_u8(pv + 1)), vp1);
			uint8x16_t m = vminq_u8(vminq_u8(vld1q_u8(pv), near), lim[k]);
			uint8x16_t t = vqaddq_u8(c, m);

			vst1q_u8(q[k].cur + d, t);
			best[k] = vminq_u8(best[k], t);
		}
	}
	for (int k = 0; k < n; k++) {
		int b = vminvq_u8(best[k]);

		bs[k] = d < nd ? tail(&q[k], cost, d, nd, p1, b) : b;
		best[k] = vdupq_n_u8((uint8_t)bs[k]);
	}
	int e = 0;
	for (; e + 16 <= nd; e += 16) {
		uint16x8_t slo = vld1q_u16(sum + e), shi = vld1q_u16(sum + e + 8);

		for (int k = 0; k < n; k++) {
			uint8x16_t v = vsubq_u8(vld1q_u8(q[k].cur + e), best[k]);
			uint8x16_t t = term16(v, (coded >> k & 1));

			vst1q_u8(q[k].cur + e, v);
			slo = vaddq_u16(slo, vaddl_u8(vget_low_u8(t), vget_low_u8(best[k])));
			shi = vaddq_u16(shi, vaddl_u8(vget_high_u8(t), vget_high_u8(best[k])));
		}
		vst1q_u16(sum + e, slo);
		vst1q_u16(sum + e + 8, shi);
	}
	for (; e < nd; e++) {
		for (int k = 0; k < n; k++) {
			q[k].cur[e] = (uint8_t)(q[k].cur[e] - bs[k]);
			sum[e] = (uint16_t)(sum[e] + bs[k] +
					    jd__sgm_term(q[k].cur[e], (coded >> k & 1)));
		}
	}
}

/* P2 for every |dI| (jd__sgm_adapt_p2 once per value instead of a division per pixel). */
static void p2_table(const struct jd_match_params *p, uint8_t *tab)
{
	for (int i = 0; i < 256; i++) {
		tab[i] = (uint8_t)jd__sgm_adapt_p2(p->sgm.p1, p->sgm.p2, p->sgm.p2_adapt, i, 0);
	}
}

static inline uint8_t p2_of(const uint8_t *tab, int a, int b)
{
	return tab[a > b ? a - b : b - a];
}

/* The loop nest of sweep_ref() in sgm_aggregate.c, with pixel_step() for the path steps. */
static inline __attribute__((always_inline)) void sweep_n(const struct jd__sgm_sweep_job *job,
							  int which, int n)
{
	const struct jd_match_params *p = job->p;
	const struct jd__sgm_sweep_buf *b = &job->buf[which];
	int dir = which == 0 ? 1 : -1;
	int w = job->w, h = job->h, nd = p->ndisp, vs = nd + 2;
	int p1 = p->sgm.p1, coded = jd__sgm_coded(p, 0, dir) << 1; /* the vertical path */
	uint8_t p2tab[256];
	int cur = 0;
	static const int kind[MAXP] = {-1, JD__ROW_VERT, JD__ROW_DIAG, JD__ROW_ANTI};

	p2_table(p, p2tab);
	jd__sgm_sweep_init(b, w, nd);
	memset(job->sum[which], 0, sizeof(uint16_t) * (size_t)w * h * nd);
	for (int yi = 0; yi < h; yi++) {
		int y = dir > 0 ? yi : h - 1 - yi;
		int prv = cur ^ 1;
		int hc = 0;
		const uint8_t *irow = jd_image_row(job->img, y);
		const uint8_t *prow =
		    jd_image_row(job->img, y - dir < 0 || y - dir >= h ? y : y - dir);

		jd__sgm_init_vec(b->horiz[0], nd);
		jd__sgm_init_vec(b->horiz[1], nd);
		for (int xi = 0; xi < w; xi++) {
			int x = dir > 0 ? xi : w - 1 - xi;
			size_t pix = (size_t)y * w + x;
			int sx = x + 1;
			int slot[MAXP] = {0, sx, sx - dir, sx + dir};
			int xb = x - dir < 0 || x - dir >= w ? x : x - dir;
			int xf = x + dir < 0 || x + dir >= w ? x : x + dir;
			int i0 = irow[x];
			int gp[MAXP] = {irow[xb], prow[x], prow[xb], prow[xf]};
			struct path q[MAXP];

			q[0].prev = b->horiz[hc ^ 1] + 1;
			q[0].cur = b->horiz[hc] + 1;
			for (int k = 0; k < n; k++) {
				q[k].p2 = p2_of(p2tab, i0, gp[k]);
				if (k > 0) {
					q[k].prev = b->lr[kind[k]][prv] + (size_t)slot[k] * vs + 1;
					q[k].cur = b->lr[kind[k]][cur] + (size_t)sx * vs + 1;
				}
			}
			pixel_step(q, n, job->cost + pix * nd, job->sum[which] + pix * nd, nd, p1,
				   coded);
			hc ^= 1;
		}
		cur = prv;
	}
}

static void sweep_neon(const struct jd__sgm_sweep_job *job, int which)
{
	if (job->p->sgm.paths == 8) {
		sweep_n(job, which, 4);
	} else {
		sweep_n(job, which, 2);
	}
}

void jd_sgm_aggregate_neon(const struct jd_match_params *p, const struct jd_image *guide,
			   const uint8_t *cost, uint16_t *s_fwd, uint16_t *s_bwd, void *sweep_ws,
			   const struct jd_exec *ex)
{
	jd__sgm_aggregate_with(sweep_neon, p, guide, cost, s_fwd, s_bwd, sweep_ws, ex);
}
