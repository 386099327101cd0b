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
 * Queue the filters on stream 0: fill map in place when fill (spare as its scratch), then
 * median map -> spare when median. *result: the buffer holding the finished map.
 * @retval 0 or -EIO
 */
int jd_cuda_post_run(const struct jd_cuda_post *pp, struct jd_cuda *cu, jd_cudeviceptr map,
		     jd_cudeviceptr spare, int w, int h, int fill, int median,
		     jd_cudeviceptr *result);

#endif
