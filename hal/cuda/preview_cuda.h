/*
 * The preview's picture (algo/preview_compose.h) on the GPU, as a stage of the frame staging
 * (hal/cuda/frame_cuda.h): taken at boot beside the confidence, asked for while someone watches
 * (jd_cuda_preview_want()), composed by jd_cuda_frame_finish() after sensing and collected
 * with the map. The bytes are jd_preview_compose_ref()'s (tests/gpu).
 */
#ifndef JD_HAL_CUDA_PREVIEW_H
#define JD_HAL_CUDA_PREVIEW_H

#include "../../algo/preview_compose.h"
#include "frame_cuda.h"

/* The picture's bytes: 2pw x ph RGB. */
static inline size_t jd_cuda_preview_bytes(const struct jd_cuda_picture *pc)
{
	return (size_t)6 * pc->pw * pc->ph;
}

/**
 * Take the stage's buffers (boot only, after jd_cuda_conf_take()).
 * @retval 0, -ENOMEM, -EPERM (sealed), -ENOENT (no kernel), -EINVAL (no confidence stage)
 */
int jd_cuda_preview_take(struct jd_cuda *cu, struct jd_cuda_frame *f);

/**
 * Compose the next frame finished (once; no effect when not taken), distrusting what has
 * less than min_conf, the colours over 0 .. dmax.
 */
void jd_cuda_preview_want(struct jd_cuda_frame *f, int min_conf, float dmax);

/* Queue the stage on stream 0 for the frame being finished, after sensing (frame_cuda.c). */
int jd__cuda_preview_run(struct jd_cuda *cu, struct jd_cuda_frame *f, jd_cudeviceptr map);
/* ... and its way back into the pinned picture (copy mode, when composed for this frame). */
int jd__cuda_preview_download(struct jd_cuda *cu, struct jd_cuda_frame *f);

/**
 * The picture of the last frame jd_cuda_frame_collect() returned (2pw x ph RGB at the step
 * jd_preview_step() gives for the frame's width; writable: the caller draws on it), valid until the
 * next frame is finished; NULL: it has none.
 */
static inline unsigned char *jd_cuda_preview_last(const struct jd_cuda_frame *f)
{
	return f->picture.taken && f->last >= 0 && f->picture.slot == f->last ? f->picture.h_rgb
									      : NULL;
}

#endif
