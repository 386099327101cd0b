/*
 * What the SGM kernels (algo/cuda/sgm_cuda.cu) and their host (hal/cuda/sgm_cuda.c, whose stage
 * checks run one direction at a time) share: the path kernel's directions and block shape.
 */
#ifndef JD_ALGO_CUDA_SGM_CUDA_H
#define JD_ALGO_CUDA_SGM_CUDA_H

/* Scanlines a block of jd_sgm_aggregate_cuda walks: a warp each. */
#define JD_SGM_AGGREGATE_WARPS 4

/*
 * The path directions of jd_sgm_aggregate_cuda, in the order of its blockIdx.y: (dx, dy),
 * the step from the previous pixel on the path.
 */
/* clang-format off */
#define JD_SGM_DIRS8 {{1, 0}, {0, 1}, {1, 1}, {-1, 1}, {-1, 0}, {0, -1}, {-1, -1}, {1, -1}}
#define JD_SGM_DIRS4 {{1, 0}, {0, 1}, {-1, 0}, {0, -1}}
/* clang-format on */

#endif
