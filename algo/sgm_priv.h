/* Internals shared by the SGM aggregation backends (sgm_aggregate.c, neon/sgm_aggregate_neon.c). */
#ifndef JD_ALGO_SGM_PRIV_H
#define JD_ALGO_SGM_PRIV_H

#include <stdint.h>
#include <string.h>

#include "sgm.h"

/*
 * Path costs are int16: every L_r is at most max cost + P2 < 2048 (checked by
 * jd_params_validate), so with a sentinel of 0x3fff no sum below can overflow.
 * Row buffers keep one entry per x plus a zero entry on each side (x = -1 and x = width):
 * a path that enters from outside the image sees L = 0 and min = 0, which gives L_r = C there.
 * Each disparity vector has a sentinel slot on each side for the d - 1 and d + 1 neighbours.
 */
#define JD__SGM_SENTINEL 0x3fff

/* The three directions that come from the previous row, and the one along the row. */
enum { JD__ROW_VERT, JD__ROW_DIAG, JD__ROW_ANTI, JD__ROW_PATHS };

struct jd__sgm_sweep_buf {
	int16_t *lr[JD__ROW_PATHS][2];	 /* [2 rows][(width + 2) * (ndisp + 2)] */
	int16_t *mins[JD__ROW_PATHS][2]; /* [2 rows][width + 2] */
	int16_t *horiz[2];		 /* previous and current pixel along the row */
};

struct jd__sgm_sweep_job {
	const struct jd_match_params *p;
	const struct jd_image *img;
	int w, h;
	const uint8_t *cost;
	uint16_t *sum[2];
	struct jd__sgm_sweep_buf buf[2];
};

/* One whole sweep: which = 0 top-down (rows down, x rightwards), 1 its mirror image. */
typedef void (*jd__sgm_sweep_fn)(const struct jd__sgm_sweep_job *job, int which);

/** Lays out the sweep buffers and runs the two sweeps (one per worker) with sweep(). */
void jd__sgm_aggregate_with(jd__sgm_sweep_fn sweep, const struct jd_match_params *p,
			    const struct jd_image *guide, const uint8_t *cost, uint16_t *s_fwd,
			    uint16_t *s_bwd, void *sweep_ws, const struct jd_exec *ex);

/** Sentinels and zeros in every row buffer of one sweep. */
void jd__sgm_sweep_init(const struct jd__sgm_sweep_buf *b, int w, int nd);

static inline void jd__sgm_init_vec(int16_t *v, int nd)
{
	v[0] = JD__SGM_SENTINEL;
	memset(v + 1, 0, sizeof(int16_t) * nd);
	v[nd + 1] = JD__SGM_SENTINEL;
}

/*
 * Hirschmueller's intensity-adaptive P2: a large step in the guide image along the path makes
 * a disparity jump cheaper, P2' = max(P1 + 1, P2 * T / (T + |dI|)); T = 0 keeps P2 constant.
 * Integer arithmetic, so every backend reproduces it exactly, and P2' <= P2 keeps the bound.
 */
static inline int16_t jd__sgm_adapt_p2(int p1, int p2, int t, int i0, int i1)
{
	int diff = i0 > i1 ? i0 - i1 : i1 - i0;
	int v;

	if (t == 0) {
		return (int16_t)p2;
	}
	v = p2 * t / (t + diff);
	return (int16_t)(v > p1 + 1 ? v : p1 + 1);
}

#endif
