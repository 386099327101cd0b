/*
 * The confidence map (algo/match/confidence.h) on the GPU, as a stage of the frame staging
 * (hal/cuda/frame_cuda.h): taken at boot for a matcher whose pair crosses as 8 bits, then run by
 * jd_cuda_frame_finish() after the map's kernels, from the map and the slot's rectified pair,
 * and collected with the map. The bytes are jd_confidence_ref()'s (tests/gpu).
 */
#ifndef JD_HAL_CUDA_CONFIDENCE_H
#define JD_HAL_CUDA_CONFIDENCE_H

#include "cuda.h"
#include "frame_cuda.h"

/**
 * Take the stage's buffers (boot only, after jd_cuda_frame_take()) for maps from p's search.
 * @retval 0, -ENOMEM, -EPERM (sealed), -ENOENT (no kernel)
 */
int jd_cuda_conf_take(struct jd_cuda *cu, struct jd_cuda_frame *f, const struct jd_match_params *p);

/* Queue the stage on stream 0 for the frame being finished (jd_cuda_frame_finish()). */
int jd__cuda_conf_run(struct jd_cuda *cu, struct jd_cuda_frame *f, jd_cudeviceptr map);

/* Queue its download into the slot (copy mode; stream 0, before the frame's event). */
int jd__cuda_conf_download(struct jd_cuda *cu, struct jd_cuda_frame *f);

/**
 * The confidence of the last frame jd_cuda_frame_collect() returned (w bytes a row), valid
 * until its slot is submitted again; NULL when the stage was not taken.
 */
static inline const unsigned char *jd_cuda_conf_last(const struct jd_cuda_frame *f)
{
	return f->conf.taken ? f->conf.last : NULL;
}

#endif
