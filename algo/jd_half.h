/*
 * IEEE 754 binary16 <-> float in portable C, round-to-nearest-even, subnormals, inf and NaN
 * handled: the same bits a GPU's __float2half_rn / ARMv8.2 FCVT produce, so fp16 storage can
 * be compared across backends. Storage type is uint16_t (fp16 crosses the C ABI as bits).
 */
#ifndef JD_ALGO_JD_HALF_H
#define JD_ALGO_JD_HALF_H

#include <stdint.h>
#include <string.h>

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

static inline float jd_half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	uint32_t exp = (h >> 10) & 0x1fu;
	uint32_t man = h & 0x3ffu;

	if (exp == 0x1f) {
		return jd__u2f(sign | 0x7f800000u | (man << 13));
	}
	if (exp == 0) {
		/* Subnormal: man * 2^-24, exact in float. */
		float v = (float)man * (1.0f / 16777216.0f);
		return sign ? -v : v;
	}
	return jd__u2f(sign | ((exp + 112u) << 23) | (man << 13));
}

static inline uint16_t jd_float_to_half(float f)
{
	uint32_t u = jd__f2u(f);
	uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
	uint32_t a = u & 0x7fffffffu;

	if (a >= 0x7f800000u) {
		/* inf stays inf; NaN stays a quiet NaN. */
		return (uint16_t)(sign | 0x7c00u | (a > 0x7f800000u ? 0x200u : 0u));
	}
	if (a >= 0x477ff000u) {
		/* Rounds to above 65504: overflow to inf, as hardware does. */
		return (uint16_t)(sign | 0x7c00u);
	}
	if (a < 0x38800000u) {
		/* Result is subnormal or zero: scale so the float adder rounds to nearest even. */
		float v = jd__u2f(a) + 0.5f;
		return (uint16_t)(sign | (uint16_t)(jd__f2u(v) - jd__f2u(0.5f)));
	}
	uint32_t odd = (a >> 13) & 1u;
	a += 0xc8000fffu + odd; /* rebias exponent (-112 << 23) and round to nearest even */
	return (uint16_t)(sign | (uint16_t)(a >> 13));
}

#endif
