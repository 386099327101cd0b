/*
 * The planner: the steps of 3D sensing (sense.h) that the reference and the GPU's host side
 * (hal/cuda/sense_cuda.c) both call, so the two give the same result: the GPU computes the
 * per-pixel figures (hypothesis scores, each row's sums, masks, labels, blob statistics) and the
 * host makes every decision from them with these functions, in the reference's order. Order matters
 * where sums are not exact: a row's sums go left to right, rows are added top to bottom
 * (jd_sense_rows_add); the GPU keeps that order.
 */
#ifndef JD_ALGO_SENSE_PLANNER_H
#define JD_ALGO_SENSE_PLANNER_H

#include <math.h>
#include <stdint.h>

#include "sense.h"

/* An object's footprint centre lies at least this far inside the table's extent. */
#define JD_SENSE_ON_TABLE_MM 10.0
/* Plane hypotheses scored at most (sp->ransac_iters beyond this are not drawn). */
#define JD_SENSE_MAX_HYPOTHESES 1024
/* The widest and tallest map sensed (objects' pixels are packed as y << 16 | x). */
#define JD_SENSE_MAX_SIDE 32767
/* Blobs of at least min_area_px considered at most, in label order (then truncated). */
#define JD_SENSE_MAX_BLOBS(npix) ((long)(npix) / 8 + 64)

struct jd_sense_roi {
	int x0, y0, x1, y1;
};

/*
 * A row's figures, as doubles (exact for the counts and coordinates) so that the GPU's
 * records have the reference's layout: the least-squares sums over a plane's inliers, or the
 * residual sum and the outermost inliers of the final plane.
 */
enum {
	JD_SROW_N,
	JD_SROW_X,
	JD_SROW_Y,
	JD_SROW_XX,
	JD_SROW_XY,
	JD_SROW_YY,
	JD_SROW_XD,
	JD_SROW_YD,
	JD_SROW_D,
	JD_SROW_RSS,
	JD_SROW_LO, /* -1: no inlier */
	JD_SROW_HI,
	JD_SROW_FIELDS
};

/* A connected blob: label (> 0), pixel count, box (x0, y0, x1, y1 inclusive). */
struct jd_sense_blob {
	int32_t label, area, bbox[4]; /* area: its strong and weak pixels */
};

/* The workspace jd_sense_mem_required() sizes. */
struct jd_sense_ws {
	uint8_t *m0, *m1, *weak; /* weak: every object pixel, strong or weak, before cleaning */
	int32_t *label, *parent; /* parent: free once the blobs are listed (objects' pixels) */
	float *scratch, *scratch2;
	long nparent;
	double *rows; /* h * JD_SROW_FIELDS */
	struct jd_sense_blob *blobs;
	long max_blobs;
	double (*hull)[2]; /* image points, then the same on the table in mm (e1, e2) */
	int nhull;
};

/** Carve ws from mem (the reference's layout). @retval 0 or -ENOMEM */
int jd_sense_carve(void *mem, size_t bytes, int w, int h, struct jd_sense_ws *s);

/** Check the parameters and the camera, resolve the ROI. @retval 0 or -EINVAL */
int jd_sense_check(const struct jd_sense_params *sp, const struct jd_camera_model *cam, int w,
		   int h, struct jd_sense_roi *r);

static inline int jd_sense_valid(float d)
{
	return d > 0.0f && d < INFINITY; /* isfinite without libm's macro: NaN fails both */
}

/** The grid step hypotheses are scored on (about 10k pixels of the ROI). */
int jd_sense_grid_step(const struct jd_sense_roi *r);

/** Draw the plane hypotheses, d = p[0] x + p[1] y + p[2], in order. @return how many */
int jd_sense_hypotheses(const struct jd_sense_params *sp, const struct jd_disp *dm,
			const struct jd_sense_roi *r, double (*plane)[3]);

/*
 * The draw reads the map only through pick: the disparity at the k-th candidate pixel (x, y),
 * the pixel the seed's stream draws k gives. Each candidate takes two draws whatever it
 * holds, so the candidates are fixed by the seed and the ROI: the GPU gathers their values
 * first and the host draws from those (hal/cuda/sense_cuda.c).
 */
typedef float (*jd_sense_pick_fn)(void *ctx, long k, int x, int y);
int jd_sense_hypotheses_by(const struct jd_sense_params *sp, const struct jd_sense_roi *r,
			   jd_sense_pick_fn pick, void *ctx, double (*plane)[3]);

/* The most candidates a draw reads: 64 tries for each of its iterations. */
#define JD_SENSE_TRIES 64

/** The stream's first 2n draws (candidate k's pixel: x0 + d[2k] % width, y0 + d[2k+1] % height). */
void jd_sense_draws(const struct jd_sense_params *sp, long n, uint32_t *draws);

/** One hypothesis's inliers on the grid. */
long jd_sense_score(const struct jd_disp *dm, const struct jd_sense_roi *r, int step,
		    const double pl[3], float tol);

/** The first hypothesis with most inliers that could be a table. @retval 0, -1 (none) */
int jd_sense_best(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		  const double (*plane)[3], const long *count, int n, double best[3]);

/** Row y's least-squares sums over the inliers of pl (JD_SROW_N .. JD_SROW_D). */
void jd_sense_row_lsq(const struct jd_disp *dm, const struct jd_sense_roi *r, int y,
		      const double pl[3], float tol, double *rec);

/** Row y's residual sum against pl and outermost inliers of (a, b, c) = (float)pl. */
void jd_sense_row_fit(const struct jd_disp *dm, const struct jd_sense_roi *r, int y,
		      const double pl[3], float tol, double *rec);

/** Add the rows' records field by field, top to bottom. */
void jd_sense_rows_add(const double *rows, int nrows, double *sum);

/** Solve the least squares of summed records. @retval 0, -1 (too few or singular) */
int jd_sense_lsq_solve(const double *sum, double sol[3]);

/** The plane's verdict and geometry from the fit's figures. */
void jd_sense_plane(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		    const double best[3], long inliers, long nvalid, long npix, double rss,
		    struct jd_plane *pl);

/** The table's extent from the final rows' outermost inliers (s->hull, s->nhull). */
void jd_sense_extent(const struct jd_camera_model *cam, const struct jd_sense_roi *r,
		     const struct jd_plane *pl, int w, struct jd_sense_ws *s);

/*
 * Object pixels by hysteresis: strong ones stand above the table by min_height_mm (and by the
 * plane's tolerance in disparity); weak ones by half of both. A blob is a component of the
 * strong pixels, opened and closed, grown into the weak ones that touch it, pass by pass (a
 * weak pixel takes the least label beside it), so that an object's rim near the table (its
 * lowest min_height_mm, a third of a small box's face) belongs to it, the table's own noise,
 * weak at most, makes no blob, and a rim never bridges two objects.
 */
enum { JD_SENSE_PX_WEAK = 1, JD_SENSE_PX_STRONG = 2 };

/* The weak pixels' share of both thresholds (a third or a quarter let the table's noise in). */
#define JD_SENSE_WEAK_SHARE 0.5f

/* How far (passes, pixels) a blob grows into its weak rim. */
#define JD_SENSE_GROW_PASSES 16

/** Pixel (x, y) with disparity d: JD_SENSE_PX_STRONG, JD_SENSE_PX_WEAK or 0. */
int jd_sense_object_px(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		       const struct jd_plane *pl, const struct jd_sense_roi *r, int fixed, int x,
		       int y, float d);

/** Do two neighbouring object pixels with these disparities belong together? */
static inline int jd_sense_joins(float a, float b)
{
	if (!jd_sense_valid(a) || !jd_sense_valid(b)) {
		return 1;
	}
	float gap = a > b ? a - b : b - a, big = a > b ? a : b;
	return gap <= 1.5f || gap <= 0.03f * big;
}

/*
 * An object's figures, from which jd_sense_objects() finishes it: the reference gathers
 * them from the object's pixels, the GPU (hal/cuda/sense_cuda.c) the same. Sums of points are
 * integers in fixed point (jd_sense_fix), so they add exactly in any order, and the
 * percentiles are order statistics with a zero as +0: neither depends on who adds or selects.
 * First: everything up to the footprint's axis; then, given the axis, its percentiles.
 */
struct jd_sense_obj_rec {
	long long n, sx, sy;	/* pixels with a disparity; their x and y summed */
	float med, lo, hi, top; /* disparity's 50th, 2nd, 98th percentile; height's 95th */
	long long kept, c[3];	/* the points with lo <= d <= hi; their sum (JD_SENSE_FIX) */
	long long ntop, t[3];	/* those at least 0.9 top above the table; their sum */
	long long su, sv, suu, svv,
	    suv;	      /* (u, v) on the table about the centroid (JD_SENSE_FIXC) */
	float a0, a1, b0, b1; /* along, then across the axis: 2nd and 98th percentiles */
};

/* Points in 1/64 mm, |q| within 2^31 - 1 (33 km: only a stray disparity's point gets there). */
#define JD_SENSE_FIX 64.0
#define JD_SENSE_FIX_LIM 2147483647.0
/*
 * About the centroid, on the table: 1/16 mm within 2^17 - 1 (8 m), so that n q^2 stays
 * within 63 bits for any map sensed (2^28 pixels at most: --size stops at 16384).
 */
#define JD_SENSE_FIXC 16.0
#define JD_SENSE_FIXC_LIM 131071.0

/** v mm in fixed point: v * unit, clamped to lim, rounded to the nearest (even) integer. */
long long jd_sense_fix(double v, double unit, double lim);

/** The centroid (mm) of the points kept: c / JD_SENSE_FIX / kept, as floats. */
void jd_sense_obj_centroid(const struct jd_sense_obj_rec *rec, float c[3]);

/**
 * Gathers a batch's records: first(ctx, blobs, k, rec) each blob's first figures, then
 * axes(ctx, blobs, k, ax, rec) the percentiles along and across ax[i] (cos, sin) of those
 * with a plane and at least two pixels with a disparity. @retval 0 or a negative errno
 */
struct jd_sense_gather {
	int (*first)(void *ctx, const struct jd_sense_blob *b, int k, struct jd_sense_obj_rec *rec);
	int (*axes)(void *ctx, const struct jd_sense_blob *b, int k, const double (*ax)[2],
		    struct jd_sense_obj_rec *rec);
	void *ctx;
};

/** The reference's gathering, over ex (s->parent and the scratches hold the pixels). */
struct jd_sense_ref_gather {
	const struct jd_camera_model *cam;
	const struct jd_disp *dm;
	const struct jd_plane *pl;
	const struct jd_sense_ws *s;
	const struct jd_exec *ex;
	long offset[JD_SENSE_MAX_OBJECTS]; /* each blob's share: the areas before it */
};
void jd_sense_ref_gather_init(struct jd_sense_ref_gather *rg, struct jd_sense_gather *g);

/**
 * From the blobs (each at least min_area_px, in any order): the objects, largest first (the
 * smaller label among equals), measured from g's records, checked and kept (out->nobjects,
 * out->truncated), in batches of as many as are still wanted; s->hull is the table's extent.
 * @retval 0 or g's error
 */
int jd_sense_objects(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		     const struct jd_sense_roi *r, const struct jd_sense_ws *s,
		     struct jd_sense_blob *blobs, long nblobs, const struct jd_sense_gather *g,
		     struct jd_sense_result *out);

#endif
