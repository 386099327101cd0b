/*
 * What the SGM kernels (algo/cuda/sgm_cuda.cu) and their host (hal/cuda/sgm_cuda.c, whose stage
 * checks run one direction at a time) share: the path kernel's directions and block shape.
 */
#ifndef JD_ALGO_CUDA_SGM_LAUNCH_H
#define JD_ALGO_CUDA_SGM_LAUNCH_H

/* Threads a block of the path kernels (jd_sgm_path_*): four warps. */
#define JD_SGM_PATH_THREADS 128

/*
 * The path directions of the path kernels, in the order of their blockIdx.y and of the slices
 * of the path volume: (dx, dy), the step from the previous pixel on the path.
 */
/* clang-format off */
#define JD_SGM_DIRS8 {{1, 0}, {0, 1}, {1, 1}, {-1, 1}, {-1, 0}, {0, -1}, {-1, -1}, {1, -1}}
#define JD_SGM_DIRS4 {{1, 0}, {0, 1}, {-1, 0}, {0, -1}}
/* clang-format on */

/*
 * Bytes a column of a min t plane takes (the vertical paths of levels keep min t in walk
 * order, a column of h rows): h rounded up to 4, so that four rows go in one store.
 */
#define JD_SGM_MT_PITCH(h) (((h) + 3) & ~3)

#endif
