/*
 * The SAD matcher on the GPU (algo/cuda/sad_cuda.cu): buffers carved at boot from the one
 * device and one pinned allocation, one launch per frame, the same disparities as
 * jd_sad_ref() bit for bit (fill and median run on the host with the reference functions).
 */
#ifndef JD_HAL_CUDA_SAD_H
#define JD_HAL_CUDA_SAD_H

#include "../algo/jd_exec.h"
#include "../algo/jd_image.h"
#include "../algo/jd_params.h"
#include "cuda.h"

struct jd_cuda_sad {
	struct jd_cuda *cu;
	jd_cufunction fn;
	int w, h;
	size_t smem;
	jd_cudeviceptr d_left, d_right, d_out;
	uint8_t *h_left, *h_right; /* pinned staging */
	float *h_out;
	float *raw; /* the WTA map before fill and median (host, w * h floats) */
};

/** Device and pinned bytes jd_cuda_sad_init() takes for a w x h frame. */
size_t jd_cuda_sad_device_bytes(int w, int h);
size_t jd_cuda_sad_pinned_bytes(int w, int h);

/**
 * Take the buffers (boot only) and check the launch fits the GPU.
 * raw: w * h floats of host memory from the caller's pool.
 * @retval 0, -ENOMEM, or -EINVAL (a row too wide for shared memory; cu->err says so)
 */
int jd_cuda_sad_init(struct jd_cuda_sad *s, struct jd_cuda *cu, const struct jd_match_params *p,
		     int w, int h, float *raw);

/**
 * One frame: upload, match, download, then fill and median as jd_sad_ref() does. Allocates
 * nothing. @retval 0 or -EIO (cu->err names the failed call)
 */
int jd_cuda_sad_run(struct jd_cuda_sad *s, const struct jd_match_params *p,
		    const struct jd_image *left, const struct jd_image *right, struct jd_disp *out,
		    const struct jd_exec *ex);

#endif
