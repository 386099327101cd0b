/*
 * The confidence stage on the GPU (hal/cuda/confidence_cuda.h) against jd_confidence_ref() on the
 * map the GPU matcher returned and the same pair: the same bytes, on awkward sizes, with and
 * without invalid pixels (SGM without fill, SAD with its left-right check), for SGM, SAD and
 * BP (census), the dataset pairs, and in the pipelined order (two frames in flight, each
 * frame's map collected with its own confidence). Beside it the preview's picture
 * (hal/cuda/preview_cuda.h) against jd_preview_compose_ref() on the same map, confidence and left
 * view: asked for once, only the next frame has it. And depth and the point cloud
 * (hal/cuda/cloud_cuda.h) against jd_depth_image_ref() and jd_point_cloud_ref() on the map masked
 * by that confidence, to the bit, with the sets' lending (claimed, held, given back, taken
 * back when not claimed). Without a GPU: exit 77.
 */
#include <stdio.h>
#include <string.h>

#include "confidence.h"
#include "cuda/cloud_cuda.h"
#include "depth.h"
#include "cuda/confidence_cuda.h"
#include "cuda/preview_cuda.h"
#include "preview_compose.h"
#include "gpu_util.h"
#include "jd_test_data.h"

/* The reference's bytes for map d of pair (l, r) and the GPU's: the first difference, or -1. */
static long first_diff(const struct jd_match_params *p, const struct jd_image *l,
		       const struct jd_image *r, const struct jd_disp *d, const unsigned char *gpu)
{
	struct jd_conf_search search = {p->min_disp, p->ndisp};
	int w = d->width, h = d->height;
	size_t n = jd_confidence_mem_required(w, h, 1);
	void *ws = malloc(n);
	uint8_t *ref = malloc((size_t)w * h);
	long first = -1;

	JD_CHECK(jd_confidence_ref(l, r, d, &search, ref, ws, n, NULL) == 0, "reference");
	for (long i = 0; i < (long)w * h && first < 0; i++) {
		if (ref[i] != gpu[i]) {
			first = i;
			printf("  pixel %ld (%ld, %ld): reference %d, gpu %d, disparity %g\n", i,
			       i % w, i / w, ref[i], gpu[i], (double)d->data[i]);
		}
	}
	free(ws);
	free(ref);
	return first;
}

/* The reference's picture for (l, d, conf) and the GPU's: the first difference, or -1. */
static long picture_diff(const struct jd_image *l, const struct jd_disp *d,
			 const unsigned char *conf, int min_conf, float dmax, const uint8_t *gpu)
{
	int step = jd_preview_step(l->width), pw = jd_preview_scaled(l->width, step);
	size_t n = (size_t)6 * pw * jd_preview_scaled(l->height, step);
	uint8_t *ref = malloc(n);
	long first = -1;

	jd_preview_compose_ref(l, d, conf, min_conf, dmax, step, ref);
	for (long i = 0; i < (long)n && first < 0; i++) {
		first = ref[i] != gpu[i] ? i : -1;
	}
	if (first >= 0) {
		long px = first / 3 % ((long)2 * pw), y = first / 3 / ((long)2 * pw);
		printf("  picture byte %ld (x %ld of %d, y %ld; step %d): reference %d, gpu %d\n",
		       first, px, 2 * pw, y, step, ref[first], gpu[first]);
	}
	free(ref);
	return first;
}

static long cloud_points; /* over every case: the clouds compared were not all empty */

/*
 * The reference's depth and cloud for map d (masked here by conf below min_conf) and left
 * view l against the set the GPU made: 1 when every bit agrees.
 */
static int cloud_same(const struct jd_image *l, const struct jd_disp *d, const unsigned char *conf,
		      int min_conf, const struct jd_camera_model *cam,
		      const struct jd_cuda_cloud_set *set, const char *what)
{
	int w = d->width, h = d->height, ok = 1;
	struct jd_disp m = {malloc(sizeof(float) * w * h), w, h, w};
	float *depth = malloc(sizeof(float) * w * h);
	float *pts = malloc(sizeof(float) * JD_CLOUD_POINT_FLOATS * w * h);

	JD_CHECK(set != NULL, "%s: no depth and cloud for a frame that wanted them", what);
	if (set) {
		memcpy(m.data, d->data, sizeof(float) * w * h);
		jd_confidence_mask(&m, conf, min_conf);
		jd_depth_image_ref(&m, jd_fb_metres(cam), depth);
		long n = jd_point_cloud_ref(&m, l, cam, jd_fb_metres(cam), pts);
		JD_CHECK(set->made == (JD_CUDA_CLOUD_DEPTH | JD_CUDA_CLOUD_POINTS), "%s: made %d",
			 what, set->made);
		ok = memcmp(depth, set->depth, sizeof(float) * w * h) == 0;
		JD_CHECK(ok, "%s %dx%d: the depth image differs", what, w, h);
		JD_CHECK(*set->npoints == n, "%s %dx%d: %d points, the reference %ld", what, w, h,
			 *set->npoints, n);
		int same = *set->npoints == n &&
			   memcmp(pts, set->points, sizeof(float) * JD_CLOUD_POINT_FLOATS * n) == 0;
		JD_CHECK(same, "%s %dx%d: the cloud differs", what, w, h);
		ok &= same;
		cloud_points += n;
	}
	free(m.data);
	free(depth);
	free(pts);
	return ok;
}

/* One matcher on one pair: a frame, then two in flight. @return 1 when every byte agrees */
static int check(const struct jd_match_params *p, const struct jd_image *l,
		 const struct jd_image *r, const char *what)
{
	int w = l->width, h = l->height, ok = 1;
	static struct gpu_rig g;
	struct jd_cuda *cu = &g.cu;
	struct jd_cuda_matcher *m = &g.m;
	struct jd_disp a = {malloc(sizeof(float) * w * h), w, h, w};
	struct jd_disp b = {malloc(sizeof(float) * w * h), w, h, w};
	unsigned char *ca = malloc((size_t)w * h);
	int min_conf = (w + h) % 90;		     /* 0 for some sizes: nothing distrusted */
	float dmax = w % 2 ? (float)p->ndisp : 0.0f; /* 0: the colour map is black */
	/* a camera whose principal point is off the middle, a baseline of 60 mm */
	struct jd_camera_model cam = {0.9f * (float)w, 0.45f * (float)w, 0.55f * (float)h, 60.0f};

	g = (struct gpu_rig){.p = p,
			     .w = w,
			     .h = h,
			     .stages =
				 JD_CUDA_STAGE_CONF | JD_CUDA_STAGE_PREVIEW | JD_CUDA_STAGE_CLOUD};
	int rc = gpu_rig_boot(&g, gpu_memory());
	JD_CHECK(rc == 0, "%s: boot: %s", what, cu->err);
	if (rc == 0) {
		struct jd_cuda_frame *f = m->frame;

		gpu_count_allocations(cu);
		JD_CHECK(jd_cuda_matcher_submit(m, p, l, r) == 0 &&
			     jd_cuda_matcher_collect(m, &a) == 0 && jd_cuda_conf_last(f),
			 "%s: frame: %s", what, cu->err);
		ok &= first_diff(p, l, r, &a, jd_cuda_conf_last(f)) < 0;
		JD_CHECK(!jd_cuda_preview_last(f), "%s: a picture nobody asked for", what);
		JD_CHECK(!jd_cuda_cloud_claim(f), "%s: a cloud nobody asked for", what);
		/* pipelined: the swapped pair, then this one; each map with its own confidence;
		 * a picture asked for once: the first frame only; depth and the cloud for each */
		jd_cuda_preview_want(f, min_conf, dmax);
		jd_cuda_cloud_want(f, JD_CUDA_CLOUD_DEPTH | JD_CUDA_CLOUD_POINTS, min_conf, &cam);
		JD_CHECK(jd_cuda_matcher_submit(m, p, r, l) == 0 &&
			     jd_cuda_matcher_submit(m, p, l, r) == 0 &&
			     jd_cuda_matcher_collect(m, &b) == 0,
			 "%s: pipelined: %s", what, cu->err);
		memcpy(ca, jd_cuda_conf_last(f), (size_t)w * h);
		ok &= first_diff(p, r, l, &b, ca) < 0;
		const uint8_t *pic = jd_cuda_preview_last(f);
		JD_CHECK(pic != NULL, "%s: the picture asked for is missing", what);
		int pic_ok = pic && picture_diff(r, &b, ca, min_conf, dmax, pic) < 0;
		JD_CHECK(pic_ok, "%s %s %dx%d (min_conf %d, dmax %g): the picture differs", what,
			 jd_algo_name(p->algo), w, h, min_conf, (double)dmax);
		ok &= pic_ok;
		struct jd_cuda_cloud_set *set = jd_cuda_cloud_claim(f);
		ok &= cloud_same(r, &b, ca, min_conf, &cam, set, what);
		JD_CHECK(jd_cuda_matcher_collect(m, &b) == 0, "%s: second: %s", what, cu->err);
		ok &= first_diff(p, l, r, &b, jd_cuda_conf_last(f)) < 0;
		ok &= cloud_same(l, &b, jd_cuda_conf_last(f), min_conf, &cam,
				 jd_cuda_cloud_claim(f), what);
		jd_cuda_cloud_release(set);
		JD_CHECK(!jd_cuda_preview_last(f), "%s: the second frame has a picture too", what);
		JD_CHECK(gpu_alloc_calls == 0, "%lu allocations after boot", gpu_alloc_calls);
		gpu_restore_allocations(cu);
	}
	JD_CHECK(ok, "%s %s %dx%d: the confidence differs from the reference", what,
		 jd_algo_name(p->algo), w, h);
	jd_cuda_deinit(cu);
	free(a.data);
	free(b.data);
	free(ca);
	return ok;
}

/*
 * The sets' lending: each frame gets one while one is free; a claimed set stays lent until
 * given back; an unclaimed one is free again at the next collect; only what is wanted is made.
 */
static void check_lending(void)
{
	enum { W = 64, H = 48 };
	static struct gpu_rig g;
	struct jd_cuda *cu = &g.cu;
	struct jd_match_params p;
	struct jd_image l, r;
	struct jd_disp d = {malloc(sizeof(float) * W * H), W, H, W};
	struct jd_camera_model cam = {50.0f, 31.5f, 23.5f, 60.0f};
	struct jd_cuda_cloud_set *held[JD_CUDA_CLOUD_SETS];

	jd_params_default(&p, JD_ALGO_SGM, 16);
	gpu_textured_pair(W, H, 11u, &l, &r);
	g = (struct gpu_rig){
	    .p = &p, .w = W, .h = H, .stages = JD_CUDA_STAGE_CONF | JD_CUDA_STAGE_CLOUD};
	int rc = gpu_rig_boot(&g, gpu_memory());
	JD_CHECK(rc == 0, "lending: boot: %s", cu->err);
	if (rc == 0) {
		struct jd_cuda_frame *f = g.m.frame;
		jd_cuda_cloud_want(f, JD_CUDA_CLOUD_POINTS, 0, &cam);
		for (int k = 0; k < JD_CUDA_CLOUD_SETS; k++) {
			JD_CHECK(jd_cuda_matcher_run(&g.m, &p, &l, &r, &d) == 0,
				 "lending: frame %d: %s", k, cu->err);
			held[k] = jd_cuda_cloud_claim(f);
			JD_CHECK(held[k] && held[k]->made == JD_CUDA_CLOUD_POINTS,
				 "lending: frame %d: no set, or not the points alone", k);
			JD_CHECK(!jd_cuda_cloud_claim(f), "lending: a set claimed twice");
		}
		JD_CHECK(jd_cuda_matcher_run(&g.m, &p, &l, &r, &d) == 0 && !jd_cuda_cloud_claim(f),
			 "lending: a set given with every set lent");
		jd_cuda_cloud_release(held[0]);
		JD_CHECK(jd_cuda_matcher_run(&g.m, &p, &l, &r, &d) == 0 &&
			     jd_cuda_cloud_claim(f) == held[0],
			 "lending: the set given back is not given again");
		jd_cuda_cloud_release(held[0]);
		/* not claimed: it is free again at the next collect, not before */
		JD_CHECK(jd_cuda_matcher_run(&g.m, &p, &l, &r, &d) == 0, "lending: %s", cu->err);
		JD_CHECK(jd_cuda_matcher_run(&g.m, &p, &l, &r, &d) == 0 && !jd_cuda_cloud_claim(f),
			 "lending: a set given while the last frame's was not taken back");
		JD_CHECK(jd_cuda_matcher_run(&g.m, &p, &l, &r, &d) == 0 &&
			     jd_cuda_cloud_claim(f) == held[0],
			 "lending: the unclaimed set is not free again after the next collect");
		jd_cuda_cloud_want(f, 0, 0, &cam);
		for (int k = 1; k < JD_CUDA_CLOUD_SETS; k++) {
			jd_cuda_cloud_release(held[k]);
		}
		JD_CHECK(jd_cuda_matcher_run(&g.m, &p, &l, &r, &d) == 0 && !jd_cuda_cloud_claim(f),
			 "lending: made with nothing wanted");
	}
	jd_cuda_deinit(cu);
	free(d.data);
	free(l.data);
	free(r.data);
}

/* A dataset pair at its own disparity range, matched by SGM and by BP. */
static void dataset_pair(void *ctx, const char *name, const struct jd_test_pair *tp,
			 struct gpu_tally *t)
{
	struct jd_match_params p;

	(void)ctx;
	jd_params_default(&p, JD_ALGO_SGM, tp->ndisp);
	gpu_count(t, check(&p, &tp->l, &tp->r, name));
	jd_params_default(&p, JD_ALGO_BP, tp->ndisp);
	gpu_count(t, check(&p, &tp->l, &tp->r, name));
}

int main(void)
{
	static const int sizes[][3] = {{97, 61, 16}, {5, 4, 2}, {320, 240, 64}, {641, 37, 32}};
	static const char *const pairs[] = {"tsukuba", "teddy"};
	struct gpu_tally t = {0};

	gpu_require();
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct jd_image l, r;

		gpu_textured_pair(sizes[i][0], sizes[i][1], 5u + (unsigned)i, &l, &r);
		for (int algo = 0; algo < 4; algo++) {
			struct jd_match_params p;

			jd_params_default(&p,
					  algo == 3   ? JD_ALGO_BP
					  : algo == 2 ? JD_ALGO_SAD
						      : JD_ALGO_SGM,
					  sizes[i][2]);
			if (algo == 1) {
				p.sgm.fill = 0; /* the left-right check's rejects stay invalid */
			}
			if (algo == 2 && p.sad.window > sizes[i][1]) {
				continue;
			}
			gpu_count(&t, check(&p, &l, &r, "random"));
		}
		free(l.data);
		free(r.data);
	}
	gpu_each_pair(pairs, sizeof(pairs) / sizeof(pairs[0]), dataset_pair, NULL, &t);
	JD_CHECK(cloud_points > 0, "every cloud compared was empty");
	check_lending();
	printf("%d of %d cases identical to the reference (confidence, picture, depth and "
	       "cloud; %ld points)\n",
	       t.ok, t.total, cloud_points);
	return jd_test_done("gpu.cuda_confidence");
}
