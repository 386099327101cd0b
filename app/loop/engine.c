#include "engine.h"

#include <errno.h>
#include <stdio.h>

#include "../../algo/jd_status.h"
#include "../../algo/match/matcher.h"
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

int jd_engine_destinations(struct jd_engine *b, struct jd_engine_dest dest[JD_CUDA_SLOTS],
			   int *first)
{
	struct jd_cuda_frame *f = lending_frame(b);

	*first = 0;
	if (!f) {
		dest[0] = (struct jd_engine_dest){{b->left, b->right}, {NULL, NULL}, 0};
		return 1;
	}
	*first = jd_cuda_frame_next_index(f);
	for (int k = 0; k < JD_CUDA_SLOTS; k++) {
		struct jd_cuda_slot *s = &f->slot[k];
		int raw = f->remap.loaded; /* the device takes each view as the camera gave it */

		dest[k] = (struct jd_engine_dest){
		    {{s->h_left, f->w, f->h, f->w}, {s->h_right, f->w, f->h, f->w}},
		    {raw ? f->remap.h_raw[k][0] : NULL, raw ? f->remap.h_raw[k][1] : NULL},
		    raw ? JD_CUDA_RAW_BPP * (size_t)f->w * f->h : 0};
	}
	return JD_CUDA_SLOTS;
}

int jd_engine_submit_frame(struct jd_engine *b, const struct jd_match_params *p,
			   const struct jd_engine_dest *dest, const enum jd_pixfmt raw_fmt[2])
{
	struct jd_cuda_frame *f = lending_frame(b);

	const struct jd_cuda_slot *next = f ? jd_cuda_frame_next(f) : NULL;

	if (f && !next) {
		return -EBUSY;
	}
	if (next && dest->pair[0].data != next->h_left) {
		return -EINVAL; /* not the slot this frame goes into (jd_engine_destinations()) */
	}
	if (raw_fmt && (!f || jd_cuda_frame_raw_staged(f, raw_fmt))) {
		return -EINVAL;
	}
	b->left = dest->pair[0]; /* the slot's own: upload finds the pair packed there */
	b->right = dest->pair[1];
	return jd_engine_submit(b, p);
}

void jd_engine_bring_back(struct jd_engine *b, unsigned what)
{
	struct jd_cuda_frame *f = whole_frame(b);

	if (f) {
		jd_cuda_frame_bring_back(f, what);
	}
}

void jd_engine_collected(struct jd_engine *b, struct jd_engine_frame *out)
{
	struct jd_cuda_frame *f = whole_frame(b);
	unsigned on_host = f ? jd_cuda_frame_on_host(f) : JD_CUDA_BACK_ALL;

	out->map = on_host & JD_CUDA_BACK_MAP ? &b->disp : NULL;
	out->conf = jd_engine_gpu_result(b, JD_CUDA_STAGE_CONF);
	if (!f || !f->lend) {
		/* one frame at a time, or copied out: the engine's own images hold it */
		out->pair[0] = b->left;
		out->pair[1] = b->right;
		out->has_pair = (on_host & JD_CUDA_BACK_PAIR) != 0;
		return;
	}
	out->has_pair = jd_cuda_frame_rectified(f, 0) != NULL;
	out->pair[0] = (struct jd_image){jd_cuda_frame_rectified(f, 0), f->w, f->h, f->w};
	out->pair[1] = (struct jd_image){jd_cuda_frame_rectified(f, 1), f->w, f->h, f->w};
}

int jd_engine_gpu_ask(struct jd_engine *b, unsigned stage, const struct jd_cuda_ask *a)
{
	return jd_cuda_stage_ask(whole_frame(b), stage, a);
}

void *jd_engine_gpu_result(struct jd_engine *b, unsigned stage)
{
	struct jd_cuda_frame *f = whole_frame(b);

	return f ? jd_cuda_stage_result(f, stage) : NULL;
}

int jd_engine_gpu_sense(struct jd_engine *b, const struct jd_sense_params *sp,
			const struct jd_camera_model *cam, void *ws, size_t ws_bytes,
			struct jd_sense_result *out)
{
	int rc = jd_cuda_sense_run(&b->cuda, &b->matcher.rooms.sense, sp, cam, ws, ws_bytes, out,
				   &b->workers.exec);

	if (rc == -EIO || rc == -ENOENT) {
		fprintf(stderr, "jetdepth: gpu: sensing: %s\n", b->cuda.err);
	}
	return rc;
}
