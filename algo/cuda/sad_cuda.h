/*
 * What the SAD strip kernel (algo/cuda/sad_cuda.cu) and its host (hal/cuda/sad_cuda.c, which
 * sizes its grid and shared memory) share: the block's shape.
 */
#ifndef JD_ALGO_CUDA_SAD_CUDA_H
#define JD_ALGO_CUDA_SAD_CUDA_H

#define JD_SAD_DG 16 /* disparities a block, registers a thread */
#define JD_SAD_SEG 8 /* pixels a work item slides over */

#endif
