/*
 * The CUDA BP matcher against the reference (jd_match_run(), the rank prefilter included):
 * the census cost (the default), raw and ranked pairs; in float storage and in fp16 storage
 * (both keep float arithmetic), with and without the sub-pixel fit: the same disparity map bit
 * for bit, on awkward sizes, every specialised disparity count and the generic path (up to
 * 512), minimum disparity, smoothing, fewer levels, and the dataset pairs; fp16 messages free
 * of inf and NaN at 256 and 512 disparities; the same map when another frame is in flight
 * ahead of it (the pipelined path); no device or pinned allocation after boot; and stage by
 * stage (every level's data costs, stored above level 0, then its messages) so that a failure
 * names its stage. Without a GPU: exit 77.
 */
#include <stdio.h>
#include <string.h>

#include "bp.h"
#include "cuda/bp_cuda.h"
#include "gpu_util.h"
#include "jd_test_data.h"
#include "matcher.h"
#include "image_io.h"
#include "workers.h"

/* Level-0 fp16 messages of the last frame: count halves that are inf or NaN. */
static long nonfinite_messages(struct jd_cuda *cu, const struct jd_cuda_bp *s)
{
	const struct jd_cuda_bp_level *l0 = &s->lv[0];
	size_t n = (size_t)2 * l0->h * s->nd * l0->hp * 4; /* halves in the four directions */
	uint16_t *m = malloc(2 * n);
	long bad = 0;

	JD_CHECK(m != NULL, "malloc");
	JD_CHECK(gpu_download(cu, m, l0->msg[0], 2 * n) == 0, "%s", cu->err);
	for (size_t i = 0; i < n; i++) {
		bad += (m[i] & 0x7c00u) == 0x7c00u;
	}
	free(m);
	return bad;
}

/*
 * First real element (not a sink slot) where a level's buffer differs from the reference's,
 * as "row y colour c d slot", or -1. es: bytes an element.
 */
static long level_diff(const uint8_t *dev, const uint8_t *ref, int w, int h, int hp, int nd, int es,
		       int *where)
{
	for (int y = 0; y < h; y++) {
		for (int c = 0; c < 2; c++) {
			int npix = (w - ((y + c) & 1) + 1) / 2;
			for (int d = 0; d < nd; d++) {
				size_t off = ((size_t)(2 * y + c) * nd + d) * hp + 1;
				if (memcmp(dev + off * es, ref + off * es, (size_t)npix * es)) {
					where[0] = y;
					where[1] = c;
					where[2] = d;
					return (long)off;
				}
			}
		}
	}
	return -1;
}

/*
 * Stage by stage after a frame, so that a failure names its stage: from the coarsest level
 * to level 0, the level's data costs (the pyramid), then its four messages after its
 * iterations (the message update); a map that differs after all of them is the selection's.
 */
static void stage_checks(const struct jd_match_params *p, const struct jd_image *l,
			 const struct jd_exec *ex, const void *ws, struct jd_cuda *cu,
			 const struct jd_cuda_bp *s)
{
	struct jd_bp_level_view v[JD_BP_LEVELS_MAX];
	int levels = jd_bp_levels(p, l->width, l->height, jd_exec_workers(ex), ws, v);
	int es = p->bp.fp16 ? 2 : 4, nd = p->ndisp;

	for (int lv = levels - 1; lv >= 0; lv--) {
		size_t bytes = (size_t)2 * v[lv].h * nd * v[lv].hp * es;
		uint8_t *dev = malloc(bytes);
		int where[3] = {0, 0, 0};
		static const char *const dir[4] = {"up", "down", "left", "right"};

		JD_CHECK(s->lv[lv].hp == v[lv].hp,
			 "level %d: %d slots on the GPU, %d in the reference", lv, s->lv[lv].hp,
			 v[lv].hp);
		/*
		 * where level 0's costs are made inside the kernels (up to 128 disparities), its
		 * messages and level 1's costs check them
		 */
		JD_CHECK(s->lv[lv].data || (lv == 0 && nd <= 128),
			 "level %d: data costs not stored", lv);
		if (s->lv[lv].data) {
			JD_CHECK(gpu_download(cu, dev, s->lv[lv].data, bytes) == 0, "%s", cu->err);
			JD_CHECK(
			    level_diff(dev, v[lv].data, v[lv].w, v[lv].h, v[lv].hp, nd, es, where) <
				0,
			    "stage data costs, level %d (%dx%d): row %d colour %d d %d differs", lv,
			    v[lv].w, v[lv].h, where[0], where[1], where[2]);
		}
		for (int k = 0; k < 4; k++) {
			JD_CHECK(gpu_download(cu, dev, s->lv[lv].msg[k], bytes) == 0, "%s",
				 cu->err);
			JD_CHECK(level_diff(dev, v[lv].msg[k], v[lv].w, v[lv].h, v[lv].hp, nd, es,
					    where) < 0,
				 "stage message update, level %d (%dx%d), messages from %s: row %d "
				 "colour %d d %d differs",
				 lv, v[lv].w, v[lv].h, dir[k], where[0], where[1], where[2]);
		}
		free(dev);
	}
}

static int compare(const struct jd_match_params *p, const struct jd_image *l,
		   const struct jd_image *r, const struct jd_exec *ex, const char *what,
		   const char *variant)
{
	int w = l->width, h = l->height;
	static struct gpu_rig g;
	const struct jd_cuda_bp *s = &g.m.u.bp;
	size_t n = jd_match_mem_required(p, w, h, jd_exec_workers(ex));
	void *ws = malloc(n);
	struct jd_disp a = {malloc(sizeof(float) * w * h), w, h, w};
	struct jd_disp b = {malloc(sizeof(float) * w * h), w, h, w};
	long first = -2, nonfinite = 0;

	g = (struct gpu_rig){.p = p, .w = w, .h = h, .variant = variant};
	if (gpu_rig_boot(&g, gpu_memory()) == 0) {
		JD_CHECK(!variant || strstr(s->iter_name, variant), "variant %s runs as %s",
			 variant, s->iter_name);
		JD_CHECK(jd_match_run(NULL, p, l, r, &a, ws, n, ex) == 0, "ref");
		first = gpu_rig_compare(&g, l, r, &a, &b);
		stage_checks(p, l, ex, jd_match_matcher_ws(p, w, h, ws), &g.cu, s);
		if (p->bp.fp16 && p->ndisp >= 256) {
			nonfinite = nonfinite_messages(&g.cu, s);
		}
	}
	JD_CHECK(first == -1,
		 "%s %dx%d nd %d min %d levels %d iters %d sigma %g fp16 %d subpixel %d (%s): "
		 "pixel %ld ref %g gpu %g (%s)",
		 what, w, h, p->ndisp, p->min_disp, p->bp.levels, p->bp.iters, p->bp.sigma,
		 p->bp.fp16, p->bp.subpixel, s->iter_name, first, first >= 0 ? a.data[first] : 0.0,
		 first >= 0 ? b.data[first] : 0.0, g.cu.err);
	JD_CHECK(nonfinite == 0, "%s nd %d fp16: %ld messages inf or NaN", what, p->ndisp,
		 nonfinite);
	jd_cuda_deinit(&g.cu);
	free(ws);
	free(a.data);
	free(b.data);
	return first == -1;
}

/* A dataset pair at its own disparity range, in float and in fp16. */
static void dataset_pair(void *ex, const char *name, const struct jd_test_pair *tp,
			 struct gpu_tally *t)
{
	for (int fp16 = 0; fp16 < 2; fp16++) {
		struct jd_match_params p;

		jd_params_default(&p, JD_ALGO_BP, tp->ndisp);
		p.bp.fp16 = fp16;
		p.bp.subpixel = fp16; /* the refinement on half of them */
		gpu_count(t, compare(&p, &tp->l, &tp->r, ex, name, NULL));
	}
}

int main(void)
{
	/* sigma10: --sigma times 10; iters 1: the parent-copy path */
	struct bp_case {
		int w, h, nd, min_disp, levels, sigma10, iters;
	};
	static const struct bp_case cases[] = {
	    {.w = 311, .h = 239, .nd = 16, .min_disp = 0, .levels = 5, .sigma10 = 0, .iters = 7},
	    {.w = 97, .h = 61, .nd = 32, .min_disp = 3, .levels = 4, .sigma10 = 0, .iters = 7},
	    {.w = 120, .h = 90, .nd = 64, .min_disp = 0, .levels = 5, .sigma10 = 10, .iters = 7},
	    {.w = 33, .h = 17, .nd = 7, .min_disp = 0, .levels = 3, .sigma10 = 0, .iters = 7},
	    {.w = 5, .h = 3, .nd = 2, .min_disp = 0, .levels = 1, .sigma10 = 0, .iters = 7},
	    {.w = 450, .h = 375, .nd = 128, .min_disp = 0, .levels = 5, .sigma10 = 0, .iters = 7},
	    {.w = 301, .h = 41, .nd = 256, .min_disp = 0, .levels = 3, .sigma10 = 0, .iters = 7},
	    {.w = 600, .h = 40, .nd = 512, .min_disp = 0, .levels = 3, .sigma10 = 0, .iters = 7},
	    {.w = 200, .h = 100, .nd = 45, .min_disp = 1, .levels = 5, .sigma10 = 0, .iters = 7},
	    {.w = 97, .h = 61, .nd = 32, .min_disp = 0, .levels = 4, .sigma10 = 0, .iters = 1},
	    {.w = 64, .h = 48, .nd = 16, .min_disp = 0, .levels = 3, .sigma10 = 0, .iters = 2},
	    {.w = 150, .h = 50, .nd = 48, .min_disp = 0, .levels = 4, .sigma10 = 0, .iters = 7},
	    {.w = 90, .h = 60, .nd = 32, .min_disp = 0, .levels = 4, .sigma10 = 8, .iters = 7},
	};
	static const enum jd_prefilter costs[] = {JD_PREFILTER_AUTO, JD_PREFILTER_NONE,
						  JD_PREFILTER_RANK}; /* census, raw, ranked */
	static const char *const pairs[] = {"tsukuba", "venus", "teddy", "cones"};
	struct jd_workers wk;
	struct gpu_tally t = {0};

	gpu_require();
	jd_workers_init(&wk, 2);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (int fp16 = 0; fp16 < 2; fp16++) {
			struct jd_match_params p;
			struct jd_image l, r;

			if (!gpu_case_pair(cases[i].w, cases[i].h, 1u + (unsigned)i, &l, &r)) {
				break;
			}
			jd_params_default(&p, JD_ALGO_BP, cases[i].nd);
			p.min_disp = cases[i].min_disp;
			p.bp.levels = cases[i].levels;
			p.bp.sigma = (float)cases[i].sigma10 / 10.0f;
			p.bp.iters = cases[i].iters;
			p.bp.fp16 = fp16;
			p.bp.subpixel = (int)(i + (size_t)fp16) % 2;
			p.prefilter = costs[i % 3];
			gpu_count(&t, compare(&p, &l, &r, &wk.exec, "random", NULL));
			gpu_free_pair(&l, &r);
		}
	}
	/* Every message-kernel variant in the fatbin (what `jetdepth tune` may choose). */
	static const int nds[] = {16, 32, 64, 128, 256};
	for (size_t i = 0; i < sizeof(nds) / sizeof(nds[0]); i++) {
		int w = nds[i] > 64 ? 301 : 97, h = nds[i] > 64 ? 41 : 61;

		for (int fp16 = 0; fp16 < 2 && (long)w * h <= gpu_case_limit(); fp16++) {
			char names[JD_CUDA_BP_VARIANTS_MAX][JD_CUDA_BP_VARIANT_LEN];
			int nv = jd_cuda_bp_variants(nds[i], names, JD_CUDA_BP_VARIANTS_MAX);

			for (int v = 0; v < nv; v++) {
				struct jd_match_params p;
				struct jd_image l, r;

				gpu_textured_pair(w, h, 40u + (unsigned)i, &l, &r);
				jd_params_default(&p, JD_ALGO_BP, nds[i]);
				p.bp.levels = 3;
				p.bp.fp16 = fp16;
				p.bp.subpixel = v % 2;
				/* the _h kernels' bound: half arithmetic at levels 0 and 1, not at
				 * 2 */
				p.bp.disc_k = v % 3 == 2 ? 40.0f : 0.0f;
				gpu_count(&t, compare(&p, &l, &r, &wk.exec, "variant", names[v]));
				gpu_free_pair(&l, &r);
			}
		}
	}
	gpu_each_pair(pairs, sizeof(pairs) / sizeof(pairs[0]), dataset_pair, &wk.exec, &t);
	printf("%d of %d cases identical to the reference\n", t.ok, t.total);
	jd_workers_deinit(&wk);
	return jd_test_done("gpu.cuda_bp");
}
