/*
 * The path directions of jd_sgm_path_cuda, in the order of its blockIdx.y: (dx, dy), the step
 * from the previous pixel on the path. Shared by the kernel and the host (hal/cuda_sgm.c,
 * whose stage checks run one direction at a time).
 */
#ifndef JD_ALGO_CUDA_SGM_CUDA_DIRS_H
#define JD_ALGO_CUDA_SGM_CUDA_DIRS_H

#define JD_SGM_DIRS8 {{1, 0}, {0, 1}, {1, 1}, {-1, 1}, {-1, 0}, {0, -1}, {-1, -1}, {1, -1}}
#define JD_SGM_DIRS4 {{1, 0}, {0, 1}, {-1, 0}, {0, -1}}

#endif
