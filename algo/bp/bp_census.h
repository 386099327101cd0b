/*
 * BP's census cost (--prefilter census, BP's default): a bit per neighbour of the 5x5 window
 * that is darker than the centre by more than JD_BP_CENSUS_T (edges replicated); the data
 * cost compares two codes by their Hamming distance. The margin keeps sensor noise on flat
 * surfaces from flipping bits: without it BP lost 1.5 points on Tsukuba (docs/accuracy.md).
 * The 24-bit code is kept as a float's bit pattern, so the level-0 images keep their type
 * and layout on every backend. Constants only: the CUDA kernels include it too.
 */
#ifndef JD_ALGO_BP_CENSUS_H
#define JD_ALGO_BP_CENSUS_H

#define JD_BP_CENSUS_RADIUS 2
#define JD_BP_CENSUS_T 2.0f

#endif
