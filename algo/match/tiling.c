#include "tiling.h"

#include <string.h>

#include "jd_params.h"
#include "matcher.h"
#include "matcher_table.h"
#include "prefilter.h"

void jd_tiling_init(struct jd_tiling *t, int h, int n, int overlap)
{
	n = n < 1 ? 1 : n > h ? h : n;
	overlap = overlap < 0 ? 0 : overlap > h ? h : overlap; /* core + 2 overlap cannot wrap */
	t->h = h;
	t->core = (h + n - 1) / n;
	t->n = (h + t->core - 1) / t->core; /* no strip starts past the last row */
	t->overlap = t->n > 1 ? overlap : 0;
	t->run_h = t->core + 2 * t->overlap;
	if (t->run_h >= h) {
		/* a strip and its context cover the frame: strips would save nothing, match whole
		 */
		t->n = 1;
		t->core = t->run_h = h;
		t->overlap = 0;
	}
}

void jd_tiling_strip(const struct jd_tiling *t, int i, int *core0, int *core1, int *win0)
{
	int c0 = i * t->core, c1 = c0 + t->core > t->h ? t->h : c0 + t->core;
	int w0 = c0 - t->overlap;

	w0 = w0 + t->run_h > t->h ? t->h - t->run_h : w0;
	*core0 = c0;
	*core1 = c1;
	*win0 = w0 < 0 ? 0 : w0;
}

int jd_tiling_default_overlap(const struct jd_match_params *p)
{
	/* the prefilter's rows come first: a strip must hold them whole */
	int rank = jd_prefilter_rank_on(p) ? jd_rank_window(p) / 2 : 0;
	const struct jd_matcher *m = jd_matcher_of(p->algo);
	int census = m && jd_prefilter_census_on(p) ? m->census_radius : 0;

	return m ? m->overlap(p, rank + census) : rank + census;
}

void jd_tiling_views(const struct jd_tiling *t, int i, const struct jd_image *left,
		     const struct jd_image *right, struct jd_image *l, struct jd_image *r)
{
	int c0, c1, w0;

	jd_tiling_strip(t, i, &c0, &c1, &w0);
	*l = (struct jd_image){left->data + (long)w0 * left->stride, left->width, t->run_h,
			       left->stride};
	*r = (struct jd_image){right->data + (long)w0 * right->stride, right->width, t->run_h,
			       right->stride};
}

void jd_tiling_copy_core(const struct jd_tiling *t, int i, const struct jd_disp *strip,
			 struct jd_disp *out)
{
	int c0, c1, w0;

	jd_tiling_strip(t, i, &c0, &c1, &w0);
	for (int y = c0; y < c1; y++) {
		memcpy(jd_disp_row(out, y), jd_disp_row(strip, y - w0), sizeof(float) * out->width);
	}
}

int jd_match_run_tiled(const struct jd_kernels *k, const struct jd_match_params *p,
		       const struct jd_tiling *t, const struct jd_image *left,
		       const struct jd_image *right, struct jd_disp *out, struct jd_disp *scratch,
		       void *ws, size_t ws_bytes, const struct jd_exec *ex)
{
	struct jd_disp s = {scratch->data, out->width, t->run_h, scratch->stride};

	for (int i = 0; i < t->n; i++) {
		struct jd_image l, r;
		int rc;

		jd_tiling_views(t, i, left, right, &l, &r);
		rc = jd_match_run(k, p, &l, &r, &s, ws, ws_bytes, ex);
		if (rc) {
			return rc;
		}
		jd_tiling_copy_core(t, i, &s, out);
	}
	return 0;
}
