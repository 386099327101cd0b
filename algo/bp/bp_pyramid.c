#include "bp_priv.h"

struct level_job {
	const struct jd__bp_ctx *ctx;
	int level;
};

/*
 * Level 0 in storage order: for each colour and disparity one contiguous run of slots. The
 * right image is split by column parity so x - d walks contiguously too.
 */
static void level0_row(const struct jd__bp_ctx *ctx, int y, const struct jd_bp_scratch *sc)
{
	const struct jd__bp_level *lv = &ctx->lv[0];
	const struct jd_match_params *p = ctx->p;
	const float *lrow = ctx->lf + (size_t)y * lv->w;
	const float *rrow = ctx->rf + (size_t)y * lv->w;
	float *lc = sc->row[0], *rpar[2] = {sc->row[1], sc->row[2]}, *out = sc->row[3];
	float cap = jd_bp_truncated_cost(p, p->bp.data_k);
	int w = lv->w;

	for (int k = 0; 2 * k < w; k++) {
		rpar[0][k] = rrow[2 * k];
		rpar[1][k] = 2 * k + 1 < w ? rrow[2 * k + 1] : 0.0f;
	}
	for (int c = 0; c < 2; c++) {
		int par = (y + c) & 1, n = jd__bp_count(w, y, c);

		for (int i = 0; i < n; i++) {
			lc[i] = lrow[2 * i + par];
		}
		for (int d = 0; d < ctx->nd; d++) {
			/* x_r = 2i + par - min_disp - d = 2(i + k0) + q */
			int shift = par - p->min_disp - d;
			int q = shift & 1, k0 = (shift - q) / 2;
			int first = k0 < 0 ? (-k0 < n ? -k0 : n) : 0;
			const float *rq = rpar[q] + k0;

			for (int i = 0; i < first; i++) {
				out[i] = cap;
			}
			if (ctx->census) {
				for (int i = first; i < n; i++) {
					out[i] = jd_bp_truncated_cost(
					    p, jd__bp_census_diff(lc[i], rq[i]));
				}
			} else {
				for (int i = first; i < n; i++) {
					float diff = lc[i] - rq[i];
					out[i] =
					    jd_bp_truncated_cost(p, diff < 0.0f ? -diff : diff);
				}
			}
			jd__bp_store(lv->data, jd__bp_row(lv, ctx->nd, y, c) + (size_t)d * lv->hp,
				     out, n, ctx->fp16);
		}
	}
}

/*
 * Coarse pixel (X, Y) of colour C sits at slot I with X = 2I + P; its children (2X + a,
 * 2Y + b) have colour (a + b) & 1 and slot 2I + P in child row 2Y + b. Absent children add
 * 0, which leaves the sum unchanged (costs are never -0).
 */
static void coarse_row(const struct jd__bp_ctx *ctx, int level, int y,
		       const struct jd_bp_scratch *sc)
{
	const struct jd__bp_level *f = &ctx->lv[level - 1], *k = &ctx->lv[level];
	int nd = ctx->nd, has_b1 = 2 * y + 1 < f->h;

	for (int c = 0; c < 2; c++) {
		int par = (y + c) & 1, n = jd__bp_count(k->w, y, c);
		int nf = (f->w + 1) / 2 + 1; /* child slots to load, sinks included */

		for (int d = 0; d < nd; d++) {
			size_t dd = (size_t)d * f->hp;

			const float *c00, *c10, *c01 = NULL, *c11 = NULL;

			jd__bp_view(f->data, jd__bp_row(f, nd, 2 * y, 0) + dd, sc->row[0], nf,
				    ctx->fp16, &c00);
			jd__bp_view(f->data, jd__bp_row(f, nd, 2 * y, 1) + dd, sc->row[1], nf,
				    ctx->fp16, &c10);
			if (has_b1) {
				jd__bp_view(f->data, jd__bp_row(f, nd, 2 * y + 1, 1) + dd,
					    sc->row[2], nf, ctx->fp16, &c01);
				jd__bp_view(f->data, jd__bp_row(f, nd, 2 * y + 1, 0) + dd,
					    sc->row[3], nf, ctx->fp16, &c11);
			}
			for (int i = 0; i < n; i++) {
				int s = 2 * i + par, x = 2 * s; /* child slot, child x of a = 0 */
				int right = x + 1 < f->w;
				float b10 = c10[s];
				float v = 0.0f + c00[s];

				v += right ? b10 : 0.0f;
				if (has_b1) {
					float b11 = c11[s];
					v += c01[s];
					v += right ? b11 : 0.0f;
				}
				sc->h[i] = v;
			}
			jd__bp_store(k->data, jd__bp_row(k, nd, y, c) + (size_t)d * k->hp, sc->h, n,
				     ctx->fp16);
		}
	}
}

static void data_row(void *arg, int y, int worker)
{
	const struct level_job *job = arg;
	const struct jd_bp_scratch *sc = &job->ctx->scratch[worker];

	if (job->level == 0) {
		level0_row(job->ctx, y, sc);
	} else {
		coarse_row(job->ctx, job->level, y, sc);
	}
}

void jd__bp_data_pyramid(const struct jd__bp_ctx *ctx, const struct jd_exec *ex)
{
	for (int l = 0; l < ctx->p->bp.levels; l++) {
		struct level_job job = {ctx, l};

		jd_exec_run(ex, ctx->lv[l].h, data_row, &job);
	}
}
