/*
 * SGM on the GPU (algo/cuda/sgm_cuda.cu): buffers carved at boot, one upload, the stage
 * kernels on one stream (fill and median too: hal/cuda/postfilter_cuda.h), one download per frame;
 * the same disparities as jd_sgm_ref() bit for bit.
 */
#ifndef JD_HAL_CUDA_SGM_H
#define JD_HAL_CUDA_SGM_H

#include "../../algo/jd_image.h"
#include "../../algo/match/jd_params.h"
#include "cuda.h"
#include "frame_cuda.h"
#include "postfilter_cuda.h"

enum {
	JD_CUDA_SGM_CENSUS,
	/* the path kernels for census and AD costs, 14 shapes each (hal/cuda/sgm_cuda.c) */
	JD_CUDA_SGM_PATH_CENSUS,
	JD_CUDA_SGM_PATH_AD = JD_CUDA_SGM_PATH_CENSUS + 14,
	/* census, 8 paths: the vertical ones store levels and min t (algo/sgm/sgm_priv.h) */
	JD_CUDA_SGM_PATH_LEVELS = JD_CUDA_SGM_PATH_AD + 14,
	/* a row a block: sums, winners, right view, left-right check (14 shapes) */
	JD_CUDA_SGM_SELECT = JD_CUDA_SGM_PATH_LEVELS + 14,
	JD_CUDA_SGM_NFN = JD_CUDA_SGM_SELECT + 14
};

struct jd_cuda_sgm {
	struct jd_cuda *cu;
	jd_cufunction fn[JD_CUDA_SGM_NFN];
	int w, h, nd;
	struct jd_cuda_frame frame;
	jd_cudeviceptr d_cl, d_cr;
	/*
	 * The path volume: a slice of path costs t (bytes) for each direction that adds t, then
	 * a slice of levels (slice / 2 bytes) for each that adds levels, then their min t planes
	 * (w columns of JD_SGM_MT_PITCH(h) bytes each); jd_cuda_sgm_slice_of() says where a
	 * direction's are.
	 */
	jd_cudeviceptr d_vol;
	size_t slice;	     /* bytes a slice of t: a pixel every jd_cuda_sgm_pixel_bytes() */
	int nbytes, nlevels; /* directions that add t, and levels */
	unsigned dirs_bytes, dirs_levels; /* their indices, four bits each, first lowest */
	size_t levels_at, mt_at;	  /* where in d_vol the slices of levels and min t start */
	int k, lanes, variant;	/* disparities a lane, lanes a pixel, the kernels\' shape */
	jd_cudeviceptr d_spare; /* w * h floats: the median's output */
	jd_cudeviceptr d_guide, d_right; /* the last frame's images on the device */
	struct jd_cuda_post post;
};

/**
 * DRAM bytes a frame's kernels move by the design where nothing stays in L2 (ncu measures
 * less where the cache keeps some: docs/perf_log.md has both).
 */
double jd_cuda_sgm_traffic(const struct jd_match_params *p, int w, int h);

/** Take the buffers at boot. @retval 0, -ENOMEM, -ENOENT (a kernel missing; cu->err) */
int jd_cuda_sgm_init(struct jd_cuda_sgm *s, struct jd_cuda *cu, const struct jd_match_params *p,
		     int w, int h);

/**
 * Queue one frame (upload on stream 1, kernels and download on stream 0) and return without
 * waiting; at most two frames in flight. Allocates nothing.
 * @retval 0, -EIO (cu->err names the failed call), -EBUSY (two in flight already)
 */
int jd_cuda_sgm_submit(struct jd_cuda_sgm *s, const struct jd_match_params *p,
		       const struct jd_image *left, const struct jd_image *right);

/** Bytes a pixel of a slice of the path volume takes. */
int jd_cuda_sgm_pixel_bytes(const struct jd_cuda_sgm *s);

/** Where disparity d's path cost sits among a pixel's bytes (the lanes' layout, not d order). */
int jd_cuda_sgm_byte_of(const struct jd_cuda_sgm *s, int d);

/**
 * Where direction dir's output lies in d_vol (bytes from its start): its slice at *at, and
 * whether it holds levels (returns 1; then min t, a byte a pixel in columns, at *mt) or path
 * costs t (returns 0).
 */
int jd_cuda_sgm_slice_of(const struct jd_cuda_sgm *s, int dir, size_t *at, size_t *mt);

/**
 * What disparity d of pixel i adds into the sum, from a downloaded slice (and min t plane,
 * where it holds levels) of jd_cuda_sgm_slice_of().
 */
int jd_cuda_sgm_summand(const struct jd_cuda_sgm *s, int levels, const uint8_t *slice,
			const uint8_t *mt, size_t i, int d);

/**
 * For the GPU tests' stage checks, after a frame: direction dir of the path kernels' table
 * (algo/cuda/sgm_launch.h, the 4- or 8-path one as p says) alone, into its slice of d_vol
 * (at dir * slice), from the last frame's census (or images) and guide. Queued on stream 0.
 * @retval 0, -EINVAL (no such direction), -EIO (cu->err)
 */
int jd_cuda_sgm_path_one(struct jd_cuda_sgm *s, const struct jd_match_params *p, int dir);

#endif
