/*
 * Hierarchical belief propagation (Felzenszwalb & Huttenlocher 2004) with the GPU seeds'
 * data layout: every level of data costs and messages lives in one workspace, [y][d][x]
 * with each row split by checkerboard colour, so one colour's pixels are contiguous and the
 * per-disparity loops vectorise across x. Storage is float or IEEE half (arithmetic in float).
 *
 * Definitions that the other backends reproduce exactly:
 *   level 0  D(x,y,d) = q(lambda * min(|L(x,y) - R(x - min_disp - d, y)|, data_k)), where
 *            q() rounds to the nearest 1/16 (jd_bp_quantise()); a disparity that leaves the
 *            right image costs q(lambda * data_k) (the truncation).
 *            With the census cost (jd_prefilter_census_on()) L and R are census codes
 *            (jd_bp_census()) and |L - R| is their Hamming distance, 0..24.
 *   coarse   sum of the 2x2 children in the order (0,0) (1,0) (0,1) (1,1), absent ones skipped.
 *   message  to neighbour q: h = D + the three other incoming; each outgoing value is
 *            min(min over k of (h(k) + |d - k|), min h + disc_k) - min h, disc_k rounded to
 *            the nearest 1/16 (jd_bp_disc_k()). Messages into a pixel from outside the image
 *            are 0.
 *   output   argmin over d of D + up + down + left + right; ties to the smaller d.
 *
 * Every value above is a multiple of 1/16 (costs, slope, cap, and sums and differences of
 * them), far below 2^20 in magnitude, so float arithmetic on them is exact: any order of
 * the sums, a sequential or a log-depth scan for the min over k, gives the same bits. Half
 * storage rounds a value once where it is stored (exact below 128, all messages up to
 * disc_k 128), the same in every backend. This is what lets a backend reassociate.
 */
#ifndef JD_ALGO_BP_H
#define JD_ALGO_BP_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "bp_census.h"
#include "bp_gauss.h"
#include "jd_exec.h"
#include "jd_image.h"
#include "jd_params.h"

/** Census codes of the w x h float image in, as float bit patterns, into out (not in). */
void jd_bp_census(const float *in, int w, int h, float *out, const struct jd_exec *ex);

/** Workspace bytes jd_bp_ref() needs. */
size_t jd_bp_mem_required(const struct jd_match_params *p, int width, int height, int nworkers);

/**
 * The BP matcher (float or fp16 storage per p->bp.fp16).
 * @retval 0 success
 * @retval -ENOMEM workspace smaller than jd_bp_mem_required()
 */
int jd_bp_ref(const struct jd_match_params *p, const struct jd_image *left,
	      const struct jd_image *right, struct jd_disp *out, void *ws, size_t ws_bytes,
	      const struct jd_exec *ex);

/** Where a BP run left one pyramid level in its workspace (bp_priv.h's layout). */
struct jd_bp_level_view {
	int w, h, hp;		   /* pixels, and slots per (row, colour, disparity) */
	const void *data, *msg[4]; /* float, or IEEE half with p->bp.fp16; messages from up,
				      down, left, right */
};

/**
 * The levels of a jd_bp_ref() run with the same p, size and workers, in ws: each level's
 * data costs and final messages, for checking another backend stage by stage.
 * @return the number of levels written to out (p->bp.levels)
 */
int jd_bp_levels(const struct jd_match_params *p, int width, int height, int nworkers,
		 const void *ws, struct jd_bp_level_view *out);

struct jd_kernels;

/** jd_bp_ref() through a kernel table (kernels.h): what the daemon runs. */
int jd_bp_run(const struct jd_kernels *k, const struct jd_match_params *p,
	      const struct jd_image *left, const struct jd_image *right, struct jd_disp *out,
	      void *ws, size_t ws_bytes, const struct jd_exec *ex);

/**
 * One message update on a single disparity vector, in place: h holds D + the three incoming
 * messages; on return it is the outgoing message. The arithmetic every backend mirrors.
 */
void jd_bp_message_1d(float *h, int ndisp, float disc_k);

/** The Gaussian's taps for sigma: radius ceil(4 sigma), at most 63; rad 0 when sigma <= 0. */
void jd_bp_gauss(float sigma, struct jd_bp_gauss *g);

/** Level-0 inputs as float, smoothed when sigma > 0. tmp: width*height floats. */
void jd_bp_prepare_image(const struct jd_image *im, float sigma, float *out, float *tmp);

/* The 1/16 grid every BP cost lies on: exact float sums in any order (see above). */
#define JD_BP_GRID 16.0f

/** c rounded to the nearest multiple of 1/16, halves to even. */
static inline float jd_bp_quantise(float c)
{
	return rintf(c * JD_BP_GRID) * (1.0f / JD_BP_GRID);
}

/** The level-0 cost of a difference diff: q(lambda * min(diff, data_k)) (the definition above). */
/** Effective discontinuity cap (disc_k, or ndisp / 7.5), on the 1/16 grid like every cost. */
float jd_bp_disc_k(const struct jd_match_params *p);

static inline float jd_bp_truncated_cost(const struct jd_match_params *p, float diff)
{
	return jd_bp_quantise(p->bp.lambda * (diff < p->bp.data_k ? diff : p->bp.data_k));
}

static inline float jd_bp_data_cost(const struct jd_match_params *p, const float *lrow,
				    const float *rrow, int x, int d)
{
	int xr = x - p->min_disp - d;
	float diff;

	if (xr < 0) {
		return jd_bp_truncated_cost(p, p->bp.data_k);
	}
	diff = lrow[x] - rrow[xr];
	diff = diff < 0.0f ? -diff : diff;
	return jd_bp_truncated_cost(p, diff);
}

/*
 * The straightforward single-thread float implementation ([y][x][d], one message at a time),
 * kept as the yardstick `jetdepth bench` measures jd_bp_ref() against. Same output as
 * jd_bp_ref() in float mode, bit for bit.
 */
size_t jd_bp_naive_mem_required(const struct jd_match_params *p, int width, int height);
int jd_bp_naive(const struct jd_match_params *p, const struct jd_image *left,
		const struct jd_image *right, struct jd_disp *out, void *ws, size_t ws_bytes);

#endif
