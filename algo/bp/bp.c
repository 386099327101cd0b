#include <errno.h>

#include "bp_priv.h"
#include "jd_carve.h"
#include "prefilter.h"

static void layout(struct jd_carve *c, const struct jd_match_params *p, int w, int h, int nworkers,
		   struct jd__bp_ctx *ctx)
{
	size_t es = p->bp.fp16 ? sizeof(uint16_t) : sizeof(float);
	int nd = p->ndisp;
	struct jd_bp_scratch *sc = jd_carve(c, sizeof(*sc) * nworkers);

	ctx->p = p;
	ctx->nd = nd;
	ctx->fp16 = p->bp.fp16;
	ctx->disc_k = jd_bp_disc_k(p);
	ctx->scratch = sc;
	ctx->lf = jd_carve(c, sizeof(float) * w * h);
	ctx->rf = jd_carve(c, sizeof(float) * w * h);
	ctx->tmp = jd_carve(c, sizeof(float) * w * h);
	for (int i = 0; i < nworkers; i++) {
		struct jd_bp_scratch t;

		for (int k = 0; k < 5; k++) {
			t.in[k] = ctx->fp16 ? jd_carve(c, sizeof(float) * nd * JD_BP_CHUNK) : NULL;
		}
		t.h = jd_carve(c, sizeof(float) * JD_BP_NDIR * nd * JD_BP_CHUNK);
		for (int k = 0; k < 6; k++) {
			t.row[k] = jd_carve(c, sizeof(float) * (w + 2));
		}
		if (sc) {
			sc[i] = t;
		}
	}
	/* Every level in one block (seed: one allocation beats one per level). */
	for (int l = 0; l < p->bp.levels; l++) {
		struct jd__bp_level *lv = &ctx->lv[l];
		/* Slots: left sink, ceil(w/2) pixels, right sink; rounded to 16 for alignment. */
		int hp = ((w + 1) / 2 + 2 + 15) & ~15;
		size_t bytes = (size_t)2 * h * nd * hp * es;

		lv->w = w;
		lv->h = h;
		lv->hp = hp;
		lv->data = jd_carve(c, bytes);
		for (int k = 0; k < JD_BP_NDIR; k++) {
			lv->msg[k] = jd_carve(c, bytes);
		}
		w = (w + 1) / 2;
		h = (h + 1) / 2;
	}
}

size_t jd_bp_mem_required(const struct jd_match_params *p, int width, int height, int nworkers)
{
	struct jd_carve c;
	struct jd__bp_ctx ctx;

	jd_carve_init(&c, NULL, 0);
	layout(&c, p, width, height, nworkers, &ctx);
	return jd_carve_total(&c);
}

int jd_bp_levels(const struct jd_match_params *p, int width, int height, int nworkers,
		 const void *ws, struct jd_bp_level_view *out)
{
	struct jd_carve c;
	struct jd__bp_ctx ctx;

	jd_carve_init(&c, (void *)(uintptr_t)ws, jd_bp_mem_required(p, width, height, nworkers));
	layout(&c, p, width, height, nworkers, &ctx);
	for (int l = 0; l < p->bp.levels; l++) {
		out[l].w = ctx.lv[l].w;
		out[l].h = ctx.lv[l].h;
		out[l].hp = ctx.lv[l].hp;
		out[l].data = ctx.lv[l].data;
		for (int k = 0; k < JD_BP_NDIR; k++) {
			out[l].msg[k] = ctx.lv[l].msg[k];
		}
	}
	return p->bp.levels;
}

int jd_bp_run(const struct jd_kernels *k, const struct jd_match_params *p,
	      const struct jd_image *left, const struct jd_image *right, struct jd_disp *out,
	      void *ws, size_t ws_bytes, const struct jd_exec *ex)
{
	struct jd_carve c;
	struct jd__bp_ctx ctx;

	jd_carve_init(&c, ws, ws_bytes);
	layout(&c, p, left->width, left->height, jd_exec_workers(ex), &ctx);
	if (c.overflow || !ws) {
		return -ENOMEM;
	}
	ctx.send = p->bp.fp16 ? k->bp_send_fp16 : k->bp_send;
	jd_bp_prepare_image(left, p->bp.sigma, ctx.lf, ctx.tmp);
	jd_bp_prepare_image(right, p->bp.sigma, ctx.rf, ctx.tmp);
	ctx.census = jd_prefilter_census_on(p);
	for (int i = 0; ctx.census && i < 2; i++) {
		float *im = i ? ctx.rf : ctx.lf;

		jd_bp_census(im, left->width, left->height, ctx.tmp, ex);
		memcpy(im, ctx.tmp, sizeof(float) * left->width * left->height);
	}
	jd__bp_data_pyramid(&ctx, ex);
	for (int l = p->bp.levels - 1; l >= 0; l--) {
		jd__bp_run_level(&ctx, l, ex);
	}
	jd__bp_select(&ctx, out, ex);
	return 0;
}

int jd_bp_ref(const struct jd_match_params *p, const struct jd_image *left,
	      const struct jd_image *right, struct jd_disp *out, void *ws, size_t ws_bytes,
	      const struct jd_exec *ex)
{
	return jd_bp_run(&jd_kernels_ref, p, left, right, out, ws, ws_bytes, ex);
}
