/*
 * NEON twin of sgm_aggregate.c. The reference steps each path over the whole disparity vector
 * in turn; here all paths of a pixel advance together, eight disparities at a time, so the
 * cost and the running sum are loaded and stored once per pixel instead of once per path.
 * Integer arithmetic in the same order: bit-identical to jd_sgm_aggregate_ref().
 */
#include "../sgm_priv.h"
#include "neon_compat.h"

#define MAXP 4 /* horizontal, vertical, diagonal, anti-diagonal */

/* One path at one pixel: upstream vector (d = 0; sentinels at [-1], [nd]) and its minimum. */
struct path {
	const int16_t *prev;
	int16_t *cur;
	int16_t prev_min, p2;
};

/*
 * The last nd % 8 disparities of one path, as the reference computes them (a whole vector
 * would overwrite the sentinel). Kept out of line: inlined, its set-up ran on every pixel.
 */
__attribute__((noinline)) static int16_t tail(const struct path *q, const uint8_t *cost,
					      uint16_t *sum, int d0, int nd, int16_t p1,
					      int16_t best)
{
	const int16_t *prev = q->prev;
	int16_t lm = (int16_t)(q->prev_min + q->p2);

	for (int e = d0; e < nd; e++) {
		int16_t near =
		    (int16_t)((prev[e - 1] < prev[e + 1] ? prev[e - 1] : prev[e + 1]) + p1);
		int16_t v = prev[e] < near ? prev[e] : near;
		int16_t l;

		v = v < lm ? v : lm;
		l = (int16_t)(cost[e] + v - q->prev_min);
		q->cur[e] = l;
		sum[e] = (uint16_t)(sum[e] + l);
		best = l < best ? l : best;
	}
	return best;
}

/*
 * Every path of a pixel (n = 2 or 4, a constant after inlining, so the path loop unrolls and
 * its state stays in registers). Returns each path's new minimum over d in mins[].
 */
static inline __attribute__((always_inline)) void pixel_step(const struct path *q, int n,
							     const uint8_t *cost, uint16_t *sum,
							     int nd, int16_t p1, int16_t *mins)
{
	int16x8_t vp1 = vdupq_n_s16(p1);
	int16x8_t lim[MAXP], pmin[MAXP], best[MAXP];
	int d = 0;

	for (int k = 0; k < n; k++) {
		lim[k] = vdupq_n_s16((int16_t)(q[k].prev_min + q[k].p2));
		pmin[k] = vdupq_n_s16(q[k].prev_min);
		best[k] = vdupq_n_s16(JD__SGM_SENTINEL);
	}
	for (; d + 8 <= nd; d += 8) {
		int16x8_t c = vreinterpretq_s16_u16(vmovl_u8(vld1_u8(cost + d)));
		uint16x8_t s = vld1q_u16(sum + d);

		for (int k = 0; k < n; k++) {
			const int16_t *pv = q[k].prev + d;
			int16x8_t near =
			    vaddq_s16(vminq_s16(vld1q_s16(pv - 1), vld1q_s16(pv + 1)), vp1);
			int16x8_t v = vminq_s16(vminq_s16(vld1q_s16(pv), near), lim[k]);
			int16x8_t l = vsubq_s16(vaddq_s16(c, v), pmin[k]);

			vst1q_s16(q[k].cur + d, l);
			s = vaddq_u16(s, vreinterpretq_u16_s16(l));
			best[k] = vminq_s16(best[k], l);
		}
		vst1q_u16(sum + d, s);
	}
	for (int k = 0; k < n; k++) {
		int16_t b = vminvq_s16(best[k]);

		mins[k] = d < nd ? tail(&q[k], cost, sum, d, nd, p1, b) : b;
	}
}

/* P2 for every |dI| (jd__sgm_adapt_p2 once per value instead of a division per pixel). */
static void p2_table(const struct jd_match_params *p, int16_t *tab)
{
	for (int i = 0; i < 256; i++) {
		tab[i] = jd__sgm_adapt_p2(p->sgm.p1, p->sgm.p2, p->sgm.p2_adapt, i, 0);
	}
}

static inline int16_t p2_of(const int16_t *tab, int a, int b)
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
	int16_t p1 = (int16_t)p->sgm.p1;
	int16_t p2tab[256];
	int cur = 0;
	static const int kind[MAXP] = {-1, JD__ROW_VERT, JD__ROW_DIAG, JD__ROW_ANTI};

	p2_table(p, p2tab);
	jd__sgm_sweep_init(b, w, nd);
	memset(job->sum[which], 0, sizeof(uint16_t) * (size_t)w * h * nd);
	for (int yi = 0; yi < h; yi++) {
		int y = dir > 0 ? yi : h - 1 - yi;
		int prv = cur ^ 1;
		int16_t mins[MAXP] = {0};
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
			int16_t gp[MAXP] = {irow[xb], prow[x], prow[xb], prow[xf]};
			struct path q[MAXP];

			q[0].prev = b->horiz[hc ^ 1] + 1;
			q[0].cur = b->horiz[hc] + 1;
			q[0].prev_min = mins[0];
			for (int k = 0; k < n; k++) {
				q[k].p2 = p2_of(p2tab, i0, gp[k]);
				if (k > 0) {
					q[k].prev = b->lr[kind[k]][prv] + (size_t)slot[k] * vs + 1;
					q[k].prev_min = b->mins[kind[k]][prv][slot[k]];
					q[k].cur = b->lr[kind[k]][cur] + (size_t)sx * vs + 1;
				}
			}
			pixel_step(q, n, job->cost + pix * nd, job->sum[which] + pix * nd, nd, p1,
				   mins);
			hc ^= 1;
			for (int k = 1; k < n; k++) {
				b->mins[kind[k]][cur][sx] = mins[k];
			}
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
