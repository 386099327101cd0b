/*
 * What the SAD strip kernel (algo/cuda/sad_cuda.cu) and its host (hal/cuda/sad_cuda.c, which
 * sizes its grid and shared memory) share: the block's shape.
 */
#ifndef JD_ALGO_CUDA_SAD_LAUNCH_H
#define JD_ALGO_CUDA_SAD_LAUNCH_H

#define JD_SAD_DG 16 /* disparities a block, registers a thread */
#define JD_SAD_SEG 8 /* pixels a work item slides over */
/* The widest window whose sums fit 16 bits: two disparities a word (algo/cuda/sad_cuda.cu). */
#define JD_SAD_PACK_WINDOW_MAX 15
/* Padded columns a tile at most (one a thread: small enough for two blocks an SM, large enough
 * that the window's halo costs little), and so threads a block at most with two disparities a
 * word (whole warps of 544 + 14), which the kernels' register budget is for. */
#define JD_SAD_STRIP_COLS 544
#define JD_SAD_PACK_THREADS 576

/*
 * Words between two rows of column sums in shared memory, for padded rows of pw columns: room
 * for the items' slide past the tile, and then, with two disparities a word (pack), rows
 * 16-byte aligned on an odd multiple of four words (the eight items of a segment read eight
 * different bank quads); otherwise odd (items of different disparities on different banks).
 */
#define JD_SAD_VSTRIDE(pw, pack)                                                                   \
	((pack) ? ((pw) + JD_SAD_SEG + 11) / 8 * 8 + 4 : ((pw) + JD_SAD_SEG) | 1)

#endif
