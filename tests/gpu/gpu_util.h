/* Shared by the GPU tests: allocation counting through the driver table, test images. */
#ifndef JD_TESTS_GPU_UTIL_H
#define JD_TESTS_GPU_UTIL_H

#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "cuda.h"
#include "cuda/matcher_cuda.h"
#include "jd_status.h"
#include "image_io.h"
#include "jd_image.h"
#include "jd_test.h"
#include "jd_test_data.h"
#include "jd_test_images.h"

static unsigned long gpu_alloc_calls;
static jd_curesult (*gpu_real_alloc)(jd_cudeviceptr *, size_t);
static jd_curesult (*gpu_real_host_alloc)(void **, size_t, unsigned);

static inline jd_curesult gpu_count_alloc(jd_cudeviceptr *p, size_t n)
{
	gpu_alloc_calls++;
	return gpu_real_alloc(p, n);
}

static inline jd_curesult gpu_count_host_alloc(void **p, size_t n, unsigned f)
{
	gpu_alloc_calls++;
	return gpu_real_host_alloc(p, n, f);
}

/* From here on every device or pinned allocation through the table is counted. */
static inline void gpu_count_allocations(struct jd_cuda *cu)
{
	gpu_real_alloc = cu->api.cuMemAlloc_v2;
	gpu_real_host_alloc = cu->api.cuMemHostAlloc;
	cu->api.cuMemAlloc_v2 = gpu_count_alloc;
	cu->api.cuMemHostAlloc = gpu_count_host_alloc;
	gpu_alloc_calls = 0;
}

static inline void gpu_restore_allocations(struct jd_cuda *cu)
{
	cu->api.cuMemAlloc_v2 = gpu_real_alloc;
	cu->api.cuMemHostAlloc = gpu_real_host_alloc;
}

/*
 * $JD_GPU_QUICK: only the small random cases (no dataset pairs), for runs under
 * compute-sanitizer, which slows every kernel down by one or two orders of magnitude;
 * "tiny" keeps only those up to 25 000 pixels (racecheck, slower still).
 */
static inline int gpu_quick(void)
{
	const char *q = getenv("JD_GPU_QUICK");

	return q && *q && *q != '0';
}

/*
 * How the tests' frames reach the GPU: $JD_GPU_MEMORY=copy|mapped (tools/gpu.sh's tests part
 * runs them once more with mapped), else the device's default.
 */
static inline enum jd_gpu_memory gpu_memory(void)
{
	const char *m = getenv("JD_GPU_MEMORY");

	return !m			  ? JD_GPU_MEMORY_AUTO
	       : strcmp(m, "mapped") == 0 ? JD_GPU_MEMORY_MAPPED
	       : strcmp(m, "copy") == 0	  ? JD_GPU_MEMORY_COPY
					  : JD_GPU_MEMORY_AUTO;
}

/* Skip (exit 77, saying why) where no GPU answers; else name the GPU. */
static inline void gpu_require(void)
{
	struct jd_cuda probe;

	if (jd_cuda_open(&probe, JD_GPU_MEMORY_AUTO)) {
		JD_SKIP("no GPU: %s", probe.err);
	}
	printf("GPU: %s (sm_%d%d, %d SMs), driver %d, %s memory\n", probe.name, probe.cc_major,
	       probe.cc_minor, probe.sm_count, probe.driver_version,
	       jd_gpu_memory_name(gpu_memory()));
	jd_cuda_deinit(&probe);
}

/* Largest random case (pixels) the run takes. */
static inline long gpu_case_limit(void)
{
	const char *q = getenv("JD_GPU_QUICK");

	return !gpu_quick() ? (long)1 << 40 : strcmp(q, "tiny") == 0 ? 25000 : 100000;
}

/* Textured left image (jd_test_textured_image()); right = left shifted by 5 (true disparity 5
 * away from the edge). */
static inline void gpu_textured_pair(int w, int h, unsigned seed, struct jd_image *l,
				     struct jd_image *r)
{
	*l = jd_test_textured_image(w, h, w, seed);
	*r = (struct jd_image){malloc((size_t)w * h), w, h, w};
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			r->data[y * w + x] = l->data[y * w + (x + 5 < w ? x + 5 : x)];
		}
	}
}

/* The random case's pair (gpu_textured_pair()), or 0 where it is over gpu_case_limit(). */
static inline int gpu_case_pair(int w, int h, unsigned seed, struct jd_image *l, struct jd_image *r)
{
	if ((long)w * h > gpu_case_limit()) {
		return 0;
	}
	gpu_textured_pair(w, h, seed, l, r);
	return 1;
}

static inline void gpu_free_pair(struct jd_image *l, struct jd_image *r)
{
	free(l->data);
	free(r->data);
}

/* A test's comparisons: how many, how many identical. */
struct gpu_tally {
	int ok, total;
};

static inline void gpu_count(struct gpu_tally *t, int identical)
{
	t->ok += identical;
	t->total++;
}

/*
 * Each dataset pair named (jd_test_load_pair(): one not there is skipped, all of them with
 * $JD_GPU_QUICK) through one(ctx, its name, the pair, t), which compares and counts.
 */
typedef void (*gpu_pair_fn)(void *ctx, const char *name, const struct jd_test_pair *tp,
			    struct gpu_tally *t);
static inline void gpu_each_pair(const char *const *names, size_t n, gpu_pair_fn one, void *ctx,
				 struct gpu_tally *t)
{
	for (size_t i = 0; i < n && !gpu_quick(); i++) {
		struct jd_test_pair tp;

		if (jd_test_load_pair(names[i], 0, &tp)) {
			continue;
		}
		one(ctx, names[i], &tp, t);
		jd_test_free_pair(&tp);
	}
}

/* Copy device memory to the host once stream 0 has finished. @retval 0 or -EIO (cu->err) */
static inline int gpu_download(struct jd_cuda *cu, void *dst, jd_cudeviceptr src, size_t bytes)
{
	JD_TRY(JD_CU(cu, cuMemcpyDtoHAsync_v2(dst, src, bytes, cu->stream[0])));
	return JD_CU(cu, cuStreamSynchronize(cu->stream[0]));
}

/* Copy host memory to the device on stream 0 and wait. @retval 0 or -EIO (cu->err) */
static inline int gpu_upload(struct jd_cuda *cu, jd_cudeviceptr dst, const void *src, size_t bytes)
{
	JD_TRY(JD_CU(cu, cuMemcpyHtoDAsync_v2(dst, src, bytes, cu->stream[0])));
	return JD_CU(cu, cuStreamSynchronize(cu->stream[0]));
}

/* First pixel where two maps differ bitwise, or -1. */
static inline long gpu_first_diff(const struct jd_disp *a, const struct jd_disp *b)
{
	long at = jd_test_first_diff(a->data, b->data, sizeof(float) * a->width * a->height);

	return at < 0 ? -1 : at / (long)sizeof(float);
}

/*
 * A GPU context that holds one matcher and the stages asked for, sized by counting what they
 * take (jd_cuda_boot(), as boot does): set p, w, h, variant and stages, then gpu_rig_boot().
 */
struct gpu_rig {
	struct jd_cuda cu;
	struct jd_cuda_matcher m;
	const struct jd_match_params *p;
	int w, h;
	const char *variant; /* BP's message kernel (NULL: the default) */
	unsigned stages;     /* JD_CUDA_STAGE_* */
};

/* Boot and seal g->cu on memory mode mem. @retval 0, or the error (g->cu.err says why) */
static inline int gpu_rig_boot(struct gpu_rig *g, enum jd_gpu_memory mem)
{
	struct jd_cuda_matcher_carving k = {&g->m, g->p, g->w, g->h, g->variant, g->stages};
	int rc = jd_cuda_boot(&g->cu, mem, jd_cuda_matcher_carve, &k);

	if (!rc) {
		jd_cuda_seal(&g->cu);
	}
	return rc;
}

/*
 * The rig's map of l, r into b, alone and then pipelined (the swapped pair in flight ahead
 * of it, so that this upload overlaps those kernels), allocating nothing on the way.
 * @return the first pixel where either map differs from a, -1 for none, -2 when it failed
 */
static inline long gpu_rig_compare(struct gpu_rig *g, const struct jd_image *l,
				   const struct jd_image *r, const struct jd_disp *a,
				   struct jd_disp *b)
{
	struct jd_cuda_matcher *m = &g->m;

	gpu_count_allocations(&g->cu);
	int alone = jd_cuda_matcher_run(m, g->p, l, r, b) == 0;
	JD_CHECK(alone, "gpu: %s", g->cu.err);
	long first = alone ? gpu_first_diff(a, b) : -2;
	int piped = jd_cuda_matcher_submit(m, g->p, r, l) == 0 &&
		    jd_cuda_matcher_submit(m, g->p, l, r) == 0 &&
		    jd_cuda_matcher_collect(m, b) == 0 && jd_cuda_matcher_collect(m, b) == 0;
	JD_CHECK(piped, "gpu pipelined: %s", g->cu.err);
	JD_CHECK(gpu_alloc_calls == 0, "%lu allocations after boot", gpu_alloc_calls);
	gpu_restore_allocations(&g->cu);
	if (!alone || !piped) {
		return -2;
	}
	return first >= 0 ? first : gpu_first_diff(a, b); /* either way's first */
}

#endif
