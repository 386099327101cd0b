#include "sense.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "jd_carve.h"

/* An object's footprint centre lies at least this far inside the table's extent. */
#define JD_SENSE_ON_TABLE_MM 10.0

void jd_sense_default(struct jd_sense_params *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->ransac_iters = 200;
	sp->plane_tol = 1.0f;
	sp->min_height_mm = 15.0f;
	sp->min_area_px = 100;
	sp->min_table_share = 0.1f;
	sp->max_table_tilt_deg = 60.0f;
	sp->seed = 1;
}

const char *jd_table_verdict_name(enum jd_table_verdict v)
{
	switch (v) {
	case JD_TABLE_FOUND:
		return "found";
	case JD_TABLE_NOT_FITTED:
		return "too_few_pixels";
	case JD_TABLE_LOW_SUPPORT:
		return "low_support";
	case JD_TABLE_ROUGH:
		return "rough";
	case JD_TABLE_NOT_IN_FRONT:
		return "not_in_front";
	}
	return "?";
}

/*
 * Workspace: two masks, labels, the union-find parents (then per-label counts), a scratch,
 * and the table's extent: each row's leftmost and rightmost inlier, then their convex hull.
 */
struct ws {
	uint8_t *m0, *m1;
	int32_t *label, *parent;
	float *scratch, *scratch2;
	long nparent;
	int32_t *row_lo, *row_hi;
	double (*hull)[2]; /* image points, then the same on the table in mm (e1, e2) */
	int nhull;
};

/* One layout for both the size (base NULL) and the carving: they cannot disagree. */
static void layout(struct jd_carve *c, int w, int h, struct ws *s)
{
	size_t n = (size_t)w * h;

	s->m0 = jd_carve(c, n);
	s->m1 = jd_carve(c, n);
	s->label = jd_carve(c, sizeof(int32_t) * n);
	s->nparent = (long)(n + 2); /* depth edges split blobs: a label can be a pixel */
	s->parent = jd_carve(c, sizeof(int32_t) * (size_t)s->nparent);
	s->scratch = jd_carve(c, sizeof(float) * n);
	s->scratch2 = jd_carve(c, sizeof(float) * n);
	s->row_lo = jd_carve(c, sizeof(int32_t) * (size_t)h);
	s->row_hi = jd_carve(c, sizeof(int32_t) * (size_t)h);
	s->hull = jd_carve(c, sizeof(double) * 2 * (2 * (size_t)h + 1));
}

size_t jd_sense_mem_required(int width, int height)
{
	struct jd_carve c;
	struct ws s;

	jd_carve_init(&c, NULL, 0);
	layout(&c, width, height, &s);
	return jd_carve_total(&c);
}

static int carve(void *mem, size_t bytes, int w, int h, struct ws *s)
{
	struct jd_carve c;

	jd_carve_init(&c, mem, bytes);
	layout(&c, w, h, s);
	return c.overflow ? -ENOMEM : 0;
}

static uint32_t rnd(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

static int valid_d(float d)
{
	return d > 0.0f && isfinite(d);
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

struct roi {
	int x0, y0, x1, y1;
};

/* Inliers of d = a x + b y + c within tol, on a grid of step `step`; LSQ sums when asked. */
static long count_inliers(const struct jd_disp *dm, const struct roi *r, int step,
			  const double pl[3], float tol, double m[3][3], double v[3])
{
	long n = 0;

	if (m) {
		memset(m, 0, 9 * sizeof(double));
		memset(v, 0, 3 * sizeof(double));
	}
	for (int y = r->y0; y < r->y1; y += step) {
		const float *row = jd_disp_row(dm, y);
		for (int x = r->x0; x < r->x1; x += step) {
			float d = row[x];
			if (!valid_d(d) || fabs(d - (pl[0] * x + pl[1] * y + pl[2])) > tol) {
				continue;
			}
			n++;
			if (m) {
				double q[3] = {x, y, 1.0};
				for (int i = 0; i < 3; i++) {
					for (int j = 0; j < 3; j++) {
						m[i][j] += q[i] * q[j];
					}
					v[i] += q[i] * d;
				}
			}
		}
	}
	return n;
}

struct score_job {
	const struct jd_disp *dm;
	const struct roi *r;
	int step;
	float tol;
	double plane[1024][3];
	long count[1024];
	int n;
};

static void score_one(void *ctx, int i, int worker)
{
	struct score_job *j = ctx;

	(void)worker;
	j->count[i] = count_inliers(j->dm, j->r, j->step, j->plane[i], j->tol, NULL, NULL);
}

static void fit_plane(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		      const struct jd_disp *dm, const struct roi *r, struct jd_plane *pl,
		      const struct jd_exec *ex)
{
	long npix = (long)(r->x1 - r->x0) * (r->y1 - r->y0), nvalid = 0;
	int step = 1;
	uint32_t seed = sp->seed ? sp->seed : 1;
	double best[3] = {0}, m[3][3], v[3], sol[3];
	long best_n = -1;

	memset(pl, 0, sizeof(*pl));
	pl->verdict = JD_TABLE_NOT_FITTED;
	while ((npix / ((long)step * step)) > 10000) {
		step++; /* score hypotheses on a grid of about 10k pixels: enough to rank planes */
	}
	for (int y = r->y0; y < r->y1; y++) {
		for (int x = r->x0; x < r->x1; x++) {
			nvalid += valid_d(jd_disp_row(dm, y)[x]);
		}
	}
	if (nvalid < 3) {
		return;
	}
	/* Hypotheses drawn in order (deterministic), scored in parallel, the first best kept. */
	enum { MAXH = 1024 };
	struct score_job job = {dm, r, step, sp->plane_tol, {{0}}, {0}, 0};
	for (int it = 0; it < sp->ransac_iters && job.n < MAXH; it++) {
		double a[3][3], rhs[3];
		int got = 0;
		for (int tries = 0; tries < 64 && got < 3; tries++) {
			int x = r->x0 + (int)(rnd(&seed) % (uint32_t)(r->x1 - r->x0));
			int y = r->y0 + (int)(rnd(&seed) % (uint32_t)(r->y1 - r->y0));
			float d = jd_disp_row(dm, y)[x];
			if (valid_d(d)) {
				a[got][0] = x;
				a[got][1] = y;
				a[got][2] = 1.0;
				rhs[got++] = d;
			}
		}
		if (got == 3 && !solve3(a, rhs, sol)) {
			memcpy(job.plane[job.n++], sol, sizeof(sol));
		}
	}
	jd_exec_run(ex, job.n, score_one, &job);
	for (int i = 0; i < job.n; i++) {
		/* a wall or a face of a box seen edge-on is no table however large */
		const double *h = job.plane[i];
		double hz = (h[2] + h[0] * cam->cx + h[1] * cam->cy) / cam->f;
		double hl = sqrt(h[0] * h[0] + h[1] * h[1] + hz * hz);
		if (!(hl > 0.0) || acos(fabs(hz) / hl) * 180.0 / M_PI > sp->max_table_tilt_deg) {
			continue;
		}
		if (job.count[i] > best_n) {
			best_n = job.count[i];
			memcpy(best, job.plane[i], sizeof(best));
		}
	}
	if (best_n < 0) {
		return;
	}
	/* Least squares on every inlier, twice (the inliers move with the plane). */
	for (int pass = 0; pass < 2; pass++) {
		long n = count_inliers(dm, r, 1, best, sp->plane_tol, m, v);
		if (n < 3 || solve3(m, v, sol)) {
			break;
		}
		memcpy(best, sol, sizeof(best));
		pl->inliers = n;
	}
	/*
	 * A table holds a real share of the view (a handful of coplanar pixels is not one) and
	 * its inliers hug the plane (a plane laid through scattered noise has them spread over
	 * the whole tolerance band: RMS tol / sqrt(3)).
	 */
	double rss = 0.0;
	for (int y = r->y0; y < r->y1; y++) {
		const float *row = jd_disp_row(dm, y);
		for (int x = r->x0; x < r->x1; x++) {
			double e = row[x] - (best[0] * x + best[1] * y + best[2]);
			if (valid_d(row[x]) && fabs(e) <= sp->plane_tol) {
				rss += e * e;
			}
		}
	}
	pl->roi_share = (float)pl->inliers / (float)npix;
	pl->residual_px = pl->inliers ? (float)sqrt(rss / (double)pl->inliers) : 0.0f;
	pl->a = (float)best[0];
	pl->b = (float)best[1];
	pl->c = (float)best[2];
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

float jd_plane_height_mm(const struct jd_plane *p, const struct jd_camera_model *cam, float x,
			 float y, float d)
{
	float z = cam->f * cam->baseline_mm / d;
	float px = (x - cam->cx) * z / cam->f, py = (y - cam->cy) * z / cam->f;

	return p->k_mm - (p->n[0] * px + p->n[1] * py + p->n[2] * z);
}

/*
 * 3x3 erosion (all set) or dilation (any set) of src into dst, outside the map is 0: a
 * horizontal then a vertical 3-tap pass through tmp (separable, 6 reads a pixel, not 9),
 * each pass a row a task.
 */
struct morph_job {
	const uint8_t *src;
	uint8_t *dst, *tmp;
	int w, h, dilate;
};

static void morph_h(void *ctx, int y, int worker)
{
	const struct morph_job *j = ctx;
	const uint8_t *r = j->src + (size_t)y * j->w;
	uint8_t *t = j->tmp + (size_t)y * j->w;

	(void)worker;
	for (int x = 0; x < j->w; x++) {
		int a = x > 0 ? r[x - 1] : 0, b = r[x], c = x + 1 < j->w ? r[x + 1] : 0;
		t[x] = (uint8_t)(j->dilate ? (a | b | c) : (a & b & c));
	}
}

static void morph_v(void *ctx, int y, int worker)
{
	const struct morph_job *j = ctx;
	int w = j->w;
	const uint8_t *up = y > 0 ? j->tmp + (size_t)(y - 1) * w : NULL;
	const uint8_t *mid = j->tmp + (size_t)y * w;
	const uint8_t *dn = y + 1 < j->h ? j->tmp + (size_t)(y + 1) * w : NULL;
	uint8_t *o = j->dst + (size_t)y * w;

	(void)worker;
	for (int x = 0; x < w; x++) {
		int a = up ? up[x] : 0, c = dn ? dn[x] : 0;
		o[x] = (uint8_t)(j->dilate ? (a | mid[x] | c) : (a & mid[x] & c));
	}
}

static void morph(const uint8_t *src, uint8_t *dst, uint8_t *tmp, int w, int h, int dilate,
		  const struct jd_exec *ex)
{
	struct morph_job j = {src, dst, tmp, w, h, dilate};

	jd_exec_run(ex, h, morph_h, &j);
	jd_exec_run(ex, h, morph_v, &j);
}

static int32_t find(int32_t *parent, int32_t i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

/*
 * Do two neighbouring object pixels belong together? Unless their depths part: disparities
 * more than 1.5 px and 3 % apart (a pixel without disparity, a filled hole, joins anything).
 */
static int joins(const struct jd_disp *dm, size_t i, size_t j)
{
	int w = dm->width;
	float a = jd_disp_row(dm, (int)(i / w))[i % w], b = jd_disp_row(dm, (int)(j / w))[j % w];

	if (!valid_d(a) || !valid_d(b)) {
		return 1;
	}
	float gap = fabsf(a - b), big = a > b ? a : b;
	return gap <= 1.5f || gap <= 0.03f * big;
}

/*
 * 8-connected labels of mask (0: background) where neighbours join (above); labels are
 * roots' ids. @return max label
 */
static long label8(const uint8_t *mask, const struct jd_disp *dm, int w, int h, struct ws *s)
{
	long next = 1;

	s->parent[0] = 0;
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			size_t i = (size_t)y * w + x;
			int32_t nb[4], nn = 0;

			s->label[i] = 0;
			if (!mask[i]) {
				continue;
			}
			if (x > 0 && mask[i - 1] && joins(dm, i, i - 1)) {
				nb[nn++] = s->label[i - 1];
			}
			if (y > 0) {
				for (int dx = -1; dx <= 1; dx++) {
					int xx = x + dx;
					if (xx >= 0 && xx < w && mask[i - w + dx] &&
					    joins(dm, i, i - w + dx)) {
						nb[nn++] = s->label[i - w + dx];
					}
				}
			}
			if (nn == 0) {
				if (next >= s->nparent) {
					return -1; /* the label table is full */
				}
				s->parent[next] = (int32_t)next;
				s->label[i] = (int32_t)next++;
				continue;
			}
			int32_t root = find(s->parent, nb[0]);
			for (int k = 1; k < nn; k++) {
				int32_t o = find(s->parent, nb[k]);
				if (o < root) {
					s->parent[root] = o;
					root = o;
				} else if (o > root) {
					s->parent[o] = root;
				}
			}
			s->label[i] = root;
		}
	}
	for (size_t i = 0; i < (size_t)w * h; i++) {
		if (s->label[i]) {
			s->label[i] = find(s->parent, s->label[i]);
		}
	}
	return next - 1;
}

/* The k-th smallest of a[0..n) (quickselect; reorders a). */
static float kth(float *a, long n, long k)
{
	long lo = 0, hi = n - 1;

	while (lo < hi) {
		float pivot = a[(lo + hi) / 2];
		long i = lo, j = hi;
		while (i <= j) {
			while (a[i] < pivot) {
				i++;
			}
			while (a[j] > pivot) {
				j--;
			}
			if (i <= j) {
				float t = a[i];
				a[i++] = a[j];
				a[j--] = t;
			}
		}
		if (k <= j) {
			hi = j;
		} else if (k >= i) {
			lo = i;
		} else {
			break;
		}
	}
	return a[k];
}

/* The 3D point seen at (x, y) with disparity d, camera frame, mm. */
static void point3(const struct jd_camera_model *cam, float x, float y, float d, double p[3])
{
	double z = (double)cam->f * cam->baseline_mm / d;

	p[0] = (x - cam->cx) * z / cam->f;
	p[1] = (y - cam->cy) * z / cam->f;
	p[2] = z;
}

/* @return how many of the object's pixels have a disparity */
static long measure(const struct jd_camera_model *cam, const struct jd_disp *dm,
		    const struct jd_plane *pl, struct ws *s, int w, int32_t lab,
		    struct jd_object *o)
{
	long n = 0;
	double sx = 0, sy = 0;

	for (int y = o->bbox[1]; y <= o->bbox[3]; y++) {
		for (int x = o->bbox[0]; x <= o->bbox[2]; x++) {
			float d = jd_disp_row(dm, y)[x];
			if (s->label[(size_t)y * w + x] == lab && valid_d(d)) {
				s->scratch[n++] = d;
				sx += x;
				sy += y;
			}
		}
	}
	if (n == 0) {
		return 0;
	}
	o->centroid_px[0] = (float)(sx / n);
	o->centroid_px[1] = (float)(sy / n);
	o->median_disp = kth(s->scratch, n, n / 2);
	float lo = kth(s->scratch, n, n * 2 / 100), hi = kth(s->scratch, n, n * 98 / 100);
	/*
	 * The centroid of its visible surface: the mean of its pixels' 3D points, each at its
	 * own depth, the 2 % nearest and farthest (stray disparities) left out.
	 */
	double sum[3] = {0, 0, 0};
	long kept = 0;
	for (int y = o->bbox[1]; y <= o->bbox[3]; y++) {
		for (int x = o->bbox[0]; x <= o->bbox[2]; x++) {
			float d = jd_disp_row(dm, y)[x];
			double q[3];
			if (s->label[(size_t)y * w + x] == lab && valid_d(d) && d >= lo && d <= hi) {
				point3(cam, (float)x, (float)y, d, q);
				for (int i = 0; i < 3; i++) {
					sum[i] += q[i];
				}
				kept++;
			}
		}
	}
	for (int i = 0; i < 3; i++) {
		o->centroid_mm[i] = (float)(sum[i] / (double)kept);
	}
	float z = cam->f * cam->baseline_mm / o->median_disp;
	o->distance_mm = sqrtf(o->centroid_mm[0] * o->centroid_mm[0] +
			       o->centroid_mm[1] * o->centroid_mm[1] +
			       o->centroid_mm[2] * o->centroid_mm[2]);
	o->size_mm[0] = (float)(o->bbox[2] - o->bbox[0] + 1) * z / cam->f;
	o->size_mm[1] = (float)(o->bbox[3] - o->bbox[1] + 1) * z / cam->f;
	o->height_mm = 0.0f;
	if (pl->valid) {
		long m = 0;
		for (int y = o->bbox[1]; y <= o->bbox[3]; y++) {
			for (int x = o->bbox[0]; x <= o->bbox[2]; x++) {
				float d = jd_disp_row(dm, y)[x];
				if (s->label[(size_t)y * w + x] == lab && valid_d(d)) {
					s->scratch[m++] = jd_plane_height_mm(pl, cam, (float)x,
									     (float)y, d);
				}
			}
		}
		/* the top of the object, robust to a few stray pixels: the 95th percentile */
		o->height_mm = kth(s->scratch, m, m * 95 / 100);
	}
	return n;
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
 * The table's extent: the convex hull of its inliers, from each row's outermost ones
 * (Andrew's monotone chain over points already in (y, x) order), then mapped onto the table
 * (a projective map keeps the hull convex). s->nhull = 0 when there is none.
 */
static void table_extent(const struct jd_camera_model *cam, const struct jd_disp *dm,
			 const struct roi *r, const struct jd_plane *pl, float tol, struct ws *s)
{
	double(*pts)[2] = (double(*)[2])s->scratch; /* 4 h doubles fit: w >= 8 checked */
	int np = 0, k = 0;

	s->nhull = 0;
	for (int y = r->y0; y < r->y1; y++) {
		const float *row = jd_disp_row(dm, y);
		int lo = -1, hi = -1;

		for (int x = r->x0; x < r->x1; x++) {
			float d = row[x];
			if (valid_d(d) && fabsf(d - (pl->a * x + pl->b * y + pl->c)) <= tol) {
				lo = lo < 0 ? x : lo;
				hi = x;
			}
		}
		if (lo >= 0) {
			pts[np][0] = lo;
			pts[np++][1] = y;
			pts[np][0] = hi;
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

/* How far (mm) the point lies inside the table's extent (negative: outside). */
static double inside_extent(const struct ws *s, const double p[2])
{
	double area = 0.0, best = INFINITY;
	int n = s->nhull;

	for (int i = 0; i < n; i++) {
		const double *a = s->hull[i], *b = s->hull[(i + 1) % n];
		area += a[0] * b[1] - a[1] * b[0];
	}
	for (int i = 0; i < n; i++) {
		const double *a = s->hull[i], *b = s->hull[(i + 1) % n];
		double ex = b[0] - a[0], ey = b[1] - a[1], len = sqrt(ex * ex + ey * ey);
		if (len <= 0.0) {
			continue;
		}
		/* left of every edge when the hull turns counter-clockwise, right otherwise */
		double dist = (ex * (p[1] - a[1]) - ey * (p[0] - a[0])) / len;
		dist = area >= 0.0 ? dist : -dist;
		best = dist < best ? dist : best;
	}
	return n >= 3 ? best : -INFINITY;
}

/*
 * For grasping: the footprint (every pixel dropped onto the table along its normal) as a
 * rectangle along its principal axis, from the 2nd to the 98th percentile each way, and the
 * top face's centre. @return how far the footprint's centre lies inside the table's extent
 */
static double grasp(const struct jd_camera_model *cam, const struct jd_disp *dm,
		    const struct jd_plane *pl, struct ws *s, int w, int32_t lab,
		    struct jd_object *o)
{
	double su = 0, sv = 0, suu = 0, svv = 0, suv = 0, top[3] = {0, 0, 0};
	long n = 0, ntop = 0;
	float top_h = 0.9f * o->height_mm;

	for (int pass = 0; pass < 2; pass++) {
		double ang = 0.5 * atan2(2.0 * suv, suu - svv);
		double ax[2] = {cos(ang), sin(ang)};
		long m = 0;

		for (int y = o->bbox[1]; y <= o->bbox[3]; y++) {
			for (int x = o->bbox[0]; x <= o->bbox[2]; x++) {
				float d = jd_disp_row(dm, y)[x];
				double p[3];
				if (s->label[(size_t)y * w + x] != lab || !valid_d(d)) {
					continue;
				}
				point3(cam, (float)x, (float)y, d, p);
				double u = p[0] * pl->e1[0] + p[1] * pl->e1[1] + p[2] * pl->e1[2];
				double v = p[0] * pl->e2[0] + p[1] * pl->e2[1] + p[2] * pl->e2[2];
				if (pass == 0) {
					su += u;
					sv += v;
					suu += u * u;
					svv += v * v;
					suv += u * v;
					n++;
					if (jd_plane_height_mm(pl, cam, (float)x, (float)y, d) >= top_h) {
						for (int i = 0; i < 3; i++) {
							top[i] += p[i];
						}
						ntop++;
					}
					continue;
				}
				s->scratch[m] = (float)(u * ax[0] + v * ax[1]);
				s->scratch2[m++] = (float)(-u * ax[1] + v * ax[0]);
			}
		}
		if (n < 2) {
			return -INFINITY;
		}
		if (pass == 0) {
			double mu = su / n, mv = sv / n;
			suu = suu / n - mu * mu;
			svv = svv / n - mv * mv;
			suv = suv / n - mu * mv;
			continue;
		}
		float a0 = kth(s->scratch, m, m * 2 / 100), a1 = kth(s->scratch, m, m * 98 / 100);
		float b0 = kth(s->scratch2, m, m * 2 / 100), b1 = kth(s->scratch2, m, m * 98 / 100);
		double ca = 0.5 * (a0 + a1), cb = 0.5 * (b0 + b1);
		double uv[2] = {ca * ax[0] - cb * ax[1], ca * ax[1] + cb * ax[0]};
		double yaw = ang * 180.0 / M_PI;

		o->length_mm = a1 - a0;
		o->width_mm = b1 - b0;
		if (o->width_mm > o->length_mm) {
			float t = o->length_mm;
			o->length_mm = o->width_mm;
			o->width_mm = t;
			yaw += 90.0;
		}
		o->yaw_deg = (float)(yaw >= 90.0 ? yaw - 180.0 : (yaw < -90.0 ? yaw + 180.0 : yaw));
		for (int i = 0; i < 3; i++) {
			o->footprint_mm[i] = (float)(uv[0] * pl->e1[i] + uv[1] * pl->e2[i] +
						     (double)pl->k_mm * pl->n[i]);
			o->top_mm[i] = ntop ? (float)(top[i] / ntop) : o->centroid_mm[i];
		}
		return s->nhull ? inside_extent(s, uv) : INFINITY;
	}
	return -INFINITY;
}

struct mask_job {
	const struct jd_sense_params *sp;
	const struct jd_camera_model *cam;
	const struct jd_disp *disp;
	const struct jd_plane *plane;
	const struct roi *r;
	uint8_t *mask;
	int fixed;
};

static void mask_row(void *ctx, int y, int worker)
{
	const struct mask_job *j = ctx;
	const struct roi *r = j->r;
	const float *row = jd_disp_row(j->disp, y);
	int w = j->disp->width;

	(void)worker;
	for (int x = 0; x < w; x++) {
		float d = row[x];
		int in = x >= r->x0 && x < r->x1 && y >= r->y0 && y < r->y1 && valid_d(d);
		/*
		 * Above the table by min_height_mm, and by more than the plane's own tolerance in
		 * disparity: far away one disparity step is more than the height threshold, and
		 * integer maps (BP, SAD) would sprout objects.
		 */
		float above = j->fixed ? 0.0f
				       : d - (j->plane->a * x + j->plane->b * y + j->plane->c);
		j->mask[(size_t)y * w + x] =
		    (uint8_t)(in && (j->fixed ? d > j->sp->fixed_disp && j->sp->fixed_disp > 0
					      : above > j->sp->plane_tol &&
						    jd_plane_height_mm(j->plane, j->cam, (float)x,
								       (float)y, d) >
							j->sp->min_height_mm));
	}
}

int jd_sense_run(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		 const struct jd_disp *disp, void *mem, size_t ws_bytes, struct jd_sense_result *out,
		 const struct jd_exec *ex)
{
	int w = disp->width, h = disp->height;
	struct ws s;
	struct roi r = {sp->roi[0], sp->roi[1], sp->roi[2], sp->roi[3]};

	memset(out, 0, sizeof(*out));
	if (!(cam->f > 0) || !(cam->baseline_mm > 0) || !isfinite(cam->cx) || !isfinite(cam->cy) ||
	    sp->ransac_iters < 1 || !(sp->plane_tol > 0) || sp->min_area_px < 1) {
		return -EINVAL;
	}
	if (!r.x0 && !r.y0 && !r.x1 && !r.y1) {
		r = (struct roi){0, 0, w, h};
	}
	if (r.x0 < 0 || r.y0 < 0 || r.x1 > w || r.y1 > h || r.x0 >= r.x1 || r.y0 >= r.y1) {
		return -EINVAL;
	}
	if (carve(mem, ws_bytes, w, h, &s)) {
		return -ENOMEM;
	}
	if (!sp->use_fixed) {
		fit_plane(sp, cam, disp, &r, &out->plane, ex);
	}
	s.nhull = 0;
	if (out->plane.valid && w >= 8) {
		table_extent(cam, disp, &r, &out->plane, sp->plane_tol, &s);
	}
	/* Object pixels: above the table (or past the fixed threshold without one). */
	struct mask_job mj = {sp, cam, disp, &out->plane, &r, s.m0, sp->use_fixed || !out->plane.valid};
	jd_exec_run(ex, h, mask_row, &mj);
	uint8_t *tmp = (uint8_t *)s.label; /* free until labelling */
	morph(s.m0, s.m1, tmp, w, h, 0, ex); /* open: speckles go */
	morph(s.m1, s.m0, tmp, w, h, 1, ex);
	morph(s.m0, s.m1, tmp, w, h, 1, ex); /* close: small holes go */
	morph(s.m1, s.m0, tmp, w, h, 0, ex);
	long nl = label8(s.m0, disp, w, h, &s);
	if (nl < 0) {
		return -ENOMEM;
	}
	/* Areas per label in the parent array (its union-find job is done). */
	for (long i = 0; i <= nl; i++) {
		s.parent[i] = 0;
	}
	for (size_t i = 0; i < (size_t)w * h; i++) {
		s.parent[s.label[i]] += s.label[i] != 0;
	}
	/* Keep the largest blobs of at least min_area_px, up to the table's size. */
	for (;;) {
		long best = 0;
		for (long i = 1; i <= nl; i++) {
			if (s.parent[i] >= sp->min_area_px && s.parent[i] > (best ? s.parent[best] : 0)) {
				best = i;
			}
		}
		if (!best) {
			break;
		}
		if (out->nobjects == JD_SENSE_MAX_OBJECTS) {
			out->truncated = 1;
			break;
		}
		struct jd_object *o = &out->objects[out->nobjects++];
		o->id = out->nobjects;
		o->area_px = s.parent[best];
		o->bbox[0] = w;
		o->bbox[1] = h;
		o->bbox[2] = o->bbox[3] = -1;
		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++) {
				if (s.label[(size_t)y * w + x] == best) {
					o->bbox[0] = x < o->bbox[0] ? x : o->bbox[0];
					o->bbox[1] = y < o->bbox[1] ? y : o->bbox[1];
					o->bbox[2] = x > o->bbox[2] ? x : o->bbox[2];
					o->bbox[3] = y > o->bbox[3] ? y : o->bbox[3];
				}
			}
		}
		long with_depth = measure(cam, disp, &out->plane, &s, w, (int32_t)best, o);
		s.parent[best] = -1; /* taken */
		/* the opening erodes a pixel off the border: within 2 px of it is at it */
		o->cut = o->bbox[0] <= r.x0 + 2 || o->bbox[1] <= r.y0 + 2 ||
			 o->bbox[2] >= r.x1 - 3 || o->bbox[3] >= r.y1 - 3;
		o->quality = (float)with_depth / (float)o->area_px * (o->cut ? 0.5f : 1.0f);
		double inside = out->plane.valid
				    ? grasp(cam, disp, &out->plane, &s, w, (int32_t)best, o)
				    : INFINITY;
		/*
		 * Not an object: mostly holes the closing filled (no depth to stand on), or a
		 * footprint outside the table's extent (a wall's is the table's far edge).
		 */
		if (2 * with_depth < o->area_px || inside < JD_SENSE_ON_TABLE_MM) {
			out->nobjects--;
			memset(o, 0, sizeof(*o));
		}
	}
	return 0;
}
