/*
 * The CUDA SAD matcher against the reference (jd_match_run(), the rank prefilter included):
 * identical disparity maps (memcmp) on awkward sizes, raw and ranked pairs, windows,
 * disparity ranges and options, and on the dataset pairs; and no device or pinned
 * allocation after boot (the driver's allocation entries are counted through the
 * dlsym'd table). Without a GPU it prints why and exits 77 (skipped).
 */
#include "gpu_util.h"
#include "jd_test_data.h"
#include "matcher.h"
#include "sad.h"
#include "workers.h"

/* GPU and reference on one pair; returns 1 when identical. */
static int compare(const struct jd_match_params *p, const struct jd_image *l,
		   const struct jd_image *r, const struct jd_exec *ex, const char *what)
{
	int w = l->width, h = l->height;
	static struct gpu_rig g;
	size_t n = jd_match_mem_required(p, w, h, jd_exec_workers(ex));
	void *ws = malloc(n);
	struct jd_disp a = {malloc(sizeof(float) * w * h), w, h, w};
	struct jd_disp b = {malloc(sizeof(float) * w * h), w, h, w};
	int same = 0, rc;

	g = (struct gpu_rig){.p = p, .w = w, .h = h};
	rc = gpu_rig_boot(&g, gpu_memory());
	JD_CHECK(rc == 0, "cuda boot: %s", g.cu.err);
	if (rc == 0) {
		JD_CHECK(jd_match_run(NULL, p, l, r, &a, ws, n, ex) == 0, "ref");
		long first = gpu_rig_compare(&g, l, r, &a, &b);
		same = first == -1;
		JD_CHECK(same,
			 "%s %dx%d win %d nd %d min %d lr %d fill %d median %d: pixel %ld: "
			 "ref %g gpu %g",
			 what, w, h, p->sad.window, p->ndisp, p->min_disp, p->sad.lr_check,
			 p->sad.fill, p->sad.median, first, first >= 0 ? a.data[first] : 0.0,
			 first >= 0 ? b.data[first] : 0.0);
	}
	jd_cuda_deinit(&g.cu);
	free(ws);
	free(a.data);
	free(b.data);
	return same;
}

/* A dataset pair: 64 disparities (KITTI's: 128). */
static void dataset_pair(void *ex, const char *name, const struct jd_test_pair *tp,
			 struct gpu_tally *t)
{
	struct jd_match_params p;

	jd_params_default(&p, JD_ALGO_SAD, strstr(name, "kitti") ? 128 : 64);
	gpu_count(t, compare(&p, &tp->l, &tp->r, ex, name));
}

int main(void)
{
	/* fill follows the left-right check; 2100 wide: past the fill's registers (2048) */
	struct sad_case {
		int w, h, window, nd, min_disp, lr_check, median;
	};
	/* clang-format off: one case a row */
	static const struct sad_case cases[] = {
	    {.w = 311, .h = 239, .window = 11, .nd = 64, .min_disp = 0, .lr_check = 1, .median = 1},
	    {.w = 640, .h = 480, .window = 11, .nd = 64, .min_disp = 0, .lr_check = 1, .median = 1},
	    {.w = 97, .h = 61, .window = 5, .nd = 16, .min_disp = 3, .lr_check = 1, .median = 0},
	    {.w = 33, .h = 17, .window = 3, .nd = 7, .min_disp = 0, .lr_check = 0, .median = 0},
	    {.w = 1, .h = 1, .window = 1, .nd = 1, .min_disp = 0, .lr_check = 0, .median = 0},
	    {.w = 200, .h = 50, .window = 31, .nd = 100, .min_disp = 0, .lr_check = 1, .median = 1},
	    {.w = 1242, .h = 375, .window = 11, .nd = 128, .min_disp = 0, .lr_check = 1,
	     .median = 1},
	    {.w = 2100, .h = 24, .window = 5, .nd = 64, .min_disp = 0, .lr_check = 1, .median = 1},
	};
	/* clang-format on */
	static const char *const pairs[] = {"tsukuba", "venus", "teddy", "cones",
					    "kitti2015_000000"};
	struct jd_workers wk;
	struct gpu_tally t = {0};

	gpu_require();
	jd_workers_init(&wk, 2);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct jd_match_params p;
		struct jd_image l, r;

		if (!gpu_case_pair(cases[i].w, cases[i].h, 1u + (unsigned)i, &l, &r)) {
			continue;
		}
		jd_params_default(&p, JD_ALGO_SAD, cases[i].nd);
		p.sad.window = cases[i].window;
		p.min_disp = cases[i].min_disp;
		p.sad.lr_check = p.sad.fill = cases[i].lr_check;
		p.sad.median = cases[i].median;
		p.prefilter = i % 2 ? JD_PREFILTER_NONE : JD_PREFILTER_AUTO; /* raw, and ranked */
		gpu_count(&t, compare(&p, &l, &r, &wk.exec, "random"));
		gpu_free_pair(&l, &r);
	}
	gpu_each_pair(pairs, sizeof(pairs) / sizeof(pairs[0]), dataset_pair, &wk.exec, &t);
	printf("%d of %d cases identical to the reference\n", t.ok, t.total);
	jd_workers_deinit(&wk);
	return jd_test_done("gpu.cuda_sad");
}
