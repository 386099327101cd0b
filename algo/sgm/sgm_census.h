/*
 * SGM's census window, one definition for every backend: the reference and NEON (through
 * algo/sgm/sgm.h) and the CUDA kernel (algo/cuda/sgm_cuda.cu) include it.
 */
#ifndef JD_ALGO_SGM_CENSUS_H
#define JD_ALGO_SGM_CENSUS_H

/* Census window 9 wide, 7 high: 62 comparisons (centre excluded) fit one uint64. */
#define JD_CENSUS_W 9
#define JD_CENSUS_H 7
#define JD_CENSUS_BITS (JD_CENSUS_W * JD_CENSUS_H - 1)

#endif
