/*
 * The one place that decides where NEON intrinsics come from: the compiler's arm_neon.h on
 * aarch64, SIMDe's portable implementation elsewhere (x86 tests and benchmarks: bit-identical
 * for integer and fp32 operations, docs/neon.md). FP16 arithmetic files include
 * <arm_neon.h> themselves: they are built for aarch64 only.
 */
#ifndef JD_ALGO_NEON_NEON_COMPAT_H
#define JD_ALGO_NEON_NEON_COMPAT_H

#if defined(__aarch64__)
#include <arm_neon.h>
#else
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/arm/neon.h>
#if !defined(vdivq_f32)
/* SIMDe 0.7.4 lacks the AArch64 vector divide: lane by lane IEEE division, the same result. */
static inline float32x4_t jd_vdivq_f32(float32x4_t a, float32x4_t b)
{
	float x[4], y[4];

	vst1q_f32(x, a);
	vst1q_f32(y, b);
	for (int i = 0; i < 4; i++) {
		x[i] /= y[i];
	}
	return vld1q_f32(x);
}
#define vdivq_f32 jd_vdivq_f32
#endif
#endif

#endif
