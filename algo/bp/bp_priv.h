/* Internals shared by the bp_*.c files of the reference BP. */
#ifndef JD_ALGO_BP_PRIV_H
#define JD_ALGO_BP_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bp.h"
#include "bp_kernels.h"
#include "jd_half.h"
#include "kernels.h"

/*
 * One pyramid level. Row y of colour c = (x + y) & 1 holds pixels x = 2i + ((y + c) & 1) at
 * slot 1 + i; slot 0 and the slots past the last pixel are write-only sinks for messages sent
 * off the image edge, so the vector loops need no edge tests.
 */
struct jd__bp_level {
	int w, h;
	int hp; /* slots per (row, colour, disparity) */
	void *data;
	void *msg[JD_BP_NDIR];
};

struct jd__bp_ctx {
	const struct jd_match_params *p;
	jd_bp_send_fn send;
	int nd;
	int fp16;
	float disc_k;
	struct jd__bp_level lv[JD_BP_LEVELS_MAX];
	struct jd_bp_scratch *scratch; /* one per worker */
	float *lf, *rf, *tmp;	       /* level-0 input images (census codes with census) */
	int census;		       /* jd_prefilter_census_on() */
};

/* Start of (row y, colour c, d = 0, i = 0). */
static inline size_t jd__bp_row(const struct jd__bp_level *lv, int nd, int y, int c)
{
	return (size_t)(2 * y + c) * nd * lv->hp + 1;
}

/* n values of one storage row as float (fp16 converted), written so it vectorises. */
static inline void jd__bp_load(const void *base, size_t off, float *restrict dst, int n, int fp16)
{
	if (fp16) {
		const uint16_t *src = (const uint16_t *)base + off;
		for (int i = 0; i < n; i++) {
			dst[i] = jd_half_to_float(src[i]);
		}
	} else {
		memcpy(dst, (const float *)base + off, sizeof(float) * n);
	}
}

static inline void jd__bp_store(void *base, size_t off, const float *restrict src, int n, int fp16)
{
	if (fp16) {
		uint16_t *dst = (uint16_t *)base + off;
		for (int i = 0; i < n; i++) {
			dst[i] = jd_float_to_half(src[i]);
		}
	} else {
		memcpy((float *)base + off, src, sizeof(float) * n);
	}
}

/* Float storage is read in place; fp16 is converted into buf first. */
static inline void jd__bp_view(const void *base, size_t off, float *buf, int n, int fp16,
			       const float **out)
{
	if (fp16) {
		jd__bp_load(base, off, buf, n, 1);
		*out = buf;
	} else {
		*out = (const float *)base + off;
	}
}

/* |l - r| of the level-0 cost, or the Hamming distance of two census codes (jd_bp_census()). */
static inline float jd__bp_census_diff(float l, float r)
{
	uint32_t a, b;

	memcpy(&a, &l, sizeof(a));
	memcpy(&b, &r, sizeof(b));
	return (float)__builtin_popcount(a ^ b);
}

/* Pixels of colour c in row y: x = 2i + ((y + c) & 1) < w. */
static inline int jd__bp_count(int w, int y, int c)
{
	return (w - ((y + c) & 1) + 1) / 2;
}

/* min with the operand order every backend uses (a < b ? a : b, exact, no NaN rules). */
static inline float jd__minf(float a, float b)
{
	return a < b ? a : b;
}

void jd__bp_data_pyramid(const struct jd__bp_ctx *ctx, const struct jd_exec *ex);
void jd__bp_run_level(const struct jd__bp_ctx *ctx, int level, const struct jd_exec *ex);
void jd__bp_select(const struct jd__bp_ctx *ctx, struct jd_disp *out, const struct jd_exec *ex);

#endif
