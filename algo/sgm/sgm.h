/*
 * Semi-global matching (Hirschmueller 2008), stages in pipeline order (cf. libSGM internal.h).
 * Every stage is integer arithmetic except the sub-pixel division, so other backends can be
 * compared with memcmp.
 */
#ifndef JD_ALGO_SGM_H
#define JD_ALGO_SGM_H

#include <stddef.h>
#include <stdint.h>

#include "jd_exec.h"
#include "jd_image.h"
#include "jd_params.h"
#include "sgm_census.h"

/** Largest matching cost of a cost type (also the cost of a disparity that leaves the image). */
int jd_sgm_cost_max(enum jd_sgm_cost cost);

/** Census bits of every pixel; outside pixels replicate the edge. out: width*height values. */
void jd_census_ref(const struct jd_image *im, uint64_t *out, const struct jd_exec *ex);

/**
 * Cost volume C[y][x][d] (uint8, d fastest) for disparities min_disp + d.
 * census_l/census_r are used for the census cost and ignored for AD.
 */
void jd_sgm_cost_ref(const struct jd_match_params *p, const struct jd_image *left,
		     const struct jd_image *right, const uint64_t *census_l,
		     const uint64_t *census_r, uint8_t *cost, const struct jd_exec *ex);

/** Per-sweep row buffers for jd_sgm_aggregate_ref(); bytes for one sweep. */
size_t jd_sgm_sweep_mem_required(int width, int ndisp);

/**
 * Path aggregation over the cost volume of guide (the left image, which also steers the
 * adaptive P2). The top-down sweep (left-to-right, down, and for 8 paths both downward
 * diagonals) sums into s_fwd; the bottom-up sweep (the opposite directions) into s_bwd.
 * Path costs are bytes (sgm_priv.h), so each sum is at most 4 * 255 and uint16 holds it.
 * sweep_ws: two blocks of jd_sgm_sweep_mem_required() bytes.
 */
void jd_sgm_aggregate_ref(const struct jd_match_params *p, const struct jd_image *guide,
			  const uint8_t *cost, uint16_t *s_fwd, uint16_t *s_bwd, void *sweep_ws,
			  const struct jd_exec *ex);

/** Scratch bytes for jd_sgm_path_ref(): two rows of kept path-cost vectors (bytes). */
size_t jd_sgm_path_mem_required(int width, int ndisp);

/**
 * One direction's path costs added into sum (w * h * ndisp uint16): (dx, dy) is the step from
 * the previous pixel on the path, e.g. (1, 0) the left-to-right path, (-1, 1) the one from
 * the upper right. The arithmetic, edge and P2 rules of jd_sgm_aggregate_ref(), whose sums
 * are these paths' sums; the GPU tests check each direction's kernel against it.
 * ws: jd_sgm_path_mem_required() bytes.
 */
void jd_sgm_path_ref(const struct jd_match_params *p, const struct jd_image *guide,
		     const uint8_t *cost, int dx, int dy, uint16_t *sum, void *ws);

/** Per-worker scratch bytes for jd_sgm_select_ref(). */
size_t jd_sgm_select_mem_required(int width);

/**
 * Adds s_bwd into s_fwd, then per pixel: winner-takes-all, uniqueness, sub-pixel, left-right
 * check; invalid pixels get JD_DISP_INVALID. scratch: nworkers blocks of
 * jd_sgm_select_mem_required() bytes.
 */
void jd_sgm_select_ref(const struct jd_match_params *p, uint16_t *s_fwd, const uint16_t *s_bwd,
		       struct jd_disp *out, void *scratch, const struct jd_exec *ex);

/** Workspace bytes for the whole matcher. */
size_t jd_sgm_mem_required(const struct jd_match_params *p, int width, int height, int nworkers);

/**
 * The whole SGM matcher: cost, aggregation, selection, optional fill, optional 3x3 median.
 * @retval 0 success
 * @retval -ENOMEM workspace smaller than jd_sgm_mem_required()
 */
int jd_sgm_ref(const struct jd_match_params *p, const struct jd_image *left,
	       const struct jd_image *right, struct jd_disp *out, void *ws, size_t ws_bytes,
	       const struct jd_exec *ex);

struct jd_kernels;

/** jd_sgm_ref() through a kernel table (kernels.h): what the daemon runs. */
int jd_sgm_run(const struct jd_kernels *k, const struct jd_match_params *p,
	       const struct jd_image *left, const struct jd_image *right, struct jd_disp *out,
	       void *ws, size_t ws_bytes, const struct jd_exec *ex);

/* NEON twins (algo/neon/), same contracts as the _ref functions above. */
void jd_census_neon(const struct jd_image *im, uint64_t *out, const struct jd_exec *ex);
void jd_sgm_cost_neon(const struct jd_match_params *p, const struct jd_image *left,
		      const struct jd_image *right, const uint64_t *census_l,
		      const uint64_t *census_r, uint8_t *cost, const struct jd_exec *ex);
void jd_sgm_aggregate_neon(const struct jd_match_params *p, const struct jd_image *guide,
			   const uint8_t *cost, uint16_t *s_fwd, uint16_t *s_bwd, void *sweep_ws,
			   const struct jd_exec *ex);
void jd_sgm_select_neon(const struct jd_match_params *p, uint16_t *s_fwd, const uint16_t *s_bwd,
			struct jd_disp *out, void *scratch, const struct jd_exec *ex);

#endif
