/*
 * Hopper's DPX instructions under names of our own, with one portable definition for every
 * other GPU and for toolkits without them (DPX came with CUDA 12.0; the boards' JetPack 5
 * and 6 image is built by CUDA 11.8). The results are the same bits.
 *
 * Off Hopper, a DPX intrinsic is a software sequence of about ten instructions a call (its
 * halves split, each compared, joined, and the 16-bit sums' carries masked). The SGM chain
 * knows more than DPX does: its halves stay below 0x7c00 and its sums never carry from one
 * half into the other. The _small forms take that as their precondition: on Ampere and later
 * (the Orins) a minimum is one f16x2 instruction (below); before Ampere, four: one 32-bit sum
 * a + b + 0x8000 - c per pair of halves (no borrow crosses a half, and each half's bit 15 says
 * a + b >= c), its sign bits spread over their halves by one byte permute, and one
 * three-input logic op to select.
 */
#ifndef JD_CUDA_DPX_H
#define JD_CUDA_DPX_H

#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 12 && defined(__CUDA_ARCH__) &&       \
    __CUDA_ARCH__ >= 900
#define JD_HAVE_DPX 1 /* in hardware: Hopper and later */
#else
#define JD_HAVE_DPX 0
#endif

/* per half: unsigned min(a, b, c) */
static __device__ __forceinline__ unsigned jd_vimin3_u16x2(unsigned a, unsigned b, unsigned c)
{
#if JD_HAVE_DPX
	return __vimin3_u16x2(a, b, c);
#else
	return __vminu2(__vminu2(a, b), c);
#endif
}

/* per half: unsigned min(a + b, c), the sum taken modulo 2^16 */
static __device__ __forceinline__ unsigned jd_viaddmin_u16x2(unsigned a, unsigned b, unsigned c)
{
#if JD_HAVE_DPX
	return __viaddmin_u16x2(a, b, c);
#else
	return __vminu2(__vadd2(a, b), c);
#endif
}

/* per half: signed max(a + b, c), the sum taken modulo 2^16 */
static __device__ __forceinline__ unsigned jd_viaddmax_s16x2(unsigned a, unsigned b, unsigned c)
{
#if JD_HAVE_DPX
	return __viaddmax_s16x2(a, b, c);
#else
	return __vmaxs2(__vadd2(a, b), c);
#endif
}

/*
 * Off Hopper on Ampere and later, the _small forms take each half as the bit pattern of a
 * half-precision float: non-negative finite ones (below 0x7c00, infinity) order as the
 * integers do, subnormals included (f16 arithmetic keeps them), so the hardware's f16x2
 * minimum (HMNMX2, one instruction) is the integers' minimum; a sum of halves without carry
 * is one 32-bit add. Their precondition is then every half below 0x7c00.
 */
#ifndef JD_CUDA_F16_CHAIN
/* Off until `gpu.cuda_sgm` has passed on a GPU with it (JD_NVCC_FLAGS=-DJD_CUDA_F16_CHAIN=1):
 * the boards keep the forms below, which have. */
#define JD_CUDA_F16_CHAIN 0
#endif
#if JD_CUDA_F16_CHAIN && !JD_HAVE_DPX && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define JD_SMALL_F16 1
#else
#define JD_SMALL_F16 0
#endif

#if JD_SMALL_F16
/* per half: min(a, b), each half below 0x7c00 */
static __device__ __forceinline__ unsigned jd_f16x2_min(unsigned a, unsigned b)
{
	unsigned r;
	asm("min.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
	return r;
}
#elif !JD_HAVE_DPX
/* 0xffff in each half whose bit 15 is set, else 0 (prmt's sign-replicating selectors) */
static __device__ __forceinline__ unsigned jd_sign_halves(unsigned d)
{
	unsigned m;
	asm("prmt.b32 %0, %1, 0, 0xbb99;" : "=r"(m) : "r"(d));
	return m;
}
#endif

/* per half: min(a + b, c), where every half of a + b and of c is below 0x7c00 (no carry) */
static __device__ __forceinline__ unsigned jd_viaddmin_small(unsigned a, unsigned b, unsigned c)
{
#if JD_HAVE_DPX
	return __viaddmin_u16x2(a, b, c);
#elif JD_SMALL_F16
	return jd_f16x2_min(a + b, c);
#else
	const unsigned s = a + b, m = jd_sign_halves(s + 0x80008000u - c);
	return (c & m) | (s & ~m);
#endif
}

/* per half: min(a, b), every half below 0x7c00 */
static __device__ __forceinline__ unsigned jd_vimin_small(unsigned a, unsigned b)
{
#if JD_HAVE_DPX
	return __vimin3_u16x2(a, b, b);
#elif JD_SMALL_F16
	return jd_f16x2_min(a, b);
#else
	const unsigned m = jd_sign_halves((a | 0x80008000u) - b);
	return (b & m) | (a & ~m);
#endif
}

/* per half: min(a, b, c), every half below 0x7c00 */
static __device__ __forceinline__ unsigned jd_vimin3_small(unsigned a, unsigned b, unsigned c)
{
#if JD_HAVE_DPX
	return __vimin3_u16x2(a, b, c);
#else
	return jd_vimin_small(jd_vimin_small(a, b), c);
#endif
}

#endif
