/*
 * The CUDA SGM matcher against the reference (jd_match_run(), the rank prefilter included):
 * identical disparity maps on awkward sizes, raw and ranked pairs, both costs,
 * 4 and 8 paths, constant and adaptive P2, uniqueness, sub-pixel, left-right check,
 * minimum disparity, ndisp up to 512, each with 4 and 8 disparities a lane
 * (JD_SGM_LANE_DISPARITIES), and on the dataset pairs; no device or pinned
 * allocation after boot; and stage by stage (census, each path direction with its costs) so
 * that a failure names its stage. Without a GPU it prints why and exits 77 (skipped).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../algo/cuda/sgm_launch.h"
#include "cuda/sgm_cuda.h"
#include "gpu_util.h"
#include "jd_test_data.h"
#include "matcher.h"
#include "prefilter.h"
#include "image_io.h"
#include "sgm.h"
#include "workers.h"

/* First element where the device's summands (a slice, and min t where it holds levels) and ref
 * differ, or -1; *got the device's. */
static long first_diff(const struct jd_cuda_sgm *s, int levels, const uint8_t *dev,
		       const uint8_t *mt, const uint16_t *ref, int nd, size_t npix, int *got)
{
	for (size_t i = 0; i < npix; i++) {
		for (int d = 0; d < nd; d++) {
			*got = jd_cuda_sgm_summand(s, levels, dev, mt, i, d);
			if (*got != ref[i * nd + d]) {
				return (long)(i * nd + d);
			}
		}
	}
	return -1;
}

/*
 * Stage by stage after a frame of (l, r), so that a failure names the stage: the census of
 * both images, then each path direction alone (its matching costs made in the kernel from
 * the census; its slice of the path volume) against jd_sgm_path_ref() on the reference's cost
 * volume.
 * (The sums of all directions are the reference's, so a map that differs after them is the
 * selection's.) Directions only up to `paths_px` pixels, to keep the test short.
 */
static void stage_checks(const struct jd_match_params *p, const struct jd_image *l,
			 const struct jd_image *r, struct jd_cuda *cu, struct jd_cuda_sgm *s,
			 long paths_px)
{
	static const int d8[8][2] = JD_SGM_DIRS8, d4[4][2] = JD_SGM_DIRS4;
	int w = l->width, h = l->height, nd = p->ndisp, gs = jd_cuda_sgm_pixel_bytes(s);
	size_t n = (size_t)w * h, vol = n * nd;
	uint64_t *cl = malloc(8 * n), *cr = malloc(8 * n), *g = malloc(8 * n);
	uint8_t *cost = malloc(vol);
	long at;

	if (p->sgm.cost == JD_SGM_COST_CENSUS) {
		jd_census_ref(l, cl, NULL);
		jd_census_ref(r, cr, NULL);
		JD_CHECK(gpu_download(cu, g, s->d_cl, 8 * n) == 0, "%s", cu->err);
		JD_CHECK(memcmp(g, cl, 8 * n) == 0, "stage census (left) differs");
		JD_CHECK(gpu_download(cu, g, s->d_cr, 8 * n) == 0, "%s", cu->err);
		JD_CHECK(memcmp(g, cr, 8 * n) == 0, "stage census (right) differs");
	}
	jd_sgm_cost_ref(p, l, r, cl, cr, cost, NULL);
	if ((long)n <= paths_px) {
		uint16_t *ref = malloc(2 * vol);
		size_t mtn = (size_t)w * JD_SGM_MT_PITCH(h);
		uint8_t *dev = malloc(n * gs), *mt = malloc(mtn);
		void *ws = malloc(jd_sgm_path_mem_required(w, nd));

		for (int k = 0; k < p->sgm.paths; k++) {
			const int *dir = p->sgm.paths == 8 ? d8[k] : d4[k];
			size_t off, mt_off = 0;
			int levels = jd_cuda_sgm_slice_of(s, k, &off, &mt_off), got = 0;

			memset(ref, 0, 2 * vol);
			jd_sgm_path_ref(p, l, cost, dir[0], dir[1], ref, ws);
			JD_CHECK(jd_cuda_sgm_path_one(s, p, k) == 0 &&
				     gpu_download(cu, dev, s->d_vol + off,
						  levels ? n * gs / 2 : n * gs) == 0 &&
				     (!levels || gpu_download(cu, mt, s->d_vol + mt_off, mtn) == 0),
				 "%s", cu->err);
			at = first_diff(s, levels, dev, mt, ref, nd, n, &got);
			JD_CHECK(at < 0,
				 "stage path (%d, %d)%s %dx%d nd %d: element %ld ref %d gpu %d",
				 dir[0], dir[1], levels ? " (levels)" : "", w, h, nd, at,
				 at < 0 ? 0 : ref[at], got);
		}
		free(ref);
		free(dev);
		free(mt);
		free(ws);
	}
	free(cl);
	free(cr);
	free(g);
	free(cost);
}

static int compare(const struct jd_match_params *p, const struct jd_image *l,
		   const struct jd_image *r, const struct jd_exec *ex, const char *what)
{
	int w = l->width, h = l->height;
	static struct gpu_rig g;
	size_t n = jd_match_mem_required(p, w, h, jd_exec_workers(ex));
	void *ws = malloc(n);
	struct jd_disp a = {malloc(sizeof(float) * w * h), w, h, w};
	struct jd_disp b = {malloc(sizeof(float) * w * h), w, h, w};
	long first = -2;

	g = (struct gpu_rig){.p = p, .w = w, .h = h};
	if (gpu_rig_boot(&g, gpu_memory()) == 0) {
		JD_CHECK(jd_match_run(NULL, p, l, r, &a, ws, n, ex) == 0, "ref");
		first = gpu_rig_compare(&g, l, r, &a, &b);
		/* the stages see what the matcher sees: the ranked pair where p ranks */
		struct jd_image rl = *l, rr = *r;
		if (jd_prefilter_rank_on(p)) {
			rl.data = malloc((size_t)w * h);
			rr.data = malloc((size_t)w * h);
			rl.stride = rr.stride = w;
			jd_rank_ref(l, jd_rank_window(p), &rl, NULL);
			jd_rank_ref(r, jd_rank_window(p), &rr, NULL);
		}
		stage_checks(p, &rl, &rr, &g.cu, &g.m.u.sgm, 100000);
		if (rl.data != l->data) {
			free(rl.data);
			free(rr.data);
		}
	}
	JD_CHECK(first == -1,
		 "%s %dx%d nd %d min %d cost %d paths %d p2adapt %d uniq %d sub %d lr %d: "
		 "pixel %ld ref %g gpu %g (%s)",
		 what, w, h, p->ndisp, p->min_disp, p->sgm.cost, p->sgm.paths, p->sgm.p2_adapt,
		 p->sgm.uniqueness, p->sgm.subpixel, p->sgm.lr_check, first,
		 first >= 0 ? a.data[first] : 0.0, first >= 0 ? b.data[first] : 0.0, g.cu.err);
	jd_cuda_deinit(&g.cu);
	free(ws);
	free(a.data);
	free(b.data);
	return first == -1;
}

/* A dataset pair at its own disparity range. */
static void dataset_pair(void *ex, const char *name, const struct jd_test_pair *tp,
			 struct gpu_tally *t)
{
	struct jd_match_params p;

	jd_params_default(&p, JD_ALGO_SGM, tp->ndisp);
	gpu_count(t, compare(&p, &tp->l, &tp->r, ex, name));
}

int main(void)
{
	struct sgm_case {
		int w, h, nd, min_disp, ad, paths, p2_adapt, uniqueness, subpixel, lr_check;
	};
	/* clang-format off: one case a row */
	static const struct sgm_case cases[] = {
	    {.w = 311,
	     .h = 239,
	     .nd = 64,
	     .min_disp = 0,
	     .ad = 0,
	     .paths = 8,
	     .p2_adapt = 4,
	     .uniqueness = 5,
	     .subpixel = 1,
	     .lr_check = 1},
	    {.w = 97,
	     .h = 61,
	     .nd = 16,
	     .min_disp = 3,
	     .ad = 1,
	     .paths = 4,
	     .p2_adapt = 0,
	     .uniqueness = 0,
	     .subpixel = 0,
	     .lr_check = 1},
	    {.w = 33,
	     .h = 17,
	     .nd = 7,
	     .min_disp = 0,
	     .ad = 0,
	     .paths = 8,
	     .p2_adapt = 4,
	     .uniqueness = 15,
	     .subpixel = 1,
	     .lr_check = 0},
	    {.w = 5,
	     .h = 3,
	     .nd = 2,
	     .min_disp = 0,
	     .ad = 0,
	     .paths = 8,
	     .p2_adapt = 4,
	     .uniqueness = 5,
	     .subpixel = 1,
	     .lr_check = 1},
	    {.w = 640,
	     .h = 480,
	     .nd = 128,
	     .min_disp = 0,
	     .ad = 0,
	     .paths = 8,
	     .p2_adapt = 4,
	     .uniqueness = 5,
	     .subpixel = 1,
	     .lr_check = 1},
	    {.w = 600,
	     .h = 40,
	     .nd = 512,
	     .min_disp = 0,
	     .ad = 0,
	     .paths = 8,
	     .p2_adapt = 4,
	     .uniqueness = 5,
	     .subpixel = 1,
	     .lr_check = 1},
	    {.w = 200,
	     .h = 100,
	     .nd = 33,
	     .min_disp = 1,
	     .ad = 1,
	     .paths = 8,
	     .p2_adapt = 2,
	     .uniqueness = 0,
	     .subpixel = 1,
	     .lr_check = 1},
	};
	/* clang-format on */
	static const char *const pairs[] = {"tsukuba", "venus", "teddy", "cones",
					    "kitti2015_000000"};
	struct jd_workers wk;
	struct gpu_tally t = {0};

	gpu_require();
	jd_workers_init(&wk, 2);
	/* every case with both shapes of the kernels up to 256 disparities (4 and 8 a lane) */
	for (size_t i = 0; i < 2 * (sizeof(cases) / sizeof(cases[0])); i++) {
		struct jd_match_params p;
		struct jd_image l, r;
		size_t c = i % (sizeof(cases) / sizeof(cases[0]));

		setenv("JD_SGM_LANE_DISPARITIES", i < sizeof(cases) / sizeof(cases[0]) ? "4" : "8",
		       1);

		if (!gpu_case_pair(cases[c].w, cases[c].h, 1u + (unsigned)c, &l, &r)) {
			continue;
		}
		jd_params_default(&p, JD_ALGO_SGM, cases[c].nd);
		p.min_disp = cases[c].min_disp;
		p.sgm.cost = cases[c].ad ? JD_SGM_COST_AD : JD_SGM_COST_CENSUS;
		if (cases[c].ad) {
			p.sgm.p1 = 10;
			p.sgm.p2 = 120;
		}
		p.sgm.paths = cases[c].paths;
		p.sgm.p2_adapt = cases[c].p2_adapt;
		p.sgm.uniqueness = cases[c].uniqueness;
		p.sgm.subpixel = cases[c].subpixel;
		p.sgm.lr_check = cases[c].lr_check;
		p.prefilter = c % 3 == 2 ? JD_PREFILTER_RANK : JD_PREFILTER_AUTO; /* asked for */
		gpu_count(&t, compare(&p, &l, &r, &wk.exec, "random"));
		gpu_free_pair(&l, &r);
	}
	unsetenv("JD_SGM_LANE_DISPARITIES");
	gpu_each_pair(pairs, sizeof(pairs) / sizeof(pairs[0]), dataset_pair, &wk.exec, &t);
	printf("%d of %d cases identical to the reference\n", t.ok, t.total);
	jd_workers_deinit(&wk);
	return jd_test_done("gpu.cuda_sgm");
}
