/*
 * BP's Gaussian pre-smoothing taps (F&H's smooth()): computed once by the reference
 * (jd_bp_gauss(), bp_common.c) and applied by it and by the GPU's kernel
 * (algo/cuda/bp_cuda.cu), which takes them by value: one layout in C and CUDA.
 */
#ifndef JD_ALGO_BP_GAUSS_H
#define JD_ALGO_BP_GAUSS_H

#define JD_BP_GAUSS_TAPS 64

/* k[0..rad], normalised (k[0] + 2 k[1] + ... = 1); rad 0: no smoothing. */
struct jd_bp_gauss {
	float k[JD_BP_GAUSS_TAPS];
	int rad;
};

#endif
