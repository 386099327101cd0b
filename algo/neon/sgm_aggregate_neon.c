/*
 * NEON twin of sgm_aggregate.c. The reference steps each path over the whole disparity vector
 * in turn; here all paths of a pixel advance together, eight disparities at a time, so the
 * cost and the running sum are loaded and stored once per pixel instead of once per path.
 * Integer arithmetic in the same order: bit-identical to jd_sgm_aggregate_ref().
 */
#include "../sgm_priv.h"
#include "neon_compat.h"

#define MAXP 4 /* horizontal, vertical, diagonal, anti-diagonal */

struct pixel_paths {
	int n;
	const int16_t *prev[MAXP]; /* d = 0 of the upstream vector; sentinels at [-1], [nd] */
	int16_t prev_min[MAXP];
	int16_t p2[MAXP];
	int16_t *cur[MAXP];
};

/* Every path's L_r at one pixel; returns each path's new min over d in mins[]. */
static void pixel_step(const struct pixel_paths *pp, const uint8_t *cost, uint16_t *sum, int nd,
		       int16_t p1, int16_t *mins)
{
	int16x8_t vp1 = vdupq_n_s16(p1);
	int16x8_t lim[MAXP], pmin[MAXP], best[MAXP];
	int d = 0;

	for (int k = 0; k < pp->n; k++) {
		lim[k] = vdupq_n_s16((int16_t)(pp->prev_min[k] + pp->p2[k]));
		pmin[k] = vdupq_n_s16(pp->prev_min[k]);
		best[k] = vdupq_n_s16(JD__SGM_SENTINEL);
	}
	for (; d + 8 <= nd; d += 8) {
		int16x8_t c = vreinterpretq_s16_u16(vmovl_u8(vld1_u8(cost + d)));
		uint16x8_t s = vld1q_u16(sum + d);

		for (int k = 0; k < pp->n; k++) {
			const int16_t *pv = pp->prev[k] + d;
			int16x8_t near =
			    vaddq_s16(vminq_s16(vld1q_s16(pv - 1), vld1q_s16(pv + 1)), vp1);
			int16x8_t v = vminq_s16(vminq_s16(vld1q_s16(pv), near), lim[k]);
			int16x8_t l = vsubq_s16(vaddq_s16(c, v), pmin[k]);

			vst1q_s16(pp->cur[k] + d, l);
			s = vaddq_u16(s, vreinterpretq_u16_s16(l));
			best[k] = vminq_s16(best[k], l);
		}
		vst1q_u16(sum + d, s);
	}
	for (int k = 0; k < pp->n; k++) {
		int16_t b = vminvq_s16(best[k]);
		const int16_t *prev = pp->prev[k];
		int16_t lm = (int16_t)(pp->prev_min[k] + pp->p2[k]);

		/* The last nd % 8 disparities: writing a whole vector would hit the sentinel. */
		for (int e = d; e < nd; e++) {
			int16_t near =
			    (int16_t)((prev[e - 1] < prev[e + 1] ? prev[e - 1] : prev[e + 1]) + p1);
			int16_t v = prev[e] < near ? prev[e] : near;
			int16_t l;

			v = v < lm ? v : lm;
			l = (int16_t)(cost[e] + v - pp->prev_min[k]);
			pp->cur[k][e] = l;
			sum[e] = (uint16_t)(sum[e] + l);
			b = l < b ? l : b;
		}
		mins[k] = b;
	}
}

/* The loop nest of sweep_ref() in sgm_aggregate.c, with pixel_step() for the four calls. */
static void sweep_neon(const struct jd__sgm_sweep_job *job, int which)
{
	const struct jd_match_params *p = job->p;
	const struct jd__sgm_sweep_buf *b = &job->buf[which];
	int dir = which == 0 ? 1 : -1;
	int w = job->w, h = job->h, nd = p->ndisp, vs = nd + 2;
	int16_t p1 = (int16_t)p->sgm.p1, p2 = (int16_t)p->sgm.p2;
	int t = p->sgm.p2_adapt;
	int cur = 0;
	struct pixel_paths pp;

	pp.n = p->sgm.paths == 8 ? 4 : 2;
	jd__sgm_sweep_init(b, w, nd);
	memset(job->sum[which], 0, sizeof(uint16_t) * (size_t)w * h * nd);
	for (int yi = 0; yi < h; yi++) {
		int y = dir > 0 ? yi : h - 1 - yi;
		int prv = cur ^ 1;
		int16_t mins[MAXP];
		int hc = 0;
		const uint8_t *irow = jd_image_row(job->img, y);
		const uint8_t *prow =
		    jd_image_row(job->img, y - dir < 0 || y - dir >= h ? y : y - dir);

		jd__sgm_init_vec(b->horiz[0], nd);
		jd__sgm_init_vec(b->horiz[1], nd);
		mins[0] = 0;
		for (int xi = 0; xi < w; xi++) {
			int x = dir > 0 ? xi : w - 1 - xi;
			size_t pix = (size_t)y * w + x;
			int sx = x + 1, sback = x + 1 - dir, sfwd = x + 1 + dir;
			int xb = x - dir < 0 || x - dir >= w ? x : x - dir;
			int xf = x + dir < 0 || x + dir >= w ? x : x + dir;
			int i0 = irow[x];
			/* Path k: row-buffer kind (or -1 for along the row) and upstream slot. */
			static const int kind[MAXP] = {-1, JD__ROW_VERT, JD__ROW_DIAG,
						       JD__ROW_ANTI};
			int slot[MAXP] = {0, sx, sback, sfwd};
			int16_t hmin = mins[0];

			pp.prev[0] = b->horiz[hc ^ 1] + 1;
			pp.prev_min[0] = hmin;
			pp.cur[0] = b->horiz[hc] + 1;
			pp.p2[0] = jd__sgm_adapt_p2(p1, p2, t, i0, irow[xb]);
			pp.p2[1] = jd__sgm_adapt_p2(p1, p2, t, i0, prow[x]);
			pp.p2[2] = jd__sgm_adapt_p2(p1, p2, t, i0, prow[xb]);
			pp.p2[3] = jd__sgm_adapt_p2(p1, p2, t, i0, prow[xf]);
			for (int k = 1; k < pp.n; k++) {
				pp.prev[k] = b->lr[kind[k]][prv] + (size_t)slot[k] * vs + 1;
				pp.prev_min[k] = b->mins[kind[k]][prv][slot[k]];
				pp.cur[k] = b->lr[kind[k]][cur] + (size_t)sx * vs + 1;
			}
			pixel_step(&pp, job->cost + pix * nd, job->sum[which] + pix * nd, nd, p1,
				   mins);
			hc ^= 1;
			for (int k = 1; k < pp.n; k++) {
				b->mins[kind[k]][cur][sx] = mins[k];
			}
		}
		cur = prv;
	}
}

void jd_sgm_aggregate_neon(const struct jd_match_params *p, const struct jd_image *guide,
			   const uint8_t *cost, uint16_t *s_fwd, uint16_t *s_bwd, void *sweep_ws,
			   const struct jd_exec *ex)
{
	jd__sgm_aggregate_with(sweep_neon, p, guide, cost, s_fwd, s_bwd, sweep_ws, ex);
}
