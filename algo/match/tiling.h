/*
 * Horizontal strips for frames whose matcher needs more memory than the board has: the frame
 * is cut into n strips of core rows, each matched on a window of run_h rows (its core plus
 * overlap rows above and below, moved inward at the image edges so that every window has the
 * same height and one set of buffers sized for w x run_h serves them all), and the core rows
 * of each result are copied into the full map. With enough overlap the stitched map equals
 * the untiled one (SAD: the window's half height plus the median's row; SGM: paths forget
 * their start within a few dozen pixels); BP's coarse levels see less context (docs/tiling.md).
 */
#ifndef JD_ALGO_TILING_H
#define JD_ALGO_TILING_H

struct jd_tiling {
	int n;	     /* strips (1: untiled) */
	int h;	     /* the frame's rows */
	int core;    /* core rows a strip (the last may have fewer) */
	int overlap; /* context rows on each side */
	int run_h;   /* rows a strip is matched on: core + 2 * overlap < h, or h untiled */
};

/**
 * n strips of a frame of h rows with this overlap (n is clamped to 1..h, and to the strips
 * that start inside the frame). Where a strip with its context would cover the whole frame,
 * the frame is not cut (n = 1): such strips would save no memory.
 */
void jd_tiling_init(struct jd_tiling *t, int h, int n, int overlap);

/**
 * Strip i: its core rows [*core0, *core1) and the first row of its window (run_h rows from
 * *win0, inside the frame).
 */
void jd_tiling_strip(const struct jd_tiling *t, int i, int *core0, int *core1, int *win0);

/** The default overlap for a matcher (rows of context each side). */
struct jd_match_params;
int jd_tiling_default_overlap(const struct jd_match_params *p);

#include "jd_exec.h"
#include "jd_image.h"
struct jd_kernels;

/**
 * jd_match_run() strip by strip: ws must hold jd_match_mem_required() for w x run_h, and
 * scratch is a w x run_h map. @retval as jd_match_run()
 */
int jd_match_run_tiled(const struct jd_kernels *k, const struct jd_match_params *p,
		       const struct jd_tiling *t, const struct jd_image *left,
		       const struct jd_image *right, struct jd_disp *out, struct jd_disp *scratch,
		       void *ws, size_t ws_bytes, const struct jd_exec *ex);

/* The views of strip i's window and the copy of its core rows, for other runners (GPU). */
void jd_tiling_views(const struct jd_tiling *t, int i, const struct jd_image *left,
		     const struct jd_image *right, struct jd_image *l, struct jd_image *r);
void jd_tiling_copy_core(const struct jd_tiling *t, int i, const struct jd_disp *strip,
			 struct jd_disp *out);

#endif
