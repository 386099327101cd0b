/*
 * What the BP kernels (algo/cuda/bp_cuda.cu, bp_messages_cuda.cu) and their host
 * (hal/cuda/bp_cuda.c) share, so that both see one layout and one launch shape.
 */
#ifndef JD_ALGO_CUDA_BP_LAUNCH_H
#define JD_ALGO_CUDA_BP_LAUNCH_H

/*
 * Disparities a thread of the coarse-cost kernel covers (its grid's z: nd / JD_BP_DCHUNK): a
 * chunk, not all (latency-bound on the small levels) nor one (a million blocks of scheduling
 * at 900x750x128).
 */
#define JD_BP_DCHUNK 16

/*
 * What the kernels need to make level-0 data costs where they use them, instead of reading
 * a stored w x h x nd volume: the two float images (8-bit converted, smoothed where sigma >
 * 0) and the cost's parameters. One kernel argument, passed by value.
 */
struct jd_bp_cost0 {
	unsigned long long left, right; /* device addresses of w x h floats */
	int w, min_disp;
	float lambda, data_k;
	int census;   /* the images hold census codes (jd_bp_census()): Hamming, not |l - r| */
	int subpixel; /* the selection refines (algo/match/subpixel.h) */
};

#endif
