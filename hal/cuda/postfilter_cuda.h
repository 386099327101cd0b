/*
 * Fill and 3x3 median on the GPU (algo/cuda/postfilter_cuda.cu) for the SAD and SGM paths:
 * the map is finished on the device and downloaded once, the same values as
 * jd_fill_invalid_ref() and jd_median3x3_ref() on the host.
 */
#ifndef JD_HAL_CUDA_POST_H
#define JD_HAL_CUDA_POST_H

#include "cuda.h"

struct jd_cuda_post {
	jd_cufunction fill, median;
};

/** Look the kernels up (boot). @retval 0 or -ENOENT */
int jd_cuda_post_init(struct jd_cuda_post *pp, struct jd_cuda *cu);

/**
 * Where a matcher writes its raw map (*raw) and which buffer the filters get as spare
 * (*scratch), so that the finished map lands in out, the frame's map: the median writes a
 * second buffer, so in mapped mode (out is the slot's host memory, hal/cuda/frame_cuda.h) the raw
 * map goes into spare and the median into out. In copy mode: raw = out, as before.
 */
static inline void jd_cuda_post_buffers(const struct jd_cuda *cu, int median, jd_cudeviceptr out,
					jd_cudeviceptr spare, jd_cudeviceptr *raw,
					jd_cudeviceptr *scratch)
{
	int swap = cu->mapped && median;

	*raw = swap ? spare : out;
	*scratch = swap ? out : spare;
}

/**
 * Queue the filters on stream 0: fill map in place when fill (spare as its scratch), then
 * median map -> spare when median. *result: the buffer holding the finished map.
 * @retval 0 or -EIO
 */
int jd_cuda_post_run(const struct jd_cuda_post *pp, struct jd_cuda *cu, jd_cudeviceptr map,
		     jd_cudeviceptr spare, int w, int h, int fill, int median,
		     jd_cudeviceptr *result);

#endif
