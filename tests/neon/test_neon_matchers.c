/*
 * The three matchers end to end with the NEON kernel table against the reference table:
 * identical disparity maps (memcmp) on textured pairs of awkward sizes and on the dataset
 * pairs (JETDEPTH_DATA; JD_TEST_PAIRS narrows the list, as the qemu run does), and the
 * same confidence maps from them (algo/match/confidence.h). BP runs in float and fp16 storage;
 * FP16 arithmetic has its own bounded test (test_neon_bp_fp16.c). SAD and BP run on their
 * default rank-transformed pairs and, once each, on raw intensities.
 */
#include <stdio.h>

#include "confidence.h"
#include "image_io.h"
#include "matcher.h"
#include "jd_test_data.h"
#include "neon_util.h"
#include "workers.h"

static int compare(const struct jd_kernels *k, const struct jd_match_params *p, struct jd_image *l,
		   struct jd_image *r, const struct jd_exec *ex, const char *what)
{
	int w = l->width, h = l->height;
	size_t n = jd_match_mem_required(p, w, h, jd_exec_workers(ex));
	void *ws = aligned_alloc(64, (n + 63) / 64 * 64);
	struct jd_disp a = {malloc(sizeof(float) * w * h), w, h, w};
	struct jd_disp b = {malloc(sizeof(float) * w * h), w, h, w};
	long diff;

	memset(ws, 0xff, n);
	JD_CHECK(jd_match_run(&jd_kernels_ref, p, l, r, &a, ws, n, ex) == 0, "%s ref", what);
	memset(ws, 0xff, n);
	JD_CHECK(jd_match_run(k, p, l, r, &b, ws, n, ex) == 0, "%s neon", what);
	diff = jd_test_first_diff(a.data, b.data, sizeof(float) * w * h);
	JD_CHECK(diff < 0, "%s %s %dx%d nd %d fp16 %d: first difference at pixel %ld", what,
		 jd_algo_name(p->algo), w, h, p->ndisp, p->bp.fp16, diff / 4);
	/* the confidence of each map: one rule for every backend, the same bytes */
	size_t nc = jd_confidence_mem_required(w, h, jd_exec_workers(ex));
	void *wc = malloc(nc);
	uint8_t *ca = malloc((size_t)w * h), *cb = malloc((size_t)w * h);
	JD_CHECK(jd_confidence_ref(l, r, &a, NULL, ca, wc, nc, ex) == 0 &&
		     jd_confidence_ref(l, r, &b, NULL, cb, wc, nc, ex) == 0,
		 "%s confidence", what);
	long cdiff = jd_test_first_diff(ca, cb, (size_t)w * h);
	JD_CHECK(cdiff < 0, "%s %s: confidence differs first at pixel %ld", what,
		 jd_algo_name(p->algo), cdiff);
	free(wc);
	free(ca);
	free(cb);
	free(ws);
	free(a.data);
	free(b.data);
	return diff < 0;
}

static void run_all(const struct jd_kernels *k, struct jd_image *l, struct jd_image *r, int nd,
		    const struct jd_exec *ex, const char *what)
{
	struct jd_match_params p;

	jd_params_default(&p, JD_ALGO_SGM, nd);
	compare(k, &p, l, r, ex, what);
	p.sgm.paths = 4;
	p.sgm.cost = JD_SGM_COST_AD;
	p.min_disp = 1;
	compare(k, &p, l, r, ex, what);
	jd_params_default(&p, JD_ALGO_SAD, nd);
	compare(k, &p, l, r, ex, what);
	p.prefilter = JD_PREFILTER_NONE;
	compare(k, &p, l, r, ex, what);
	jd_params_default(&p, JD_ALGO_BP, nd);
	compare(k, &p, l, r, ex, what);
	p.prefilter = JD_PREFILTER_NONE;
	compare(k, &p, l, r, ex, what);
	p.prefilter = JD_PREFILTER_AUTO;
	p.bp.fp16 = 1;
	compare(k, &p, l, r, ex, what);
}

int main(void)
{
	static const int sizes[][3] = {{311, 239, 24}, {97, 61, 16}, {33, 17, 7}};
	const char *list =
	    getenv("JD_TEST_PAIRS") ? getenv("JD_TEST_PAIRS") : "tsukuba venus teddy cones";
	struct jd_kernels k;
	struct jd_workers w;
	char pairs[256], *save = NULL;

	neon_table_exact(&k);
	jd_workers_init(&w, 2);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct jd_image l =
		    jd_test_textured_image(sizes[s][0], sizes[s][1], sizes[s][0], 1u + s);
		struct jd_image r =
		    jd_test_textured_image(sizes[s][0], sizes[s][1], sizes[s][0], 1u + s);

		/* right = left shifted by 3 plus fresh noise on a few pixels */
		for (int y = 0; y < l.height; y++) {
			for (int x = 0; x < l.width; x++) {
				r.data[y * r.stride + x] =
				    l.data[y * l.stride + (x + 3 < l.width ? x + 3 : x)];
			}
		}
		run_all(&k, &l, &r, sizes[s][2], &w.exec, "random");
		free(l.data);
		free(r.data);
	}
	snprintf(pairs, sizeof(pairs), "%s", list);
	for (char *name = strtok_r(pairs, " ,", &save); name; name = strtok_r(NULL, " ,", &save)) {
		struct jd_test_pair tp;

		if (jd_test_load_pair(name, 0, &tp)) {
			continue;
		}
		run_all(&k, &tp.l, &tp.r, tp.ndisp, &w.exec, name);
		printf("%s: ref and neon identical for sgm, sgm-ad-4, sad, bp, bp-fp16\n", name);
		jd_test_free_pair(&tp);
	}
	jd_workers_deinit(&w);
	return jd_test_done("neon.matchers");
}
