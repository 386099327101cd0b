/*
 * The table plane (sense.h): RANSAC hypotheses, their scores, least squares on the inliers,
 * the verdict, and the table's extent. Each pass over the map is a function of one row or
 * one hypothesis, so the GPU (hal/cuda/sense_cuda.c) computes the same figures.
 */
#include <math.h>
#include <string.h>

#include "sense_planner.h"

static uint32_t rnd(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

/* Solve the 3x3 system m * x = r (Cramer). @retval 0, or -1 when singular */
static int solve3(const double m[3][3], const double r[3], double x[3])
{
	double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
		     m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
		     m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);

	if (fabs(det) < 1e-12) {
		return -1;
	}
	for (int k = 0; k < 3; k++) {
		double t[3][3];
		memcpy(t, m, sizeof(t));
		for (int i = 0; i < 3; i++) {
			t[i][k] = r[i];
		}
		x[k] = (t[0][0] * (t[1][1] * t[2][2] - t[1][2] * t[2][1]) -
			t[0][1] * (t[1][0] * t[2][2] - t[1][2] * t[2][0]) +
			t[0][2] * (t[1][0] * t[2][1] - t[1][1] * t[2][0])) /
		       det;
	}
	return 0;
}

int jd_sense_grid_step(const struct jd_sense_roi *r)
{
	long npix = (long)(r->x1 - r->x0) * (r->y1 - r->y0);
	int step = 1;

	while ((npix / ((long)step * step)) > 10000) {
		step++; /* score hypotheses on a grid of about 10k pixels: enough to rank planes */
	}
	return step;
}

int jd_sense_hypotheses_by(const struct jd_sense_params *sp, const struct jd_sense_roi *r,
			   jd_sense_pick_fn pick, void *ctx, double (*plane)[3])
{
	uint32_t seed = sp->seed ? sp->seed : 1;
	long k = 0;
	int n = 0;

	for (int it = 0; it < sp->ransac_iters && n < JD_SENSE_MAX_HYPOTHESES; it++) {
		double a[3][3], rhs[3];
		int got = 0;
		for (int tries = 0; tries < JD_SENSE_TRIES && got < 3; tries++, k++) {
			int x = r->x0 + (int)(rnd(&seed) % (uint32_t)(r->x1 - r->x0));
			int y = r->y0 + (int)(rnd(&seed) % (uint32_t)(r->y1 - r->y0));
			float d = pick(ctx, k, x, y);
			if (jd_sense_valid(d)) {
				a[got][0] = x;
				a[got][1] = y;
				a[got][2] = 1.0;
				rhs[got++] = d;
			}
		}
		if (got == 3 && !solve3(a, rhs, plane[n])) {
			n++;
		}
	}
	return n;
}

static float pick_map(void *ctx, long k, int x, int y)
{
	(void)k;
	return jd_disp_row(ctx, y)[x];
}

int jd_sense_hypotheses(const struct jd_sense_params *sp, const struct jd_disp *dm,
			const struct jd_sense_roi *r, double (*plane)[3])
{
	return jd_sense_hypotheses_by(sp, r, pick_map, (void *)dm, plane);
}

void jd_sense_draws(const struct jd_sense_params *sp, long n, uint32_t *draws)
{
	uint32_t seed = sp->seed ? sp->seed : 1;

	for (long i = 0; i < 2 * n; i++) {
		draws[i] = rnd(&seed);
	}
}

/* Is d an inlier of d = pl[0] x + pl[1] y + pl[2]? (The GPU's twin is sense_cuda.cu's.) */
static int inlier(float d, int x, int y, const double pl[3], float tol)
{
	return jd_sense_valid(d) && fabs(d - (pl[0] * x + pl[1] * y + pl[2])) <= tol;
}

long jd_sense_score(const struct jd_disp *dm, const struct jd_sense_roi *r, int step,
		    const double pl[3], float tol)
{
	long n = 0;

	for (int y = r->y0; y < r->y1; y += step) {
		const float *row = jd_disp_row(dm, y);
		for (int x = r->x0; x < r->x1; x += step) {
			n += inlier(row[x], x, y, pl, tol);
		}
	}
	return n;
}

int jd_sense_best(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		  const double (*plane)[3], const long *count, int n, double best[3])
{
	long best_n = -1;

	for (int i = 0; i < n; i++) {
		/* a wall or a face of a box seen edge-on is no table however large */
		const double *h = plane[i];
		double hz = (h[2] + h[0] * cam->cx + h[1] * cam->cy) / cam->f;
		double hl = sqrt(h[0] * h[0] + h[1] * h[1] + hz * hz);
		if (!(hl > 0.0) || acos(fabs(hz) / hl) * 180.0 / M_PI > sp->max_table_tilt_deg) {
			continue;
		}
		if (count[i] > best_n) {
			best_n = count[i];
			memcpy(best, plane[i], 3 * sizeof(double));
		}
	}
	return best_n < 0 ? -1 : 0;
}

void jd_sense_row_lsq(const struct jd_disp *dm, const struct jd_sense_roi *r, int y,
		      const double pl[3], float tol, double *rec)
{
	const float *row = jd_disp_row(dm, y);

	memset(rec, 0, JD_SROW_FIELDS * sizeof(double));
	for (int x = r->x0; x < r->x1; x++) {
		float d = row[x];
		if (!inlier(d, x, y, pl, tol)) {
			continue;
		}
		/* the coordinate sums are exact; the ones with d are in the row's order */
		rec[JD_SROW_N] += 1.0;
		rec[JD_SROW_X] += x;
		rec[JD_SROW_Y] += y;
		rec[JD_SROW_XX] += (double)x * x;
		rec[JD_SROW_XY] += (double)x * y;
		rec[JD_SROW_YY] += (double)y * y;
		rec[JD_SROW_XD] += x * (double)d;
		rec[JD_SROW_YD] += y * (double)d;
		rec[JD_SROW_D] += d;
	}
}

void jd_sense_row_fit(const struct jd_disp *dm, const struct jd_sense_roi *r, int y,
		      const double pl[3], float tol, double *rec)
{
	const float *row = jd_disp_row(dm, y);
	float a = (float)pl[0], b = (float)pl[1], c = (float)pl[2];
	int lo = -1, hi = -1;

	memset(rec, 0, JD_SROW_FIELDS * sizeof(double));
	for (int x = r->x0; x < r->x1; x++) {
		float d = row[x];
		if (!jd_sense_valid(d)) {
			continue;
		}
		double e = d - (pl[0] * x + pl[1] * y + pl[2]);
		if (fabs(e) <= tol) {
			rec[JD_SROW_RSS] += e * e;
		}
		/* the extent uses the plane as reported (floats) */
		if (fabsf(d - (a * x + b * y + c)) <= tol) {
			lo = lo < 0 ? x : lo;
			hi = x;
		}
	}
	rec[JD_SROW_LO] = lo;
	rec[JD_SROW_HI] = hi;
}

void jd_sense_rows_add(const double *rows, int nrows, double *sum)
{
	memset(sum, 0, JD_SROW_FIELDS * sizeof(double));
	for (int y = 0; y < nrows; y++) {
		for (int k = 0; k < JD_SROW_FIELDS; k++) {
			sum[k] += rows[(size_t)y * JD_SROW_FIELDS + k];
		}
	}
}

int jd_sense_lsq_solve(const double *s, double sol[3])
{
	double m[3][3] = {{s[JD_SROW_XX], s[JD_SROW_XY], s[JD_SROW_X]},
			  {s[JD_SROW_XY], s[JD_SROW_YY], s[JD_SROW_Y]},
			  {s[JD_SROW_X], s[JD_SROW_Y], s[JD_SROW_N]}};
	double v[3] = {s[JD_SROW_XD], s[JD_SROW_YD], s[JD_SROW_D]};

	if (s[JD_SROW_N] < 3.0) {
		return -1;
	}
	return solve3(m, v, sol);
}

void jd_sense_plane(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		    const double best[3], long inliers, long nvalid, long npix, double rss,
		    struct jd_plane *pl)
{
	pl->inliers = inliers;
	pl->roi_share = (float)pl->inliers / (float)npix;
	pl->residual_px = pl->inliers ? (float)sqrt(rss / (double)pl->inliers) : 0.0f;
	pl->a = (float)best[0];
	pl->b = (float)best[1];
	pl->c = (float)best[2];
	/*
	 * A table holds a real share of the view (a handful of coplanar pixels is not one) and
	 * its inliers hug the plane (a plane laid through scattered noise has them spread over
	 * the whole tolerance band: RMS tol / sqrt(3)).
	 */
	if (pl->inliers < nvalid / 20 || pl->roi_share < sp->min_table_share) {
		pl->verdict = JD_TABLE_LOW_SUPPORT;
		return;
	}
	if (pl->residual_px > 0.5f * sp->plane_tol) {
		pl->verdict = JD_TABLE_ROUGH;
		return;
	}
	double vz = (best[2] + best[0] * cam->cx + best[1] * cam->cy) / cam->f;
	double len = sqrt(best[0] * best[0] + best[1] * best[1] + vz * vz);
	if (!(vz > 0.0) || len <= 0.0) {
		pl->verdict = JD_TABLE_NOT_IN_FRONT; /* through or behind the camera */
		return;
	}
	pl->valid = 1;
	pl->verdict = JD_TABLE_FOUND;
	pl->n[0] = (float)(best[0] / len);
	pl->n[1] = (float)(best[1] / len);
	pl->n[2] = (float)(vz / len);
	pl->k_mm = (float)(cam->baseline_mm / len);
	pl->tilt_deg = (float)(acos(fabs(vz / len)) * 180.0 / M_PI);
	/* e1: the camera's x axis on the table; e2 = n x e1 (both unit, in the plane) */
	double e1[3] = {1.0 - pl->n[0] * pl->n[0], -pl->n[0] * pl->n[1], -pl->n[0] * pl->n[2]};
	double l1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
	for (int i = 0; i < 3; i++) {
		pl->e1[i] = (float)(e1[i] / l1);
	}
	pl->e2[0] = pl->n[1] * pl->e1[2] - pl->n[2] * pl->e1[1];
	pl->e2[1] = pl->n[2] * pl->e1[0] - pl->n[0] * pl->e1[2];
	pl->e2[2] = pl->n[0] * pl->e1[1] - pl->n[1] * pl->e1[0];
}

/* Where the camera ray through (x, y) meets the table, in the table's axes (mm). */
static void on_table(const struct jd_camera_model *cam, const struct jd_plane *pl, double x,
		     double y, double uv[2])
{
	double ray[3] = {(x - cam->cx) / cam->f, (y - cam->cy) / cam->f, 1.0};
	double t = pl->k_mm / (pl->n[0] * ray[0] + pl->n[1] * ray[1] + pl->n[2] * ray[2]);

	uv[0] = t * (pl->e1[0] * ray[0] + pl->e1[1] * ray[1] + pl->e1[2] * ray[2]);
	uv[1] = t * (pl->e2[0] * ray[0] + pl->e2[1] * ray[1] + pl->e2[2] * ray[2]);
}

static double turn(const double o[2], const double a[2], const double b[2])
{
	return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/*
 * The convex hull of the table's inliers, from each row's outermost ones (Andrew's monotone
 * chain over points already in (y, x) order), then mapped onto the table (a projective map
 * keeps the hull convex). s->nhull = 0 when there is none.
 */
void jd_sense_extent(const struct jd_camera_model *cam, const struct jd_sense_roi *r,
		     const struct jd_plane *pl, int w, struct jd_sense_ws *s)
{
	double(*pts)[2] = (double(*)[2])s->scratch; /* 4 h doubles fit: w >= 8 */
	int np = 0, k = 0;

	s->nhull = 0;
	if (!pl->valid || w < 8) {
		return;
	}
	for (int y = r->y0; y < r->y1; y++) {
		const double *rec = s->rows + (size_t)(y - r->y0) * JD_SROW_FIELDS;
		if (rec[JD_SROW_LO] >= 0) {
			pts[np][0] = rec[JD_SROW_LO];
			pts[np++][1] = y;
			pts[np][0] = rec[JD_SROW_HI];
			pts[np++][1] = y;
		}
	}
	if (np < 3) {
		return;
	}
	/* ordered by (y, x): the chain's lexicographic order with the axes swapped */
	double(*hull)[2] = s->hull;
	for (int i = 0; i < np; i++) {
		while (k >= 2 && turn(hull[k - 2], hull[k - 1], pts[i]) <= 0) {
			k--;
		}
		hull[k][0] = pts[i][0];
		hull[k++][1] = pts[i][1];
	}
	for (int i = np - 2, lower = k + 1; i >= 0; i--) {
		while (k >= lower && turn(hull[k - 2], hull[k - 1], pts[i]) <= 0) {
			k--;
		}
		hull[k][0] = pts[i][0];
		hull[k++][1] = pts[i][1];
	}
	s->nhull = k - 1; /* the last point repeats the first */
	for (int i = 0; i < s->nhull; i++) {
		double uv[2];
		on_table(cam, pl, hull[i][0], hull[i][1], uv);
		hull[i][0] = uv[0];
		hull[i][1] = uv[1];
	}
}
