/*
 * The reference's gathering of each object's figures (sense_planner.h, jd_sense_obj_rec) from
 * its pixels: the GPU's twin is algo/cuda/sense_objects_cuda.cu's measure and axes kernels, which
 * must give the same records, so the arithmetic here is spelled for them to follow (each
 * product rounded alone: jd_algo is built -ffp-contract=off).
 */
#include <math.h>

#include "sense_planner.h"

long long jd_sense_fix(double v, double unit, double lim)
{
	double q = v * unit;

	q = q > lim ? lim : (q < -lim ? -lim : q);
	return llrint(q);
}

void jd_sense_obj_centroid(const struct jd_sense_obj_rec *rec, float c[3])
{
	for (int i = 0; i < 3; i++) {
		c[i] = (float)((double)rec->c[i] / JD_SENSE_FIX / (double)rec->kept);
	}
}

/* The k-th smallest of a[0..n) (quickselect; reorders a), a zero as +0 (as the GPU's). */
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
	return a[k] + 0.0f;
}

/* The 3D point seen at (x, y) with disparity d, camera frame, mm. */
static void point3(const struct jd_camera_model *cam, float x, float y, float d, double p[3])
{
	double z = (double)cam->f * cam->baseline_mm / d;

	p[0] = (x - cam->cx) * z / cam->f;
	p[1] = (y - cam->cy) * z / cam->f;
	p[2] = z;
}

/* p on the table's axis e (mm). */
static double along(const double p[3], const float e[3])
{
	return p[0] * e[0] + p[1] * e[1] + p[2] * e[2];
}

static int px_x(int32_t p)
{
	return p & 0xffff;
}

static int px_y(int32_t p)
{
	return p >> 16;
}

/*
 * One object's share of the workspace while it is measured: its pixels with a disparity
 * (y << 16 | x: unpacking an index took two divisions by the width a pixel and pass), their
 * disparities and a second scratch.
 */
struct obj_ws {
	int32_t *px;
	float *a, *b;
};

static struct obj_ws share(const struct jd_sense_ref_gather *rg, int i)
{
	long o = rg->offset[i];

	return (struct obj_ws){rg->s->parent + o, rg->s->scratch + o, rg->s->scratch2 + o};
}

/* The object's pixels with a disparity (px) and their disparities (a). @return how many */
static long pixels(const struct jd_sense_ref_gather *rg, const struct jd_sense_blob *b,
		   const struct obj_ws *ws)
{
	const struct jd_disp *dm = rg->dm;
	long n = 0;

	for (int y = b->bbox[1]; y <= b->bbox[3]; y++) {
		const float *row = jd_disp_row(dm, y);
		const int32_t *lr = rg->s->label + (size_t)y * dm->width;
		for (int x = b->bbox[0]; x <= b->bbox[2]; x++) {
			if (lr[x] == b->label && jd_sense_valid(row[x])) {
				ws->px[n] = y << 16 | x;
				ws->a[n++] = row[x];
			}
		}
	}
	return n;
}

/* Sums over the object's points: those within [lo, hi], then about their centroid. */
static void point_sums(const struct jd_sense_ref_gather *rg, const struct obj_ws *ws,
		       struct jd_sense_obj_rec *rec)
{
	const struct jd_plane *pl = rg->pl;
	long n = (long)rec->n;
	double p[3];

	for (long k = 0; k < n; k++) {
		float d = ws->a[k];
		if (d >= rec->lo && d <= rec->hi) {
			point3(rg->cam, (float)px_x(ws->px[k]), (float)px_y(ws->px[k]), d, p);
			for (int i = 0; i < 3; i++) {
				rec->c[i] += jd_sense_fix(p[i], JD_SENSE_FIX, JD_SENSE_FIX_LIM);
			}
			rec->kept++;
		}
	}
	if (!pl->valid) {
		return;
	}
	float cm[3], top_h = 0.9f * rec->top;
	jd_sense_obj_centroid(rec, cm);
	double cp[3] = {cm[0], cm[1], cm[2]};
	double cu = along(cp, pl->e1), cv = along(cp, pl->e2);
	for (long k = 0; k < n; k++) {
		float x = (float)px_x(ws->px[k]), y = (float)px_y(ws->px[k]), d = ws->a[k];
		point3(rg->cam, x, y, d, p);
		long long u = jd_sense_fix(along(p, pl->e1) - cu, JD_SENSE_FIXC, JD_SENSE_FIXC_LIM);
		long long v = jd_sense_fix(along(p, pl->e2) - cv, JD_SENSE_FIXC, JD_SENSE_FIXC_LIM);
		rec->su += u;
		rec->sv += v;
		rec->suu += u * u;
		rec->svv += v * v;
		rec->suv += u * v;
		if (jd_plane_height_mm(pl, rg->cam, x, y, d) >= top_h) {
			for (int i = 0; i < 3; i++) {
				rec->t[i] += jd_sense_fix(p[i], JD_SENSE_FIX, JD_SENSE_FIX_LIM);
			}
			rec->ntop++;
		}
	}
}

struct batch {
	struct jd_sense_ref_gather *rg;
	const struct jd_sense_blob *b;
	const double (*ax)[2];
	struct jd_sense_obj_rec *rec;
};

static void first_one(void *ctx, int i, int worker)
{
	const struct batch *j = ctx;
	struct obj_ws ws = share(j->rg, i);
	struct jd_sense_obj_rec *rec = &j->rec[i];
	long n = pixels(j->rg, &j->b[i], &ws), sx = 0, sy = 0;

	(void)worker;
	*rec = (struct jd_sense_obj_rec){.n = n};
	if (n == 0) {
		return;
	}
	for (long k = 0; k < n; k++) {
		int x = px_x(ws.px[k]), y = px_y(ws.px[k]);
		sx += x;
		sy += y;
		if (j->rg->pl->valid) {
			ws.b[k] =
			    jd_plane_height_mm(j->rg->pl, j->rg->cam, (float)x, (float)y, ws.a[k]);
		}
	}
	rec->sx = sx;
	rec->sy = sy;
	rec->top = j->rg->pl->valid ? kth(ws.b, n, n * 95 / 100) : 0.0f;
	/* the disparities, selected in a copy: the sums below want them by pixel */
	for (long k = 0; k < n; k++) {
		ws.b[k] = ws.a[k];
	}
	rec->med = kth(ws.b, n, n / 2);
	rec->lo = kth(ws.b, n, n * 2 / 100);
	rec->hi = kth(ws.b, n, n * 98 / 100);
	point_sums(j->rg, &ws, rec);
}

static void axes_one(void *ctx, int i, int worker)
{
	const struct batch *j = ctx;
	const struct jd_plane *pl = j->rg->pl;
	const double *ax = j->ax[i];
	struct obj_ws ws = share(j->rg, i);
	struct jd_sense_obj_rec *rec = &j->rec[i];
	long n = (long)rec->n;

	(void)worker;
	if (!pl->valid || n < 2) {
		return;
	}
	for (long k = 0; k < n; k++) {
		double p[3];
		point3(j->rg->cam, (float)px_x(ws.px[k]), (float)px_y(ws.px[k]), ws.a[k], p);
		double u = along(p, pl->e1), v = along(p, pl->e2);
		ws.b[k] = (float)(-u * ax[1] + v * ax[0]);
		ws.a[k] = (float)(u * ax[0] + v * ax[1]);
	}
	rec->a0 = kth(ws.a, n, n * 2 / 100);
	rec->a1 = kth(ws.a, n, n * 98 / 100);
	rec->b0 = kth(ws.b, n, n * 2 / 100);
	rec->b1 = kth(ws.b, n, n * 98 / 100);
}

static int ref_first(void *ctx, const struct jd_sense_blob *b, int k, struct jd_sense_obj_rec *rec)
{
	struct jd_sense_ref_gather *rg = ctx;
	struct batch j = {rg, b, NULL, rec};

	for (int i = 0; i < k; i++) {
		rg->offset[i] = i ? rg->offset[i - 1] + b[i - 1].area : 0;
	}
	jd_exec_run(rg->ex, k, first_one, &j);
	return 0;
}

static int ref_axes(void *ctx, const struct jd_sense_blob *b, int k, const double (*ax)[2],
		    struct jd_sense_obj_rec *rec)
{
	struct batch j = {ctx, b, ax, rec};

	jd_exec_run(j.rg->ex, k, axes_one, &j);
	return 0;
}

void jd_sense_ref_gather_init(struct jd_sense_ref_gather *rg, struct jd_sense_gather *g)
{
	*g = (struct jd_sense_gather){ref_first, ref_axes, rg};
}
