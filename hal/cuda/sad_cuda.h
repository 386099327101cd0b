/*
 * The SAD matcher on the GPU (algo/cuda/sad_cuda.cu): buffers carved at boot from the one
 * device and one pinned allocation, one launch per frame, the same disparities as
 * jd_sad_ref() bit for bit (fill and median on the GPU too: hal/cuda/postfilter_cuda.h).
 */
#ifndef JD_HAL_CUDA_SAD_H
#define JD_HAL_CUDA_SAD_H

#include "../../algo/jd_image.h"
#include "../../algo/match/jd_params.h"
#include "cuda.h"
#include "frame_cuda.h"
#include "postfilter_cuda.h"

struct jd_cuda_sad {
	struct jd_cuda *cu;
	jd_cufunction fn;     /* the strip kernel, or the row kernel for rows too wide for it */
	jd_cufunction finish; /* keys to the map (strip kernel only) */
	jd_cufunction refine; /* the sub-pixel fit, when p asks */
	size_t refine_smem;   /* its shared memory a block */
	int strips; /* the strip kernel (its block and shared memory fit), else the row kernel */
	int groups, rows, tile; /* its grid: disparity groups, rows a block, columns a block */
	int w, h;
	size_t smem;
	jd_cudeviceptr d_keys; /* [2][h][w] the winners' packed keys (strip kernel) */
	struct jd_cuda_post post;
	struct jd_cuda_frame frame;
	jd_cudeviceptr d_med; /* the median's output */
};

/** DRAM bytes a frame's kernels must move at least (each input read once, each output written
 * once). */
double jd_cuda_sad_traffic(const struct jd_match_params *p, int w, int h);

/**
 * Take the buffers (boot only) and check the launch fits the GPU.
 * @retval 0, -ENOMEM, or -EINVAL (a row too wide for shared memory; cu->err says so)
 */
int jd_cuda_sad_init(struct jd_cuda_sad *s, struct jd_cuda *cu, const struct jd_match_params *p,
		     int w, int h);

/**
 * Queue one frame (upload on stream 1, kernels and download on stream 0) and return without
 * waiting; at most two frames in flight. Allocates nothing.
 * @retval 0, -EIO (cu->err names the failed call), -EBUSY (two in flight already)
 */
int jd_cuda_sad_submit(struct jd_cuda_sad *s, const struct jd_match_params *p,
		       const struct jd_image *left, const struct jd_image *right);

#endif
