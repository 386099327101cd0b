/*
 * IEEE 754 binary16 <-> float in portable C, round-to-nearest-even, subnormals, inf and NaN
 * handled: the same bits a GPU's __float2half_rn / ARMv8.2 FCVT produce, so fp16 storage can
 * be compared across backends. Storage type is uint16_t (fp16 crosses the C ABI as bits).
 */
#ifndef JD_ALGO_JD_HALF_H
#define JD_ALGO_JD_HALF_H

#include <stdint.h>
#include <string.h>

/* x where cond, else y, as mask arithmetic: compilers vectorise it where a ?: may branch. */
static inline uint32_t jd__sel(int cond, uint32_t x, uint32_t y)
{
	uint32_t m = 0u - (uint32_t)(cond != 0);

	return (x & m) | (y & ~m);
}

static inline uint32_t jd__f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static inline float jd__u2f(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/*
 * Both conversions are written without branches (selects only) so that loops over arrays of
 * them vectorise; the unit test checks every one of the 65536 halves and a sweep of floats
 * against the compiler's own _Float16 conversion.
 */
static inline float jd_half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	uint32_t em = h & 0x7fffu;
	/* Normal and subnormal halves: shift into place, then rescale the exponent (exact). */
	float mag = jd__u2f(em << 13) * 0x1p112f;
	uint32_t bits = jd__f2u(mag);

	bits = jd__sel(em >= 0x7c00u, 0x7f800000u | (em & 0x3ffu) << 13, bits); /* inf, NaN */
	return jd__u2f(sign | bits);
}

static inline uint16_t jd_float_to_half(float f)
{
	uint32_t u = jd__f2u(f);
	uint32_t sign = (u >> 16) & 0x8000u;
	uint32_t a = u & 0x7fffffffu;
	/* Normal result: rebias the exponent (-112 << 23) and round to nearest even. */
	uint32_t normal = (a + 0xc8000fffu + ((a >> 13) & 1u)) >> 13;
	/* Subnormal or zero result: let the float adder round at the 2^-24 position. */
	int small = a < 0x38800000u;
	uint32_t sub = jd__f2u(jd__u2f(jd__sel(small, a, 0u)) + 0.5f) - 0x3f000000u;
	uint32_t r = jd__sel(small, sub, normal);

	r = jd__sel(a >= 0x477ff000u, 0x7c00u, r); /* rounds above 65504: inf, as hardware does */
	r = jd__sel(a > 0x7f800000u, 0x7e00u, r);  /* NaN stays a quiet NaN */
	return (uint16_t)(sign | r);
}

#endif
