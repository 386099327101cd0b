/*
 * The CUDA SAD matcher against the reference (jd_match_run(), the rank prefilter included):
 * identical disparity maps (memcmp) on awkward sizes, raw and ranked pairs, windows,
 * disparity ranges and options, and on the dataset pairs; and no device or pinned
 * allocation after boot (the driver's allocation entries are counted through the
 * dlsym'd table). Then stage by stage, so that a failure names its stage: the rank
 * prefilter's images, the raw map (SAD, winners and the left-right check), the fill alone
 * and the median alone. Without a GPU it prints why and exits 77 (skipped).
 */
#include "gpu_util.h"
#include "jd_test_data.h"
#include "matcher.h"
#include "postfilter.h"
#include "prefilter.h"
#include "sad.h"
#include "workers.h"

/* One stage's device map against the reference's: names the stage and the first pixel. */
static void check_stage(const char *stage, const struct jd_disp *want, const struct jd_disp *got,
			int win, int nd)
{
	long at = gpu_first_diff(want, got);

	JD_CHECK(at < 0, "stage %s %dx%d win %d nd %d: pixel %ld ref %g gpu %g", stage, want->width,
		 want->height, win, nd, at, at < 0 ? 0.0 : want->data[at],
		 at < 0 ? 0.0 : got->data[at]);
}

/*
 * After a frame of (l, r): the ranked pair the kernels read (where p ranks) against
 * jd_rank_ref(); then, from the reference's raw map (fill and median off, so the left-right
 * check's holes are in it), the device's fill alone against jd_fill_invalid_ref() and its
 * median alone against jd_median3x3_ref(). The raw map itself is a rig of its own (compare()
 * with fill and median off).
 */
static void stage_checks(const struct jd_match_params *p, const struct jd_image *l,
			 const struct jd_image *r, struct jd_cuda *cu, struct jd_cuda_sad *s,
			 const struct jd_exec *ex)
{
	int w = l->width, h = l->height;
	size_t n = (size_t)w * h, mem;
	struct jd_match_params raw = *p;
	struct jd_disp map = {malloc(sizeof(float) * n), w, h, w};
	struct jd_disp want = {malloc(sizeof(float) * n), w, h, w};
	struct jd_disp got = {malloc(sizeof(float) * n), w, h, w};
	jd_cudeviceptr res;
	void *ws;

	if (s->frame.rank.window) {
		struct jd_image ranked = {malloc(n), w, h, w};
		uint8_t *dev = malloc(n);

		for (int v = 0; v < 2; v++) {
			jd_rank_ref(v ? r : l, s->frame.rank.window, &ranked, NULL);
			JD_CHECK(gpu_download(cu, dev, s->frame.rank.d_out[v], n) == 0, "%s",
				 cu->err);
			JD_CHECK(memcmp(dev, ranked.data, n) == 0,
				 "stage rank (%s) %dx%d window %d", v ? "right" : "left", w, h,
				 s->frame.rank.window);
		}
		free(ranked.data);
		free(dev);
	}
	raw.sad.fill = raw.sad.median = 0;
	mem = jd_match_mem_required(&raw, w, h, jd_exec_workers(ex));
	ws = malloc(mem);
	JD_CHECK(jd_match_run(NULL, &raw, l, r, &map, ws, mem, ex) == 0, "ref raw map");
	/* the fill alone, in place in the frame's map (the median's buffer as its scratch) */
	memcpy(want.data, map.data, sizeof(float) * n);
	jd_fill_invalid_ref(&want, NULL);
	JD_CHECK(gpu_upload(cu, s->frame.d_out, map.data, sizeof(float) * n) == 0 &&
		     jd_cuda_post_run(&s->post, cu, s->frame.d_out, s->d_med, w, h, 1, 0, &res) ==
			 0 &&
		     gpu_download(cu, got.data, res, sizeof(float) * n) == 0,
		 "%s", cu->err);
	check_stage("fill", &want, &got, p->sad.window, p->ndisp);
	/* the median alone, frame's map -> the median's buffer */
	jd_median3x3_ref(&map, &want, NULL);
	JD_CHECK(gpu_upload(cu, s->frame.d_out, map.data, sizeof(float) * n) == 0 &&
		     jd_cuda_post_run(&s->post, cu, s->frame.d_out, s->d_med, w, h, 0, 1, &res) ==
			 0 &&
		     gpu_download(cu, got.data, res, sizeof(float) * n) == 0,
		 "%s", cu->err);
	check_stage("median", &want, &got, p->sad.window, p->ndisp);
	free(ws);
	free(map.data);
	free(want.data);
	free(got.data);
}

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
			 "%s %dx%d win %d nd %d min %d lr %d fill %d median %d subpixel %d: "
			 "pixel %ld: ref %g gpu %g",
			 what, w, h, p->sad.window, p->ndisp, p->min_disp, p->sad.lr_check,
			 p->sad.fill, p->sad.median, p->sad.subpixel, first,
			 first >= 0 ? a.data[first] : 0.0, first >= 0 ? b.data[first] : 0.0);
		stage_checks(p, l, r, &g.cu, &g.m.u.sad, ex);
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
	p.sad.subpixel = 1;
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
	    {.w = 1242,
	     .h = 375,
	     .window = 11,
	     .nd = 128,
	     .min_disp = 0,
	     .lr_check = 1,
	     .median = 1},
	    {.w = 2100, .h = 24, .window = 5, .nd = 64, .min_disp = 0, .lr_check = 1, .median = 1},
	    /* two disparities a word with a group cut short (40 = 16 + 16 + 8), over two tiles */
	    {.w = 1100, .h = 83, .window = 15, .nd = 40, .min_disp = 2, .lr_check = 1, .median = 1},
	    {.w = 517, .h = 45, .window = 9, .nd = 21, .min_disp = 0, .lr_check = 1, .median = 0},
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
		p.sad.subpixel = i % 3 != 0; /* the fit on most cases, the 2100-wide one too */
		p.prefilter = i % 2 ? JD_PREFILTER_NONE : JD_PREFILTER_AUTO; /* raw, and ranked */
		/* the rank window: the default (9), the narrowest, an odd radius, the widest */
		p.rank_window = (int[]){0, 3, 7, 15}[i / 2 % 4];
		gpu_count(&t, compare(&p, &l, &r, &wk.exec, "random"));
		if (p.sad.fill || p.sad.median) { /* the raw map's stage: SAD, winners, the check */
			p.sad.fill = p.sad.median = 0;
			gpu_count(&t, compare(&p, &l, &r, &wk.exec, "random, raw map"));
		}
		gpu_free_pair(&l, &r);
	}
	gpu_each_pair(pairs, sizeof(pairs) / sizeof(pairs[0]), dataset_pair, &wk.exec, &t);
	printf("%d of %d cases identical to the reference\n", t.ok, t.total);
	jd_workers_deinit(&wk);
	return jd_test_done("gpu.cuda_sad");
}
