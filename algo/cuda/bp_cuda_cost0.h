/*
 * What the BP kernels need to make level-0 data costs where they use them, instead of
 * reading a stored w x h x nd volume: the two float images (8-bit converted, smoothed where
 * sigma > 0) and the cost's parameters. One kernel argument, passed by value; shared by the
 * kernels (algo/cuda/bp_cuda.cu) and the host (hal/cuda_bp.c), so both see one layout.
 */
#ifndef JD_ALGO_CUDA_BP_CUDA_COST0_H
#define JD_ALGO_CUDA_BP_CUDA_COST0_H

struct jd_bp_cost0 {
	unsigned long long left, right; /* device addresses of w x h floats */
	int w, min_disp;
	float lambda, data_k;
	int census; /* the images hold census codes (jd_bp_census()): Hamming, not |l - r| */
};

#endif
