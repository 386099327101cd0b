/*
 * What the rank kernel (algo/cuda/prefilter_cuda.cu) and its host (hal/cuda/frame_cuda.c) share:
 * the block's shape, and the widest window its shared tile holds.
 */
#ifndef JD_ALGO_CUDA_PREFILTER_CUDA_H
#define JD_ALGO_CUDA_PREFILTER_CUDA_H

#include "../match/jd_params.h"

#define JD_RANK_BX 32 /* a block's threads: 32 x 8, each ranking JD_RANK_PX pixels of a row */
#define JD_RANK_BY 8
#define JD_RANK_PX 2
#define JD_RANK_RMAX (JD_RANK_WINDOW_MAX / 2)

#endif
