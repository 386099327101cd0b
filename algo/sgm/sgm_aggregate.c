#include "sgm_priv.h"

#include <string.h>

#include "jd_carve.h"
#include "jd_compiler.h"

static void sweep_layout(struct jd_carve *c, int w, int nd, struct jd__sgm_sweep_buf *b)
{
	size_t vec = (size_t)(w + 2) * (nd + 2);

	for (int k = 0; k < JD__ROW_PATHS; k++) {
		for (int r = 0; r < 2; r++) {
			uint8_t *lr = jd_carve(c, vec);

			if (b) {
				b->lr[k][r] = lr;
			}
		}
	}
	for (int r = 0; r < 2; r++) {
		uint8_t *h = jd_carve(c, (size_t)nd + 2);
		if (b) {
			b->horiz[r] = h;
		}
	}
}

size_t jd_sgm_sweep_mem_required(int width, int ndisp)
{
	struct jd_carve c;

	jd_carve_init(&c, NULL, 0);
	sweep_layout(&c, width, ndisp, NULL);
	return jd_carve_total(&c);
}

void jd__sgm_sweep_init(const struct jd__sgm_sweep_buf *b, int w, int nd)
{
	for (int k = 0; k < JD__ROW_PATHS; k++) {
		for (int r = 0; r < 2; r++) {
			for (int x = 0; x < w + 2; x++) {
				jd__sgm_init_vec(b->lr[k][r] + (size_t)x * (nd + 2), nd);
			}
		}
	}
}

/* dir = +1: rows top to bottom, x left to right; dir = -1: the mirror image. */
JD_VECTOR_CLONES static void sweep_ref(const struct jd__sgm_sweep_job *job, int which)
{
	const struct jd_match_params *p = job->p;
	const struct jd__sgm_sweep_buf *b = &job->buf[which];
	int dir = which == 0 ? 1 : -1;
	int w = job->w, h = job->h, nd = p->ndisp, vs = nd + 2;
	int diagonals = p->sgm.paths == 8;
	int p1 = p->sgm.p1, p2 = p->sgm.p2, t = p->sgm.p2_adapt;
	int cv = jd__sgm_coded(p, 0, dir); /* the vertical path adds levels */
	int cur = 0;

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
			const uint8_t *c = job->cost + pix * nd;
			uint16_t *s = job->sum[which] + pix * nd;
			/* Row-buffer slots: x itself, and the upstream neighbours along x. */
			size_t sx = (size_t)(x + 1) * vs, sback = (size_t)(x + 1 - dir) * vs;
			size_t sfwd = (size_t)(x + 1 + dir) * vs;
			/* Guide-image neighbours along each path (clamped: path starts ignore
			 * them). */
			int xb = x - dir < 0 || x - dir >= w ? x : x - dir;
			int xf = x + dir < 0 || x + dir >= w ? x : x + dir;
			int i0 = irow[x];

			jd__sgm_path_step(b->horiz[hc ^ 1] + 1, c, b->horiz[hc] + 1, s, nd, p1,
					  jd__sgm_adapt_p2(p1, p2, t, i0, irow[xb]), 0);
			hc ^= 1;
			jd__sgm_path_step(b->lr[JD__ROW_VERT][prv] + sx + 1, c,
					  b->lr[JD__ROW_VERT][cur] + sx + 1, s, nd, p1,
					  jd__sgm_adapt_p2(p1, p2, t, i0, prow[x]), cv);
			if (diagonals) {
				jd__sgm_path_step(b->lr[JD__ROW_DIAG][prv] + sback + 1, c,
						  b->lr[JD__ROW_DIAG][cur] + sx + 1, s, nd, p1,
						  jd__sgm_adapt_p2(p1, p2, t, i0, prow[xb]), 0);
				jd__sgm_path_step(b->lr[JD__ROW_ANTI][prv] + sfwd + 1, c,
						  b->lr[JD__ROW_ANTI][cur] + sx + 1, s, nd, p1,
						  jd__sgm_adapt_p2(p1, p2, t, i0, prow[xf]), 0);
			}
		}
		cur = prv;
	}
}

size_t jd_sgm_path_mem_required(int width, int ndisp)
{
	/* previous and current row (or pixel, for a path along the row) of kept vectors */
	return 2 * (size_t)width * (ndisp + 2);
}

/*
 * Rows in the order the path needs (top-down when it comes from above, else bottom-up), and
 * within a row in the direction of dx when the path runs along the row: every pixel's
 * predecessor (x - dx, y - dy) comes first. A predecessor outside the image is the path's
 * entry: V = 0 there, so any P2 serves.
 */
void jd_sgm_path_ref(const struct jd_match_params *p, const struct jd_image *guide,
		     const uint8_t *cost, int dx, int dy, uint16_t *sum, void *ws)
{
	const int w = guide->width, h = guide->height, nd = p->ndisp, vs = nd + 2;
	const int p1 = p->sgm.p1, p2 = p->sgm.p2;
	uint8_t *lr[2];

	lr[0] = ws;
	lr[1] = lr[0] + (size_t)w * vs;
	for (int r = 0; r < 2; r++) {
		for (int x = 0; x < w; x++) {
			jd__sgm_init_vec(lr[r] + (size_t)x * vs, nd);
		}
	}
	for (int yi = 0; yi < h; yi++) {
		int y = dy >= 0 ? yi : h - 1 - yi;
		/* Along the row the predecessor sits in this row's buffer; else in the other. */
		int cur = dy == 0 ? 0 : yi & 1, prv = dy == 0 ? 0 : cur ^ 1;

		for (int xi = 0; xi < w; xi++) {
			int x = dx >= 0 ? xi : w - 1 - xi, px = x - dx, py = y - dy;
			int inside = px >= 0 && px < w && py >= 0 && py < h;
			size_t pix = (size_t)y * w + x;
			uint8_t zero[JD_NDISP_MAX + 2];
			const uint8_t *prev;
			int p2e;

			if (inside) {
				prev = lr[prv] + (size_t)px * vs + 1;
				p2e = jd__sgm_adapt_p2(p1, p2, p->sgm.p2_adapt,
						       jd_image_row(guide, y)[x],
						       jd_image_row(guide, py)[px]);
			} else {
				jd__sgm_init_vec(zero, nd);
				prev = zero + 1;
				p2e = p2;
			}
			jd__sgm_path_step(prev, cost + pix * nd, lr[cur] + (size_t)x * vs + 1,
					  sum + pix * nd, nd, p1, p2e, jd__sgm_coded(p, dx, dy));
		}
	}
}

struct sweep_task_ctx {
	jd__sgm_sweep_fn sweep;
	const struct jd__sgm_sweep_job *job;
};

static void sweep_task(void *ctx, int item, int worker)
{
	const struct sweep_task_ctx *t = ctx;

	(void)worker;
	t->sweep(t->job, item);
}

void jd__sgm_aggregate_with(jd__sgm_sweep_fn sweep, const struct jd_match_params *p,
			    const struct jd_image *guide, const uint8_t *cost, uint16_t *s_fwd,
			    uint16_t *s_bwd, void *sweep_ws, const struct jd_exec *ex)
{
	struct jd__sgm_sweep_job job;
	struct sweep_task_ctx t = {sweep, &job};
	size_t one = jd_sgm_sweep_mem_required(guide->width, p->ndisp);
	struct jd_carve c;

	job.p = p;
	job.img = guide;
	job.w = guide->width;
	job.h = guide->height;
	job.cost = cost;
	job.sum[0] = s_fwd;
	job.sum[1] = s_bwd;
	for (int i = 0; i < 2; i++) {
		jd_carve_init(&c, (uint8_t *)sweep_ws + i * one, one);
		sweep_layout(&c, guide->width, p->ndisp, &job.buf[i]);
	}
	/* The two sweeps are independent: one per worker when there are two. */
	jd_exec_run(ex, 2, sweep_task, &t);
}

void jd_sgm_aggregate_ref(const struct jd_match_params *p, const struct jd_image *guide,
			  const uint8_t *cost, uint16_t *s_fwd, uint16_t *s_bwd, void *sweep_ws,
			  const struct jd_exec *ex)
{
	jd__sgm_aggregate_with(sweep_ref, p, guide, cost, s_fwd, s_bwd, sweep_ws, ex);
}
