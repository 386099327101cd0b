#include "sense.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "jd_carve.h"

void jd_sense_default(struct jd_sense_params *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->ransac_iters = 200;
	sp->plane_tol = 1.0f;
	sp->min_height_mm = 15.0f;
	sp->min_area_px = 100;
	sp->seed = 1;
}

/* Workspace: two masks, labels, the union-find parents (then per-label counts), a scratch. */
struct ws {
	uint8_t *m0, *m1;
	int32_t *label, *parent;
	float *scratch;
	long nparent;
};

/* One layout for both the size (base NULL) and the carving: they cannot disagree. */
static void layout(struct jd_carve *c, int w, int h, struct ws *s)
{
	size_t n = (size_t)w * h;

	s->m0 = jd_carve(c, n);
	s->m1 = jd_carve(c, n);
	s->label = jd_carve(c, sizeof(int32_t) * n);
	s->nparent = (long)(n / 2 + 2);
	s->parent = jd_carve(c, sizeof(int32_t) * (size_t)s->nparent);
	s->scratch = jd_carve(c, sizeof(float) * n);
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
	/* A table holds a real share of the view; a handful of coplanar pixels is not one. */
	if (pl->inliers < nvalid / 20) {
		return;
	}
	double vz = (best[2] + best[0] * cam->cx + best[1] * cam->cy) / cam->f;
	double len = sqrt(best[0] * best[0] + best[1] * best[1] + vz * vz);
	if (!(vz > 0.0) || len <= 0.0) {
		return; /* a plane through or behind the camera: not a table in front of it */
	}
	pl->valid = 1;
	pl->a = (float)best[0];
	pl->b = (float)best[1];
	pl->c = (float)best[2];
	pl->n[0] = (float)(best[0] / len);
	pl->n[1] = (float)(best[1] / len);
	pl->n[2] = (float)(vz / len);
	pl->k_mm = (float)(cam->baseline_mm / len);
	pl->tilt_deg = (float)(acos(fabs(vz / len)) * 180.0 / M_PI);
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

/* 8-connected labels of mask (0: background); labels are roots' ids. @return max label */
static long label8(const uint8_t *mask, int w, int h, struct ws *s)
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
			if (x > 0 && mask[i - 1]) {
				nb[nn++] = s->label[i - 1];
			}
			if (y > 0) {
				for (int dx = -1; dx <= 1; dx++) {
					int xx = x + dx;
					if (xx >= 0 && xx < w && mask[i - w + dx]) {
						nb[nn++] = s->label[i - w + dx];
					}
				}
			}
			if (nn == 0) {
				if (next >= s->nparent) {
					return -1; /* cannot happen: a new label needs a background gap */
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

static void measure(const struct jd_camera_model *cam, const struct jd_disp *dm,
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
		return;
	}
	o->centroid_px[0] = (float)(sx / n);
	o->centroid_px[1] = (float)(sy / n);
	o->median_disp = kth(s->scratch, n, n / 2);
	float z = cam->f * cam->baseline_mm / o->median_disp;
	o->centroid_mm[0] = (o->centroid_px[0] - cam->cx) * z / cam->f;
	o->centroid_mm[1] = (o->centroid_px[1] - cam->cy) * z / cam->f;
	o->centroid_mm[2] = z;
	o->distance_mm = sqrtf(o->centroid_mm[0] * o->centroid_mm[0] +
			       o->centroid_mm[1] * o->centroid_mm[1] + z * z);
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
	/* Object pixels: above the table (or past the fixed threshold without one). */
	struct mask_job mj = {sp, cam, disp, &out->plane, &r, s.m0, sp->use_fixed || !out->plane.valid};
	jd_exec_run(ex, h, mask_row, &mj);
	uint8_t *tmp = (uint8_t *)s.label; /* free until labelling */
	morph(s.m0, s.m1, tmp, w, h, 0, ex); /* open: speckles go */
	morph(s.m1, s.m0, tmp, w, h, 1, ex);
	morph(s.m0, s.m1, tmp, w, h, 1, ex); /* close: small holes go */
	morph(s.m1, s.m0, tmp, w, h, 0, ex);
	long nl = label8(s.m0, w, h, &s);
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
		measure(cam, disp, &out->plane, &s, w, (int32_t)best, o);
		s.parent[best] = -1; /* taken */
	}
	return 0;
}
