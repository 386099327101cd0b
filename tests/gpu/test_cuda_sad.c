/*
 * The CUDA SAD matcher against jd_sad_ref(): identical disparity maps (memcmp) on awkward
 * sizes, windows, disparity ranges and options, and on the dataset pairs; and no device or
 * pinned allocation after boot (the driver's allocation entries are counted through the
 * dlsym'd table). Without a GPU it prints why and exits 77 (skipped).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "cuda_sad.h"
#include "image_io.h"
#include "jd_test.h"
#include "matcher.h"
#include "sad.h"
#include "workers.h"

static unsigned long alloc_calls;
static jd_curesult (*real_alloc)(jd_cudeviceptr *, size_t);
static jd_curesult (*real_host_alloc)(void **, size_t, unsigned);

static jd_curesult count_alloc(jd_cudeviceptr *p, size_t n)
{
	alloc_calls++;
	return real_alloc(p, n);
}

static jd_curesult count_host_alloc(void **p, size_t n, unsigned f)
{
	alloc_calls++;
	return real_host_alloc(p, n, f);
}

static struct jd_image textured(int w, int h, int stride, unsigned seed)
{
	struct jd_image im = {malloc((size_t)stride * h), w, h, stride};

	for (int y = 0; y < h; y++) {
		for (int x = 0; x < stride; x++) {
			im.data[y * stride + x] =
			    (uint8_t)((x * 7 + y * 3) % 97 * 2 + (jd_test_rand(&seed) >> 28));
		}
	}
	return im;
}

/* GPU and reference on one pair; returns 1 when identical. */
static int compare(const struct jd_match_params *p, const struct jd_image *l,
		   const struct jd_image *r, const struct jd_exec *ex, const char *what)
{
	int w = l->width, h = l->height;
	struct jd_cuda cu;
	struct jd_cuda_sad s;
	size_t n = jd_sad_mem_required(p, w, h, jd_exec_workers(ex));
	void *ws = malloc(n);
	float *raw = malloc(sizeof(float) * w * h);
	struct jd_disp a = {malloc(sizeof(float) * w * h), w, h, w};
	struct jd_disp b = {malloc(sizeof(float) * w * h), w, h, w};
	int same = 0, rc;

	rc = jd_cuda_init(&cu, jd_cuda_sad_device_bytes(w, h), jd_cuda_sad_pinned_bytes(w, h));
	JD_CHECK(rc == 0, "cuda init: %s", cu.err);
	if (rc == 0) {
		JD_CHECK(jd_cuda_sad_init(&s, &cu, p, w, h, raw) == 0, "sad init: %s", cu.err);
		jd_cuda_seal(&cu);
		real_alloc = cu.api.cuMemAlloc_v2;
		real_host_alloc = cu.api.cuMemHostAlloc;
		cu.api.cuMemAlloc_v2 = count_alloc;
		cu.api.cuMemHostAlloc = count_host_alloc;
		alloc_calls = 0;
		JD_CHECK(jd_sad_ref(p, l, r, &a, ws, n, ex) == 0, "ref");
		for (int run = 0; run < 3; run++) {
			JD_CHECK(jd_cuda_sad_run(&s, p, l, r, &b, ex) == 0, "gpu: %s", cu.err);
		}
		JD_CHECK(alloc_calls == 0, "%lu allocations after boot", alloc_calls);
		long first = -1;
		for (int y = 0; y < h && first < 0; y++) {
			if (memcmp(jd_disp_row(&a, y), jd_disp_row(&b, y), sizeof(float) * w)) {
				for (int x = 0; x < w; x++) {
					if (memcmp(&a.data[y * w + x], &b.data[y * w + x], 4)) {
						first = (long)y * w + x;
						break;
					}
				}
			}
		}
		same = first < 0;
		JD_CHECK(same,
			 "%s %dx%d win %d nd %d min %d lr %d fill %d median %d: pixel %ld: "
			 "ref %g gpu %g",
			 what, w, h, p->sad.window, p->ndisp, p->min_disp, p->sad.lr_check,
			 p->sad.fill, p->sad.median, first, first >= 0 ? a.data[first] : 0.0,
			 first >= 0 ? b.data[first] : 0.0);
		cu.api.cuMemAlloc_v2 = real_alloc;
		cu.api.cuMemHostAlloc = real_host_alloc;
	}
	jd_cuda_deinit(&cu);
	free(ws);
	free(raw);
	free(a.data);
	free(b.data);
	return same;
}

int main(void)
{
	static const int cases[][7] = {
	    /* w, h, window, ndisp, min_disp, lr_check, median (fill follows lr) */
	    {311, 239, 11, 64, 0, 1, 1},   {640, 480, 11, 64, 0, 1, 1}, {97, 61, 5, 16, 3, 1, 0},
	    {33, 17, 3, 7, 0, 0, 0},	   {1, 1, 1, 1, 0, 0, 0},	{200, 50, 31, 100, 0, 1, 1},
	    {1242, 375, 11, 128, 0, 1, 1},
	};
	const char *data = getenv("JETDEPTH_DATA") ? getenv("JETDEPTH_DATA") : JD_DEFAULT_DATA;
	static const char *const pairs[] = {"tsukuba", "venus", "teddy", "cones",
					    "kitti2015_000000"};
	struct jd_cuda probe;
	struct jd_workers wk;
	int ok = 0, total = 0;

	if (jd_cuda_init(&probe, 0, 0)) {
		JD_SKIP("no GPU: %s", probe.err);
	}
	printf("GPU: %s (sm_%d%d, %d SMs), driver %d\n", probe.name, probe.cc_major, probe.cc_minor,
	       probe.sm_count, probe.driver_version);
	jd_cuda_deinit(&probe);
	jd_workers_init(&wk, 2);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct jd_match_params p;
		int w = cases[i][0], h = cases[i][1];
		struct jd_image l = textured(w, h, w, 1u + i), r = textured(w, h, w, 1u + i);

		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++) {
				r.data[y * w + x] = l.data[y * w + (x + 5 < w ? x + 5 : x)];
			}
		}
		jd_params_default(&p, JD_ALGO_SAD, cases[i][3]);
		p.sad.window = cases[i][2];
		p.min_disp = cases[i][4];
		p.sad.lr_check = p.sad.fill = cases[i][5];
		p.sad.median = cases[i][6];
		ok += compare(&p, &l, &r, &wk.exec, "random");
		total++;
		free(l.data);
		free(r.data);
	}
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		char path[1024], err[512];
		struct jd_image l, r;
		struct jd_match_params p;

		snprintf(path, sizeof(path), "%s/stereo/%s/left.pgm", data, pairs[i]);
		if (jd_image_read(path, &l, err, sizeof(err))) {
			printf("pair %s not checked: %s\n", pairs[i], err);
			continue;
		}
		snprintf(path, sizeof(path), "%s/stereo/%s/right.pgm", data, pairs[i]);
		JD_CHECK(jd_image_read(path, &r, err, sizeof(err)) == 0, "%s", err);
		jd_params_default(&p, JD_ALGO_SAD, i == 4 ? 128 : 64);
		ok += compare(&p, &l, &r, &wk.exec, pairs[i]);
		total++;
		free(l.data);
		free(r.data);
	}
	printf("%d of %d cases identical to the reference\n", ok, total);
	jd_workers_deinit(&wk);
	return jd_test_done("gpu.cuda_sad");
}
