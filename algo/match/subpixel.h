/*
 * Sub-pixel refinement, one definition for the matchers' references (SGM's sums, BP's beliefs,
 * SAD's window sums) and the BP and SAD CUDA kernels (SGM's selection kernel writes it out the
 * same way): the equiangular fit, two lines of opposite slope through the three costs around
 * the winner. Chosen against the parabola on the dev pairs (docs/accuracy.md: lower RMS, less
 * pixel-locking). The costs are integers or lie on BP's 1/16 grid, so the differences are
 * exact and the one division rounds alike everywhere.
 */
#ifndef JD_ALGO_SUBPIXEL_H
#define JD_ALGO_SUBPIXEL_H

#include "jd_compiler.h"

/** The offset in [-0.5, 0.5] to add to the winner, from its cost c1 and its neighbours' c0, c2. */
static inline JD__HD float jd_subpixel_equiangular(float c0, float c1, float c2)
{
	float rise = (c0 > c2 ? c0 : c2) - c1;

	return rise > 0.0f ? (c0 - c2) / (2.0f * rise) : 0.0f;
}

#endif
