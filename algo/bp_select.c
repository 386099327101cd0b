#include "bp_priv.h"

struct select_job {
	const struct jd__bp_ctx *ctx;
	struct jd_disp *out;
};

static void select_row(void *arg, int y, int worker)
{
	const struct select_job *job = arg;
	const struct jd__bp_ctx *ctx = job->ctx;
	const struct jd__bp_level *lv = &ctx->lv[0];
	float *out = jd_disp_row(job->out, y);
	int nd = ctx->nd;

	(void)worker;
	for (int x = 0; x < lv->w; x++) {
		int best = 0;
		float bestv = 0.0f;

		for (int d = 0; d < nd; d++) {
			size_t i = jd__bp_slot(lv, nd, x, y, d);
			float v = jd__bp_get(lv->data, i, ctx->fp16) +
				  jd__bp_get(lv->msg[JD__FROM_UP], i, ctx->fp16) +
				  jd__bp_get(lv->msg[JD__FROM_DOWN], i, ctx->fp16) +
				  jd__bp_get(lv->msg[JD__FROM_LEFT], i, ctx->fp16) +
				  jd__bp_get(lv->msg[JD__FROM_RIGHT], i, ctx->fp16);
			if (d == 0 || v < bestv) {
				bestv = v;
				best = d;
			}
		}
		out[x] = (float)(ctx->p->min_disp + best);
	}
}

void jd__bp_select(const struct jd__bp_ctx *ctx, struct jd_disp *out, const struct jd_exec *ex)
{
	struct select_job job = {ctx, out};

	jd_exec_run(ex, ctx->lv[0].h, select_row, &job);
}
