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

/* Census bits of pixel x from the window's rows (edges replicated), first comparison highest. */
static inline uint64_t jd__census_pixel(const uint8_t *const rows[JD_CENSUS_H], int x, int w)
{
	uint8_t c = rows[JD_CENSUS_H / 2][x];
	uint64_t bits = 0;

	for (int j = 0; j < JD_CENSUS_H; j++) {
		for (int i = -JD_CENSUS_W / 2; i <= JD_CENSUS_W / 2; i++) {
			if (j == JD_CENSUS_H / 2 && i == 0) {
				continue;
			}
			bits = (bits << 1) | (rows[j][jd_clampi(x + i, 0, w - 1)] < c ? 1u : 0u);
		}
	}
	return bits;
}

/* One matching cost: cmax off the right image, else Hamming distance (census) or |L - R|. */
static inline uint8_t jd__sgm_cost_one(int census, uint8_t cmax, const uint8_t *lrow,
				       const uint8_t *rrow, uint64_t cl, const uint64_t *cr, int x,
				       int xr)
{
	if (xr < 0) {
		return cmax;
	}
	if (census) {
		return (uint8_t)__builtin_popcountll(cl ^ cr[xr]);
	}
	int diff = lrow[x] - rrow[xr];
	return (uint8_t)(diff < 0 ? -diff : diff);
}

/* The per-worker scratch of one selected row (jd_sgm_select_mem_required() sizes it). */
struct jd__sgm_select_scratch {
	uint16_t *min_r; /* best aggregated cost seen for each right-image x */
	int *disp_r;	 /* its disparity index */
	int *disp_l;	 /* integer winner of each left pixel, -1 when rejected */
};

/*
 * One row's pixels: add brow into srow, then for every x the winner, uniqueness and sub-pixel
 * into out[x] and disp_l[x] (-1 when rejected), and the right view's running winners into
 * min_r/disp_r (initialised to UINT16_MAX / -1 by the caller).
 */
typedef void (*jd__sgm_select_pixels_fn)(const struct jd_match_params *p, uint16_t *srow,
					 const uint16_t *brow, int w,
					 const struct jd__sgm_select_scratch *sc, float *out);

/** Runs the selection rows with pixels() for the per-pixel part, then the left-right check. */
void jd__sgm_select_with(jd__sgm_select_pixels_fn pixels, const struct jd_match_params *p,
			 uint16_t *s_fwd, const uint16_t *s_bwd, struct jd_disp *out, void *scratch,
			 const struct jd_exec *ex);

/* Parabola through the three sums around the winner; the one float step of SGM. */
static inline float jd__sgm_subpixel(const uint16_t *s, int nd, int best)
{
	if (best == 0 || best == nd - 1) {
		return 0.0f;
	}
	int c0 = s[best - 1], c1 = s[best], c2 = s[best + 1];
	int denom = c0 + c2 - 2 * c1;

	return denom > 0 ? (float)(c0 - c2) / (float)(2 * denom) : 0.0f;
}

#endif
