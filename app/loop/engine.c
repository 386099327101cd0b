#include "engine.h"

#include <errno.h>
#include <stdio.h>

#include "../../algo/jd_status.h"
#include "../../algo/match/matcher.h"
#include "../../hal/cuda/confidence_cuda.h"
#include "../../hal/cuda/preview_cuda.h"
#include "../../hal/cuda/rectify_cuda.h"

/* The matcher's frame staging, where the GPU matches; else NULL. */
static struct jd_cuda_frame *gpu_frame(struct jd_engine *b)
{
	return b->gpu ? b->matcher.frame : NULL;
}

/*
 * The frame staging where whole frames go to the GPU. With strips, none (the stages beside
 * it were not taken: each strip would make its own that the CPU then does not use); NULL.
 */
static struct jd_cuda_frame *whole_frame(struct jd_engine *b)
{
	return b->tiling.n == 1 ? gpu_frame(b) : NULL;
}

/* The frame staging when whole frames go to the GPU and it lends them; else NULL. */
static struct jd_cuda_frame *lending_frame(struct jd_engine *b)
{
	struct jd_cuda_frame *f = whole_frame(b);

	return f && f->lend ? f : NULL;
}

static int gpu_failed(struct jd_engine *b, int rc)
{
	if (rc) {
		fprintf(stderr, "jetdepth: gpu: %s\n", b->cuda.err);
	}
	return rc;
}

int jd_engine_rectify_on_gpu(struct jd_engine *b, const struct jd_remap map[2])
{
	if (!b->gpu_rectify) {
		return -ENOTSUP;
	}
	int rc = jd_cuda_remap_load(&b->cuda, gpu_frame(b), map, &b->left, &b->right);
	if (rc) {
		fprintf(stderr, "jetdepth: boot: gpu: %s\n", b->cuda.err);
	}
	return rc;
}

/* A tiled frame, start to end (submit does it all; collect then returns at once). */
static int match_tiled(struct jd_engine *b, const struct jd_match_params *p)
{
	if (!b->gpu) {
		return jd_match_run_tiled(&b->kernels, p, &b->tiling, &b->left, &b->right, &b->disp,
					  &b->strip, b->ws, b->ws_bytes, &b->workers.exec);
	}
	float kernel_ms = 0.0f;
	for (int i = 0; i < b->tiling.n; i++) {
		struct jd_image l, r;

		jd_tiling_views(&b->tiling, i, &b->left, &b->right, &l, &r);
		JD_TRY(gpu_failed(b, jd_cuda_matcher_run(&b->matcher, p, &l, &r, &b->strip)));
		kernel_ms += b->cuda.last_kernel_ms;
		jd_tiling_copy_core(&b->tiling, i, &b->strip, &b->disp);
	}
	b->cuda.last_kernel_ms = kernel_ms; /* the frame's, every strip's kernels */
	return 0;
}

int jd_engine_submit(struct jd_engine *b, const struct jd_match_params *p)
{
	int rc;

	if (b->tiling.n > 1 || !b->gpu) {
		if (b->cpu_pending) {
			return -EBUSY;
		}
		rc = b->tiling.n > 1 ? match_tiled(b, p)
				     : jd_match_run(&b->kernels, p, &b->left, &b->right, &b->disp,
						    b->ws, b->ws_bytes, &b->workers.exec);
		b->cpu_pending = rc == 0;
		return rc;
	}
	return gpu_failed(b, jd_cuda_matcher_submit(&b->matcher, p, &b->left, &b->right));
}

int jd_engine_collect(struct jd_engine *b)
{
	if (!whole_frame(b)) {
		if (!b->cpu_pending) {
			return -ENOENT;
		}
		b->cpu_pending = 0;
		return 0;
	}
	return gpu_failed(b, jd_cuda_matcher_collect(&b->matcher, &b->disp));
}

int jd_engine_match(struct jd_engine *b, const struct jd_match_params *p)
{
	JD_TRY(jd_engine_submit(b, p));
	return jd_engine_collect(b);
}

int jd_engine_depth(const struct jd_engine *b)
{
	return b->gpu && b->tiling.n == 1 ? JD_CUDA_SLOTS : 1;
}

int jd_engine_lend(struct jd_engine *b)
{
	struct jd_cuda_frame *f = whole_frame(b);

	if (f) {
		f->lend = 1;
	}
	return f != NULL;
}

int jd_engine_gpu_capture_into(struct jd_engine *b)
{
	struct jd_cuda_frame *f = lending_frame(b);
	/* a device that rectifies takes the raw pair (jd_engine_gpu_raw_into()) */
	struct jd_cuda_slot *s = f && !f->remap.loaded ? jd_cuda_frame_next(f) : NULL;

	if (!s) {
		return 0;
	}
	b->left = (struct jd_image){s->h_left, f->w, f->h, f->w};
	b->right = (struct jd_image){s->h_right, f->w, f->h, f->w};
	return 1;
}

int jd_engine_gpu_raw_into(struct jd_engine *b, unsigned char *data[2], size_t *cap)
{
	struct jd_cuda_frame *f = lending_frame(b);

	if (!f || !jd_cuda_frame_raw_next(f, 0)) {
		return 0;
	}
	data[0] = jd_cuda_frame_raw_next(f, 0);
	data[1] = jd_cuda_frame_raw_next(f, 1);
	*cap = JD_CUDA_RAW_BPP * (size_t)f->w * f->h;
	return 1;
}

int jd_engine_gpu_raw_staged(struct jd_engine *b, const enum jd_pixfmt fmt[2])
{
	struct jd_cuda_frame *f = lending_frame(b);

	return f ? jd_cuda_frame_raw_staged(f, fmt) : -EINVAL;
}

void jd_engine_bring_back(struct jd_engine *b, unsigned what)
{
	struct jd_cuda_frame *f = whole_frame(b);

	if (f) {
		jd_cuda_frame_bring_back(f, what);
	}
}

unsigned jd_engine_on_host(struct jd_engine *b)
{
	struct jd_cuda_frame *f = whole_frame(b);

	return f ? jd_cuda_frame_on_host(f) : JD_CUDA_BACK_ALL;
}

int jd_engine_gpu_makes_confidence(struct jd_engine *b)
{
	struct jd_cuda_frame *f = whole_frame(b);

	return f && f->conf.taken;
}

int jd_engine_gpu_pair(struct jd_engine *b, struct jd_image *l, struct jd_image *r)
{
	const struct jd_cuda_frame *f = gpu_frame(b);
	unsigned char *pl = f ? jd_cuda_frame_rectified(f, 0) : NULL;

	if (!pl) {
		return 0;
	}
	*l = (struct jd_image){pl, f->w, f->h, f->w};
	*r = (struct jd_image){jd_cuda_frame_rectified(f, 1), f->w, f->h, f->w};
	return 1;
}

const uint8_t *jd_engine_gpu_confidence(struct jd_engine *b)
{
	return b->gpu ? jd_cuda_conf_last(gpu_frame(b)) : NULL; /* NULL: not taken */
}

int jd_engine_gpu_preview_want(struct jd_engine *b, int min_conf, float dmax)
{
	struct jd_cuda_frame *f = whole_frame(b);

	if (!f || !f->picture.taken) {
		return 0;
	}
	jd_cuda_preview_want(f, min_conf, dmax);
	return 1;
}

uint8_t *jd_engine_gpu_preview(struct jd_engine *b)
{
	return b->gpu ? jd_cuda_preview_last(gpu_frame(b)) : NULL;
}

int jd_engine_gpu_cloud_want(struct jd_engine *b, int what, int min_conf,
			     const struct jd_camera_model *cam)
{
	struct jd_cuda_frame *f = whole_frame(b);

	if (!f || !f->cloud) {
		return 0;
	}
	jd_cuda_cloud_want(f, what, min_conf, cam);
	return 1;
}

struct jd_cuda_cloud_set *jd_engine_gpu_cloud(struct jd_engine *b)
{
	return b->gpu ? jd_cuda_cloud_claim(gpu_frame(b)) : NULL;
}

int jd_engine_gpu_sense_start(struct jd_engine *b, int min_conf, int mask_map)
{
	if (!b->gpu || !b->matcher.sense.taken) {
		return 0;
	}
	jd_cuda_sense_start(&b->matcher.sense, min_conf, mask_map);
	return 1;
}

int jd_engine_gpu_sense(struct jd_engine *b, const struct jd_sense_params *sp,
			const struct jd_camera_model *cam, void *ws, size_t ws_bytes,
			struct jd_sense_result *out)
{
	int rc = jd_cuda_sense_run(&b->cuda, &b->matcher.sense, sp, cam, ws, ws_bytes, out,
				   &b->workers.exec);

	if (rc == -EIO || rc == -ENOENT) {
		fprintf(stderr, "jetdepth: gpu: sensing: %s\n", b->cuda.err);
	}
	return rc;
}
