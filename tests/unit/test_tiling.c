/*
 * Strips against the whole frame (the reference C, two workers): the geometry covers every
 * row once with equal windows; SAD tiled with its default overlap equals untiled exactly, SGM
 * with its default overlap too (synthetic scene and the dataset pairs); BP with the seed's
 * 20-row padding differs on under 10 % of pixels and its accuracy against the truth
 * moves by under 1 point of bad>1px (figures printed and recorded in docs/tiling.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "image_io.h"
#include "jd_test.h"
#include "jd_test_data.h"
#include "matcher.h"
#include "synth.h"
#include "tiling.h"
#include "workers.h"

static struct jd_workers wk;

static long differing(const struct jd_disp *a, const struct jd_disp *b)
{
	long n = 0;

	for (int i = 0; i < a->width * a->height; i++) {
		float x = a->data[i], y = b->data[i];
		n += !(x == y || (isinf(x) && isinf(y)));
	}
	return n;
}

static void geometry(void)
{
	for (int h = 1; h < 60; h += 7) {
		for (int n = 1; n <= 6; n++) {
			struct jd_tiling t;
			int covered[64] = {0}, c0, c1, w0;

			jd_tiling_init(&t, h, n, 5);
			for (int i = 0; i < t.n; i++) {
				jd_tiling_strip(&t, i, &c0, &c1, &w0);
				JD_CHECK(w0 >= 0 && w0 + t.run_h <= h && w0 <= c0 &&
					     c1 <= w0 + t.run_h,
					 "h %d n %d strip %d: window %d+%d, core %d..%d", h, n, i,
					 w0, t.run_h, c0, c1);
				for (int y = c0; y < c1; y++) {
					covered[y]++;
				}
			}
			for (int y = 0; y < h; y++) {
				JD_CHECK(covered[y] == 1, "h %d n %d: row %d covered %d times", h,
					 n, y, covered[y]);
			}
		}
	}
}

/* Tiled vs untiled on one pair; returns the share of differing pixels (percent). */
static double compare(const struct jd_match_params *p, const struct jd_image *l,
		      const struct jd_image *r, int n, int overlap, const struct jd_disp *gt,
		      const char *what)
{
	int w = l->width, h = l->height;
	struct jd_tiling t;
	struct jd_disp full = {malloc(sizeof(float) * w * h), w, h, w};
	struct jd_disp tiled = {malloc(sizeof(float) * w * h), w, h, w};
	struct jd_disp scratch = {malloc(sizeof(float) * w * h), w, h, w};
	size_t wsb = jd_match_mem_required(p, w, h, 2);
	void *ws = malloc(wsb);

	jd_tiling_init(&t, h, n, overlap);
	JD_CHECK(jd_match_run(NULL, p, l, r, &full, ws, wsb, &wk.exec) == 0, "untiled");
	size_t tsb = jd_match_mem_required(p, w, t.run_h, 2);
	JD_CHECK(tsb <= wsb, "%s: strips need no more workspace (%zu <= %zu)", what, tsb, wsb);
	JD_CHECK(jd_match_run_tiled(NULL, p, &t, l, r, &tiled, &scratch, ws, tsb, &wk.exec) == 0,
		 "tiled");
	double share = 100.0 * (double)differing(&full, &tiled) / (w * h);
	printf("%-8s %-4s %dx%d nd %d: %d strips of %d rows (+%d overlap), workspace %.1f -> "
	       "%.1f MiB, %.3f%% pixels differ",
	       what, jd_algo_name(p->algo), w, h, p->ndisp, t.n, t.core, overlap,
	       (double)wsb / (1 << 20), (double)tsb / (1 << 20), share);
	if (gt) {
		struct jd_eval_result a, b;
		jd_eval(&full, gt, NULL, &a);
		jd_eval(&tiled, gt, NULL, &b);
		printf(", bad>1px %.2f%% -> %.2f%%", a.bad[1], b.bad[1]);
		JD_CHECK(fabs(a.bad[1] - b.bad[1]) < 1.0, "%s: accuracy moved %.2f points", what,
			 b.bad[1] - a.bad[1]);
	}
	printf("\n");
	free(full.data);
	free(tiled.data);
	free(scratch.data);
	free(ws);
	return share;
}

int main(void)
{
	static const enum jd_algo algos[] = {JD_ALGO_SAD, JD_ALGO_SGM, JD_ALGO_BP};
	int w = 450, h = 900; /* tall: strips much smaller than the frame */
	struct jd_image l = {malloc((size_t)w * h), w, h, w}, r = {malloc((size_t)w * h), w, h, w};
	struct jd_disp gt = {malloc(sizeof(float) * w * h), w, h, w};

	jd_workers_init(&wk, 2);
	geometry();
	jd_synth_render(0, 64, &l, &r, &gt);
	for (size_t a = 0; a < 3; a++) {
		struct jd_match_params p;

		jd_params_default(&p, algos[a], 64);
		double share = compare(&p, &l, &r, 6, jd_tiling_default_overlap(&p), &gt, "synth");
		if (algos[a] != JD_ALGO_BP) {
			JD_CHECK(share == 0.0, "%s tiled differs on %.3f%%", jd_algo_name(algos[a]),
				 share);
		} else {
			JD_CHECK(share < 10.0, "bp tiled differs on %.3f%%", share);
		}
	}
	free(l.data);
	free(r.data);
	free(gt.data);
	static const char *const pairs[] = {"tsukuba", "venus", "teddy", "cones"};
	int seen = 0;
	for (size_t i = 0; i < 4; i++) {
		struct jd_test_pair tp;

		if (jd_test_load_pair(pairs[i], 1, &tp)) {
			continue;
		}
		struct jd_image dl = tp.l, dr = tp.r;
		struct jd_disp dgt = tp.gt;
		int nd = tp.ndisp;
		for (size_t a = 0; a < 3; a++) {
			struct jd_match_params p;

			jd_params_default(&p, algos[a], nd);
			double share =
			    compare(&p, &dl, &dr, 4, jd_tiling_default_overlap(&p), &dgt, pairs[i]);
			JD_CHECK(algos[a] == JD_ALGO_BP ? share < 10.0 : share == 0.0,
				 "%s %s tiled differs on %.3f%%", pairs[i], jd_algo_name(algos[a]),
				 share);
		}
		seen++;
		jd_test_free_pair(&tp);
	}
	if (!seen) {
		printf("dataset pairs not checked: none under %s/stereo\n", jd_test_data_dir());
	}
	jd_workers_deinit(&wk);
	return jd_test_done("unit.tiling");
}
