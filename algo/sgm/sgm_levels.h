/*
 * The sixteen levels a coded SGM path adds into the sum (algo/sgm/sgm_priv.h says which paths and
 * why), one definition for every backend: the reference and NEON (through algo/sgm/sgm_priv.h) and
 * the CUDA kernels (algo/cuda/sgm_cuda.cu) include it. Level c of a kept value v is
 * min(v, EXACT + v >> SHIFT, MAX): v itself below EXACT, then a level every 2^SHIFT.
 */
#ifndef JD_ALGO_SGM_LEVELS_H
#define JD_ALGO_SGM_LEVELS_H

#define JD__SGM_CODE_EXACT 8
#define JD__SGM_CODE_SHIFT 4
#define JD__SGM_CODE_MAX 15

/* The level of a kept value v (0..255). */
static inline int jd__sgm_code(int v)
{
	int c = JD__SGM_CODE_EXACT + (v >> JD__SGM_CODE_SHIFT);

	c = c < JD__SGM_CODE_MAX ? c : JD__SGM_CODE_MAX;
	return v < c ? v : c;
}

/* The value a level stands for: itself below EXACT, else the middle of its step (16 c - 120). */
static inline int jd__sgm_decode(int c)
{
	return c < JD__SGM_CODE_EXACT
		   ? c
		   : ((c - JD__SGM_CODE_EXACT) << JD__SGM_CODE_SHIFT) + JD__SGM_CODE_EXACT;
}

#endif
