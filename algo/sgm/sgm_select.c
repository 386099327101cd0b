#include "sgm_priv.h"

#include <string.h>

#include "jd_carve.h"

static void scratch_layout(struct jd_carve *c, int w, struct jd__sgm_select_scratch *s)
{
	uint16_t *m = jd_carve(c, sizeof(uint16_t) * w);
	int *dr = jd_carve(c, sizeof(int) * w);
	int *dl = jd_carve(c, sizeof(int) * w);

	if (s) {
		s->min_r = m;
		s->disp_r = dr;
		s->disp_l = dl;
	}
}

size_t jd_sgm_select_mem_required(int width)
{
	struct jd_carve c;

	jd_carve_init(&c, NULL, 0);
	scratch_layout(&c, width, NULL);
	return jd_carve_total(&c);
}

struct select_job {
	jd__sgm_select_pixels_fn pixels;
	const struct jd_match_params *p;
	uint16_t *s;
	const uint16_t *s_bwd;
	struct jd_disp *out;
	uint8_t *scratch;
	size_t scratch_bytes;
};

/* OpenCV's rule: no disparity further than 1 from the best may come within the margin. */
static int is_unique(const uint16_t *s, int nd, int best, int uniq)
{
	long lim = (long)s[best] * 100;

	for (int d = 0; d < nd; d++) {
		if ((d < best - 1 || d > best + 1) && (long)s[d] * (100 - uniq) < lim) {
			return 0;
		}
	}
	return 1;
}

/* The reference's per-pixel part (jd__sgm_select_pixels_fn). */
static void select_pixels_ref(const struct jd_match_params *p, uint16_t *srow, const uint16_t *brow,
			      int w, const struct jd__sgm_select_scratch *sc, float *out)
{
	const struct jd_sgm_params *g = &p->sgm;
	int nd = p->ndisp;

	for (size_t i = 0; i < (size_t)w * nd; i++) {
		srow[i] = (uint16_t)(srow[i] + brow[i]);
	}
	for (int x = 0; x < w; x++) {
		const uint16_t *s = srow + (size_t)x * nd;
		int best = 0;

		for (int d = 0; d < nd; d++) {
			if (s[d] < s[best]) {
				best = d;
			}
			/* Right-view winner from the same volume: x_r = x - disparity. */
			int xr = x - p->min_disp - d;
			if (xr >= 0 && s[d] < sc->min_r[xr]) {
				sc->min_r[xr] = s[d];
				sc->disp_r[xr] = d;
			}
		}
		sc->disp_l[x] = -1;
		if (x - p->min_disp - best < 0 ||
		    (g->uniqueness && !is_unique(s, nd, best, g->uniqueness))) {
			out[x] = JD_DISP_INVALID;
			continue;
		}
		sc->disp_l[x] = best;
		out[x] = (float)(p->min_disp + best) +
			 (g->subpixel ? jd__sgm_subpixel(s, nd, best) : 0.0f);
	}
}

static void select_row(void *ctx, int y, int worker)
{
	const struct select_job *job = ctx;
	const struct jd_match_params *p = job->p;
	const struct jd_sgm_params *g = &p->sgm;
	int w = job->out->width, nd = p->ndisp;
	struct jd__sgm_select_scratch sc;
	struct jd_carve c;
	float *out = jd_disp_row(job->out, y);

	jd_carve_init(&c, job->scratch + (size_t)worker * job->scratch_bytes, job->scratch_bytes);
	scratch_layout(&c, w, &sc);
	for (int x = 0; x < w; x++) {
		sc.min_r[x] = UINT16_MAX;
		sc.disp_r[x] = -1;
	}
	job->pixels(p, job->s + (size_t)y * w * nd, job->s_bwd + (size_t)y * w * nd, w, &sc, out);
	if (!g->lr_check) {
		return;
	}
	for (int x = 0; x < w; x++) {
		int best = sc.disp_l[x];

		if (best < 0) {
			continue;
		}
		int dr = sc.disp_r[x - p->min_disp - best];
		if (dr < 0 || (dr > best ? dr - best : best - dr) > g->lr_max_diff) {
			out[x] = JD_DISP_INVALID;
		}
	}
}

void jd__sgm_select_with(jd__sgm_select_pixels_fn pixels, const struct jd_match_params *p,
			 uint16_t *s_fwd, const uint16_t *s_bwd, struct jd_disp *out, void *scratch,
			 const struct jd_exec *ex)
{
	struct select_job job = {
	    pixels, p, s_fwd, s_bwd, out, scratch, jd_sgm_select_mem_required(out->width)};

	jd_exec_run(ex, out->height, select_row, &job);
}

void jd_sgm_select_ref(const struct jd_match_params *p, uint16_t *s_fwd, const uint16_t *s_bwd,
		       struct jd_disp *out, void *scratch, const struct jd_exec *ex)
{
	jd__sgm_select_with(select_pixels_ref, p, s_fwd, s_bwd, out, scratch, ex);
}
