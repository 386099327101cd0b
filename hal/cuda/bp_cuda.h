/*
 * BP on the GPU (algo/cuda/bp_cuda.cu): every level's messages and data costs (at up to 128
 * disparities level 0's are made from the images where they are used, saving a w x h x nd
 * volume) carved at boot from the one device allocation in the reference's layout, one
 * upload, the pyramid, the
 * checkerboard iterations and the selection on one stream, one download per frame. Float
 * storage gives jd_bp_ref()'s map pixel for pixel; fp16 storage the same half bits as the
 * reference's fp16 mode (both keep float arithmetic).
 */
#ifndef JD_HAL_CUDA_BP_H
#define JD_HAL_CUDA_BP_H

#include "../../algo/cuda/bp_launch.h"
#include "../../algo/jd_exec.h"
#include "../../algo/jd_image.h"
#include "../../algo/match/jd_params.h"
#include "cuda.h"
#include "frame_cuda.h"

enum {
	JD_CUDA_BP_TO_FLOAT,
	JD_CUDA_BP_CENSUS, /* the census cost's codes (jd_bp_census()) */
	JD_CUDA_BP_DATA0,  /* level 0's costs as a volume, where the kernels do not make them */
	JD_CUDA_BP_COARSE,
	JD_CUDA_BP_COPY,
	JD_CUDA_BP_ITER0,     /* the message kernel at level 0 (data costs from the images) */
	JD_CUDA_BP_ITER,      /* ... and above */
	JD_CUDA_BP_ITER_WIDE, /* a half-arithmetic kernel's float twin, for levels past its bound */
	JD_CUDA_BP_SELECT,
	JD_CUDA_BP_SMOOTH, /* the Gaussian pre-smoothing (sigma > 0), a pass each way */
	JD_CUDA_BP_NFN
};

struct jd_cuda_bp_level {
	int w, h, hp;
	jd_cudeviceptr data, msg[4]; /* data 0: the level's costs are made where used */
};

struct jd_cuda_bp {
	struct jd_cuda *cu;
	jd_cufunction fn[JD_CUDA_BP_NFN];
	int w, h, nd, levels, es;
	int iter_px;	 /* pixels per message-kernel block or tile */
	int iter_staged; /* the staged kernel: a 1-D grid, a block a tile */
	int iter_seg;	 /* segments of a message (block px x 4 x seg; 1 but in _g, _h kernels) */
	int iter_half;	 /* an _h kernel: half2 arithmetic, block px x 2 x seg */
	int wide_seg;	 /* ITER_WIDE's segments and shared memory */
	unsigned wide_smem;
	unsigned iter_smem; /* its dynamic shared memory */
	char iter_name[64]; /* which message kernel boot chose */
	struct jd_cuda_bp_level lv[JD_BP_LEVELS_MAX];
	struct jd_cuda_frame frame;
	jd_cudeviceptr d_f[2];	 /* level-0 inputs converted to float, smoothed (sigma > 0) */
	jd_cudeviceptr d_tmp;	 /* the smoothing's rows pass */
	jd_cudeviceptr d_cen[2]; /* their census codes, with the census cost (else 0) */
	jd_cudeviceptr d_in[2];	 /* what the data costs read: d_f or d_cen */
	struct jd_bp_cost0 c0;	 /* the kernels' level-0 cost inputs, this frame's */
};

/**
 * DRAM bytes a frame's kernels must move at least: every iteration reads the senders' four
 * incoming vectors and their data costs (or, where level 0's are made, the images) and
 * writes four outgoing ones, each once.
 */
double jd_cuda_bp_traffic(const struct jd_match_params *p, int w, int h);

#define JD_CUDA_BP_VARIANT_LEN 24
#define JD_CUDA_BP_VARIANTS_MAX 12 /* names jd_cuda_bp_variants() may give for one count */

/**
 * The message-kernel variants in the fatbin for nd: "sP_bB"
 * the staged kernel (a block per tile of P pixels, its inputs copied into shared memory,
 * registers capped for B blocks an SM), "rR_bB" the register kernel (R values of the message vector
 * in registers, the rest in shared memory, capped for B blocks an SM; the seed's rule), then "any",
 * the generic kernel. The default is the first that fits the GPU's shared memory.
 * @return how many were written (at most max)
 */
int jd_cuda_bp_variants(int nd, char names[][JD_CUDA_BP_VARIANT_LEN], int max);

/**
 * Take the buffers and choose the message kernel (boot only): variant as
 * jd_cuda_bp_variants() names it, or NULL for the default ($JD_BP_VARIANT overrides).
 * @retval 0, -ENOMEM, -ENOENT (a kernel or variant missing), -EINVAL (shared memory too
 *         small; cu->err)
 */
int jd_cuda_bp_init(struct jd_cuda_bp *s, struct jd_cuda *cu, const struct jd_match_params *p,
		    int w, int h, const char *variant);

/**
 * Queue one frame (upload on stream 1, kernels and download on stream 0) and return without
 * waiting; at most two frames in flight. Allocates nothing.
 * @retval 0, -EIO (cu->err names the failed call), -EBUSY (two in flight already)
 */
int jd_cuda_bp_submit(struct jd_cuda_bp *s, const struct jd_match_params *p,
		      const struct jd_image *left, const struct jd_image *right);

#endif
