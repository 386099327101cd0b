#include "bp_priv.h"
#include "subpixel.h"

struct select_job {
	const struct jd__bp_ctx *ctx;
	struct jd_disp *out;
};

/* The belief of disparity d at storage offset at (d = 0): the argmin's sum, in its order. */
static float belief(const struct jd__bp_level *lv, int fp16, size_t at, int d)
{
	size_t off = at + (size_t)d * lv->hp;
	float v[1 + JD_BP_NDIR];

	jd__bp_load(lv->data, off, &v[0], 1, fp16);
	for (int k = 0; k < JD_BP_NDIR; k++) {
		jd__bp_load(lv->msg[k], off, &v[k + 1], 1, fp16);
	}
	return v[0] + v[1] + v[2] + v[3] + v[4];
}

/*
 * argmin over d of D + up + down + left + right, one colour run at a time (vectorises), then
 * the equiangular fit through the winner's neighbours (subpixel.h).
 */
static void select_row(void *arg, int y, int worker)
{
	const struct select_job *job = arg;
	const struct jd__bp_ctx *ctx = job->ctx;
	const struct jd__bp_level *lv = &ctx->lv[0];
	const struct jd_bp_scratch *sc = &ctx->scratch[worker];
	float *out = jd_disp_row(job->out, y);
	float *best = sc->row[5];
	int *bestd = (int *)sc->h;
	int nd = ctx->nd;

	for (int c = 0; c < 2; c++) {
		int par = (y + c) & 1, n = jd__bp_count(lv->w, y, c);
		size_t row = jd__bp_row(lv, nd, y, c);

		for (int i = 0; i < n; i++) {
			best[i] = INFINITY;
			bestd[i] = 0;
		}
		for (int d = 0; d < nd; d++) {
			size_t off = row + (size_t)d * lv->hp;
			const float *in[5];

			jd__bp_view(lv->data, off, sc->row[0], n, ctx->fp16, &in[0]);
			for (int k = 0; k < JD_BP_NDIR; k++) {
				jd__bp_view(lv->msg[k], off, sc->row[k + 1], n, ctx->fp16,
					    &in[k + 1]);
			}
			const float *D = in[0], *U = in[1], *N = in[2], *L = in[3], *R = in[4];
			for (int i = 0; i < n; i++) {
				float v = D[i] + U[i] + N[i] + L[i] + R[i];
				int better = v < best[i];

				best[i] = better ? v : best[i];
				bestd[i] = better ? d : bestd[i];
			}
		}
		for (int i = 0; i < n; i++) {
			int d = bestd[i];
			float off = 0.0f;

			if (ctx->p->bp.subpixel && d > 0 && d < nd - 1) {
				off = jd_subpixel_equiangular(
				    belief(lv, ctx->fp16, row + i, d - 1), best[i],
				    belief(lv, ctx->fp16, row + i, d + 1));
			}
			out[2 * i + par] = (float)(ctx->p->min_disp + d) + off;
		}
	}
}

void jd__bp_select(const struct jd__bp_ctx *ctx, struct jd_disp *out, const struct jd_exec *ex)
{
	struct select_job job = {ctx, out};

	jd_exec_run(ex, ctx->lv[0].h, select_row, &job);
}
