#include "bp_priv.h"

struct level_job {
	const struct jd__bp_ctx *ctx;
	int level;
};

static void level0_row(const struct jd__bp_ctx *ctx, int y)
{
	const struct jd__bp_level *lv = &ctx->lv[0];
	const float *lrow = ctx->lf + (size_t)y * lv->w;
	const float *rrow = ctx->rf + (size_t)y * lv->w;

	for (int x = 0; x < lv->w; x++) {
		for (int d = 0; d < ctx->nd; d++) {
			jd__bp_put(lv->data, jd__bp_slot(lv, ctx->nd, x, y, d),
				   jd_bp_data_cost(ctx->p, lrow, rrow, x, d), ctx->fp16);
		}
	}
}

static void coarse_row(const struct jd__bp_ctx *ctx, int level, int y)
{
	static const int order[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
	const struct jd__bp_level *f = &ctx->lv[level - 1], *k = &ctx->lv[level];

	for (int x = 0; x < k->w; x++) {
		for (int d = 0; d < ctx->nd; d++) {
			float s = 0.0f;

			for (int o = 0; o < 4; o++) {
				int cx = 2 * x + order[o][0], cy = 2 * y + order[o][1];
				if (cx < f->w && cy < f->h) {
					s += jd__bp_get(f->data, jd__bp_slot(f, ctx->nd, cx, cy, d),
							ctx->fp16);
				}
			}
			jd__bp_put(k->data, jd__bp_slot(k, ctx->nd, x, y, d), s, ctx->fp16);
		}
	}
}

static void data_row(void *arg, int y, int worker)
{
	const struct level_job *job = arg;

	(void)worker;
	if (job->level == 0) {
		level0_row(job->ctx, y);
	} else {
		coarse_row(job->ctx, job->level, y);
	}
}

void jd__bp_data_pyramid(const struct jd__bp_ctx *ctx, const struct jd_exec *ex)
{
	for (int l = 0; l < ctx->p->bp.levels; l++) {
		struct level_job job = {ctx, l};

		jd_exec_run(ex, ctx->lv[l].h, data_row, &job);
	}
}
