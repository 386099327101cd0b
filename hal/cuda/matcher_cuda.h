/*
 * The three GPU matchers behind one table, with the per-pixel stages that run beside them on
 * the same frame staging: boot, the bench, the tuner and the GPU tests take, submit and
 * collect SAD, SGM and BP the same way. Each matcher's own header keeps its state and its
 * stage-check hooks (hal/cuda/sad_cuda.h, sgm_cuda.h, bp_cuda.h).
 */
#ifndef JD_HAL_CUDA_MATCHER_H
#define JD_HAL_CUDA_MATCHER_H

#include "../../algo/jd_image.h"
#include "../../algo/match/jd_params.h"
#include "cuda.h"
#include "bp_cuda.h"
#include "cloud_cuda.h"
#include "frame_cuda.h"
#include "sad_cuda.h"
#include "sense_cuda.h"
#include "sgm_cuda.h"
#include "stages_cuda.h"

struct jd_cuda_matcher;

struct jd_cuda_matcher_ops {
	enum jd_algo algo;
	/* take the buffers from cu (the carving: a counting context only counts them) */
	int (*take)(struct jd_cuda_matcher *m, struct jd_cuda *cu, const struct jd_match_params *p,
		    int w, int h, const char *variant);
	/* queue one frame (hal/cuda/frame_cuda.h: upload, kernels, download); allocates nothing */
	int (*submit)(struct jd_cuda_matcher *m, const struct jd_match_params *p,
		      const struct jd_image *left, const struct jd_image *right);
	/* DRAM bytes a frame's kernels move at least (the bench's roofline) */
	double (*traffic)(const struct jd_match_params *p, int w, int h);
};

struct jd_cuda_matcher {
	const struct jd_cuda_matcher_ops *ops;
	struct jd_cuda *cu;
	struct jd_cuda_frame *frame; /* the matcher's frame staging: slots, stages beside it */
	union {
		struct jd_cuda_sad sad;
		struct jd_cuda_sgm sgm;
		struct jd_cuda_bp bp;
	} u;
	struct jd_cuda_rooms rooms; /* the stages' state outside the frame (stages_cuda.h) */
};

/**
 * Take the buffers of p->algo's matcher for w x h frames and of the stages around it
 * (JD_CUDA_STAGE_* bits, hal/cuda/stages_cuda.h) from cu, boot only: run it on a counting
 * context first to size them (jd_cuda_count()). variant: BP's message kernel
 * (jd_cuda_bp_variants(); NULL: the default), ignored by the others.
 * @retval 0, -ENOMEM, -ENOENT (a kernel missing), -EINVAL (the GPU's shared memory too
 *         small, a stage without CONF, or no GPU matcher for p->algo); cu->err says why
 */
int jd_cuda_matcher_take(struct jd_cuda_matcher *m, struct jd_cuda *cu,
			 const struct jd_match_params *p, int w, int h, const char *variant,
			 unsigned stages);

/* jd_cuda_matcher_take()'s arguments, for running it through jd_cuda_count() and jd_cuda_boot(). */
struct jd_cuda_matcher_carving {
	struct jd_cuda_matcher *m;
	const struct jd_match_params *p;
	int w, h;
	const char *variant;
	unsigned stages;
};

/** jd_cuda_matcher_take() of arg (a struct jd_cuda_matcher_carving), in the shape those call. */
int jd_cuda_matcher_carve(struct jd_cuda *cu, void *arg);

/**
 * Queue one frame and return without waiting; at most JD_CUDA_SLOTS in flight.
 * @retval 0, -EIO (cu->err names the failed call), -EBUSY (the slots are full)
 */
int jd_cuda_matcher_submit(struct jd_cuda_matcher *m, const struct jd_match_params *p,
			   const struct jd_image *left, const struct jd_image *right);

/** Wait for the oldest frame in flight and write its map. @retval 0, -EIO, -ENOENT */
int jd_cuda_matcher_collect(struct jd_cuda_matcher *m, struct jd_disp *out);

/** Submit and collect one frame; allocates nothing. @retval as the two above */
int jd_cuda_matcher_run(struct jd_cuda_matcher *m, const struct jd_match_params *p,
			const struct jd_image *left, const struct jd_image *right,
			struct jd_disp *out);

/** DRAM bytes a frame of p->algo's kernels moves at least (0: no GPU matcher for it). */
double jd_cuda_matcher_traffic(const struct jd_match_params *p, int w, int h);

#endif
