/* Internals shared by the SGM aggregation backends (sgm_aggregate.c, neon/sgm_aggregate_neon.c). */
#ifndef JD_ALGO_SGM_PRIV_H
#define JD_ALGO_SGM_PRIV_H

#include <stdint.h>
#include <string.h>

#include "sgm.h"
#include "sgm_levels.h"
#include "subpixel.h"

/*
 * Path costs are bytes. One step of a path r at pixel p, for every disparity d:
 *
 *   m(d)  = min(V(d), min(V(d - 1), V(d + 1)) + P1, P2)
 *   t(d)  = min(C(p, d) + m(d), 255)            added into the sum
 *   V'(d) = t(d) - min_d t                      kept for the next pixel on the path
 *
 * where V is the previous pixel's kept vector (all zeros where the path enters the image, 255
 * beyond both ends of d). Hirschmueller's L_r(p, d) = C + min(L(d), L(d +- 1) + P1,
 * min L + P2) - min L is C + m(d) with V = L - min L: the kept vector is L_r normalised to
 * a minimum of 0, which is what lets it live in a byte.
 *
 * Why a byte is exact. m(d) only looks at V through min(., P2) and min(.) + P1 against P2, so
 * any two values >= P2 give the same m. A kept value differs from L - min L only where
 * C + m > 255, and then it is 255 - min t >= 255 - max C, with min t <= C(d*) at the d* where
 * V(d*) = 0. So while max C + P2 <= 255 (census costs 0..62 with P2 <= 193) the recurrence is
 * Hirschmueller's exactly, and the sum differs from the 16-bit one only where a path cost
 * passes 255, far above any winner. With the default P2 = 200 a pixel needs every disparity's
 * cost above 55 (of 62) before 255 - min t drops below P2: the arithmetic is then ours, and
 * docs/accuracy.md measured it against the 16-bit one on every dev pair. Every backend
 * (NEON with 16 bytes a vector, CUDA with two in the halves of a register) computes exactly these
 * bytes.
 *
 * What a path adds into the sum. t(d) = min t + V'(d), and with census costs and 8 paths the
 * two vertical paths add min t + q(V'(d)) instead, where q is V' on sixteen levels
 * (algo/sgm/sgm_levels.h): exact below 8, then the middle of each step of 16, 120 at the top. The
 * recurrence keeps V' whole; only the summand is coarse, and its fine levels sit where winners
 * are decided, within a few P1 of the path's minimum. So a GPU stores a vertical path's summand
 * as four bits a disparity and min t as a byte a pixel: 8 paths then move 14 bytes a pixel-
 * disparity where 16 would be their floor. Why these two: on the dev pairs no bad rate rises
 * by more than 0.04 points (the diagonal or horizontal pair, or all eight, up to 0.08),
 * and on the GPU the vertical walks are many and shorter than the horizontal ones, so their work
 * hides beside the long horizontal ones. AD costs (0..255) keep t on every path: levels
 * cost them up to 0.19 points on the dev pairs (docs/accuracy.md).
 * A summand is at most min t + V' + 8 <= 263 (q rounds up by at most 8), so a sum of eight
 * paths is at most 6 * 255 + 2 * 263 = 2056, below 2^12, and uint16 holds it.
 */
#define JD__SGM_EDGE 255 /* V beyond d = 0 and d = nd - 1 */

/* What kept value v adds into the sum beside min t: its level's value where coded, else v. */
static inline int jd__sgm_term(int v, int coded)
{
	return coded ? jd__sgm_decode(jd__sgm_code(v)) : v;
}

/* Whether the path of step (dx, dy) adds levels (the rule above): vertical, census, 8 paths. */
static inline int jd__sgm_coded(const struct jd_match_params *p, int dx, int dy)
{
	(void)dy;
	return p->sgm.cost == JD_SGM_COST_CENSUS && p->sgm.paths == 8 && dx == 0;
}

/* The three directions that come from the previous row, and the one along the row. */
enum { JD__ROW_VERT, JD__ROW_DIAG, JD__ROW_ANTI, JD__ROW_PATHS };

struct jd__sgm_sweep_buf {
	uint8_t *lr[JD__ROW_PATHS][2]; /* [2 rows][(width + 2) * (ndisp + 2)] */
	uint8_t *horiz[2];	       /* previous and current pixel along the row */
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

/** Edges and zeros in every row buffer of one sweep. */
void jd__sgm_sweep_init(const struct jd__sgm_sweep_buf *b, int w, int nd);

/* A kept vector where its path enters the image: zeros, with the edges at [0] and [nd + 1]. */
static inline void jd__sgm_init_vec(uint8_t *v, int nd)
{
	v[0] = JD__SGM_EDGE;
	memset(v + 1, 0, (size_t)nd);
	v[nd + 1] = JD__SGM_EDGE;
}

/* t(d) of the rule above, from the kept vector prev (edges at [-1] and [nd]) and C(p, d) = c. */
static inline int jd__sgm_path_t(const uint8_t *prev, int d, int c, int p1, int p2)
{
	int near = (prev[d - 1] < prev[d + 1] ? prev[d - 1] : prev[d + 1]) + p1;
	int m = prev[d] < near ? prev[d] : near;
	int t = c + (m < p2 ? m : p2);

	return t < 255 ? t : 255;
}

/*
 * One path step (the rule above) for d = 0 .. nd - 1: prev and cur point at d = 0 with edges
 * at [-1] and [nd]; cur gets V' and sum min t + jd__sgm_term(V').
 */
static inline void jd__sgm_path_step(const uint8_t *restrict prev, const uint8_t *restrict cost,
				     uint8_t *restrict cur, uint16_t *restrict sum, int nd, int p1,
				     int p2, int coded)
{
	int best = 255;

	for (int d = 0; d < nd; d++) {
		int t = jd__sgm_path_t(prev, d, cost[d], p1, p2);

		cur[d] = (uint8_t)t;
		best = t < best ? t : best;
	}
	for (int d = 0; d < nd; d++) {
		cur[d] = (uint8_t)(cur[d] - best);
		sum[d] = (uint16_t)(sum[d] + best + jd__sgm_term(cur[d], coded));
	}
}

/*
 * Hirschmueller's intensity-adaptive P2: a large step in the guide image along the path makes
 * a disparity jump cheaper, P2' = max(P1 + 1, P2 * T / (T + |dI|)); T = 0 keeps P2 constant.
 * Integer arithmetic, so every backend reproduces it exactly, and P2' <= P2 keeps the bound.
 */
static inline int jd__sgm_adapt_p2(int p1, int p2, int t, int i0, int i1)
{
	int diff = i0 > i1 ? i0 - i1 : i1 - i0;
	int v;

	if (t == 0) {
		return p2;
	}
	v = p2 * t / (t + diff);
	return v > p1 + 1 ? v : p1 + 1;
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

/*
 * Sub-pixel: the equiangular fit (subpixel.h) through the three sums around the winner, the
 * one float step of SGM (sums below 2^12: exact as floats). Against the parabola it had before,
 * on the dev pairs' pixels within 1 px of the truth: RMS 0.211 -> 0.192 px (Venus), 0.255 ->
 * 0.243 (Teddy), 0.208 -> 0.196 (Cones), KITTI 0.494 -> 0.495, and less pixel-locking.
 */
static inline float jd__sgm_subpixel(const uint16_t *s, int nd, int best)
{
	if (best == 0 || best == nd - 1) {
		return 0.0f;
	}
	return jd_subpixel_equiangular(s[best - 1], s[best], s[best + 1]);
}

#endif
