#include "sgm.h"

#include <errno.h>
#include <string.h>

#include "jd_carve.h"
#include "kernels.h"
#include "postfilter.h"

struct sgm_ws {
	uint64_t *census_l, *census_r;
	uint8_t *cost;
	uint16_t *s_fwd, *s_bwd;
	uint8_t *sweeps;
	uint8_t *select;
	float *median_in;
};

static void layout(struct jd_carve *c, const struct jd_match_params *p, int w, int h, int nworkers,
		   struct sgm_ws *ws)
{
	size_t npix = (size_t)w * h;
	size_t vol = npix * p->ndisp;
	struct sgm_ws t;

	t.census_l = jd_carve(c, sizeof(uint64_t) * npix);
	t.census_r = jd_carve(c, sizeof(uint64_t) * npix);
	t.cost = jd_carve(c, vol);
	t.s_fwd = jd_carve(c, sizeof(uint16_t) * vol);
	t.s_bwd = jd_carve(c, sizeof(uint16_t) * vol);
	t.sweeps = jd_carve(c, 2 * jd_sgm_sweep_mem_required(w, p->ndisp));
	t.select = jd_carve(c, (size_t)nworkers * jd_sgm_select_mem_required(w));
	t.median_in = jd_carve(c, sizeof(float) * npix);
	if (ws) {
		*ws = t;
	}
}

size_t jd_sgm_mem_required(const struct jd_match_params *p, int width, int height, int nworkers)
{
	struct jd_carve c;

	jd_carve_init(&c, NULL, 0);
	layout(&c, p, width, height, nworkers, NULL);
	return jd_carve_total(&c);
}

int jd_sgm_run(const struct jd_kernels *k, const struct jd_match_params *p,
	       const struct jd_image *left, const struct jd_image *right, struct jd_disp *out,
	       void *ws, size_t ws_bytes, const struct jd_exec *ex)
{
	int w = left->width, h = left->height;
	struct jd_carve c;
	struct sgm_ws b;

	jd_carve_init(&c, ws, ws_bytes);
	layout(&c, p, w, h, jd_exec_workers(ex), &b);
	if (c.overflow || !ws) {
		return -ENOMEM;
	}
	if (p->sgm.cost == JD_SGM_COST_CENSUS) {
		k->census(left, b.census_l, ex);
		k->census(right, b.census_r, ex);
	}
	k->sgm_cost(p, left, right, b.census_l, b.census_r, b.cost, ex);
	k->sgm_aggregate(p, left, b.cost, b.s_fwd, b.s_bwd, b.sweeps, ex);
	struct jd_disp raw = {b.median_in, w, h, w};
	struct jd_disp *sel = p->sgm.median ? &raw : out;

	k->sgm_select(p, b.s_fwd, b.s_bwd, sel, b.select, ex);
	if (p->sgm.fill) {
		jd_fill_invalid_ref(sel, ex);
	}
	if (p->sgm.median) {
		jd_median3x3_ref(&raw, out, ex);
	}
	return 0;
}

int jd_sgm_ref(const struct jd_match_params *p, const struct jd_image *left,
	       const struct jd_image *right, struct jd_disp *out, void *ws, size_t ws_bytes,
	       const struct jd_exec *ex)
{
	return jd_sgm_run(&jd_kernels_ref, p, left, right, out, ws, ws_bytes, ex);
}
