/*
 * The objects on the table (sense.h): which pixels stand above it, and from the blobs the
 * labelling found, each object's measures and its grasp. The reference (sense.c) and the
 * GPU's host side (hal/cuda_sense.c) both end here.
 */
#include <math.h>
#include <string.h>

#include "jd_sort.h"
#include "sense_priv.h"

float jd_plane_height_mm(const struct jd_plane *p, const struct jd_camera_model *cam, float x,
			 float y, float d)
{
	float z = cam->f * cam->baseline_mm / d;
	float px = (x - cam->cx) * z / cam->f, py = (y - cam->cy) * z / cam->f;

	return p->k_mm - (p->n[0] * px + p->n[1] * py + p->n[2] * z);
}

int jd__sense_object_px(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
			const struct jd_plane *pl, const struct jd__sense_roi *r, int fixed, int x,
			int y, float d)
{
	if (!(x >= r->x0 && x < r->x1 && y >= r->y0 && y < r->y1 && jd__sense_valid(d))) {
		return 0;
	}
	if (fixed) {
		return d > sp->fixed_disp && sp->fixed_disp > 0;
	}
	/*
	 * Above the table by min_height_mm, and by more than the plane's own tolerance in
	 * disparity: far away one disparity step is more than the height threshold, and integer
	 * maps (BP, SAD) would sprout objects.
	 */
	float above = d - (pl->a * x + pl->b * y + pl->c);
	return above > sp->plane_tol &&
	       jd_plane_height_mm(pl, cam, (float)x, (float)y, d) > sp->min_height_mm;
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

/*
 * One object's share of the workspace while it is measured: its pixels with a disparity
 * (y << 16 | x, in its box's raster order: the order every sum below runs in; unpacking an
 * index took two divisions by the width a pixel and pass) and two scratches.
 */
struct obj_ws {
	int32_t *px;
	float *a, *b;
};

/* The object's pixels with a disparity, in its box's raster order. @return how many */
static long pixels(const int32_t *label, const struct jd_disp *dm, int32_t lab,
		   const struct jd_object *o, int32_t *px)
{
	long n = 0;

	for (int y = o->bbox[1]; y <= o->bbox[3]; y++) {
		const float *row = jd_disp_row(dm, y);
		const int32_t *lr = label + (size_t)y * dm->width;
		for (int x = o->bbox[0]; x <= o->bbox[2]; x++) {
			if (lr[x] == lab && jd__sense_valid(row[x])) {
				px[n++] = y << 16 | x;
			}
		}
	}
	return n;
}

static int px_x(int32_t p)
{
	return p & 0xffff;
}

static int px_y(int32_t p)
{
	return p >> 16;
}

static float disp_at(const struct jd_disp *dm, int32_t p)
{
	return jd_disp_row(dm, px_y(p))[px_x(p)];
}

/* @return how many of the object's pixels have a disparity (ws->px holds them) */
static long measure(const struct jd_camera_model *cam, const struct jd_disp *dm,
		    const struct jd_plane *pl, const int32_t *label, int32_t lab,
		    const struct obj_ws *ws, struct jd_object *o)
{
	long n = pixels(label, dm, lab, o, ws->px);
	double sx = 0, sy = 0;

	if (n == 0) {
		return 0;
	}
	for (long k = 0; k < n; k++) {
		int x = px_x(ws->px[k]), y = px_y(ws->px[k]);
		float d = disp_at(dm, ws->px[k]);
		ws->a[k] = d;
		sx += x;
		sy += y;
		if (pl->valid) {
			ws->b[k] = jd_plane_height_mm(pl, cam, (float)x, (float)y, d);
		}
	}
	o->centroid_px[0] = (float)(sx / n);
	o->centroid_px[1] = (float)(sy / n);
	o->median_disp = kth(ws->a, n, n / 2);
	float lo = kth(ws->a, n, n * 2 / 100), hi = kth(ws->a, n, n * 98 / 100);
	/*
	 * The centroid of its visible surface: the mean of its pixels' 3D points, each at its
	 * own depth, the 2 % nearest and farthest (stray disparities) left out.
	 */
	double sum[3] = {0, 0, 0};
	long kept = 0;
	for (long k = 0; k < n; k++) {
		float d = disp_at(dm, ws->px[k]);
		double q[3];
		if (d >= lo && d <= hi) {
			point3(cam, (float)px_x(ws->px[k]), (float)px_y(ws->px[k]), d, q);
			for (int i = 0; i < 3; i++) {
				sum[i] += q[i];
			}
			kept++;
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
	/* the top of the object, robust to a few stray pixels: the 95th percentile */
	o->height_mm = pl->valid ? kth(ws->b, n, n * 95 / 100) : 0.0f;
	return n;
}

/* How far (mm) the point lies inside the table's extent (negative: outside). */
static double inside_extent(const struct jd__sense_ws *s, const double p[2])
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

/* The footprint's rectangle from the pixels' coordinates along and across its axis. */
static double footprint(const struct jd_plane *pl, const struct jd__sense_ws *s,
			const struct obj_ws *ws, long m, double ang, const double ax[2],
			const double top[3], long ntop, struct jd_object *o)
{
	float a0 = kth(ws->a, m, m * 2 / 100), a1 = kth(ws->a, m, m * 98 / 100);
	float b0 = kth(ws->b, m, m * 2 / 100), b1 = kth(ws->b, m, m * 98 / 100);
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

/*
 * For grasping: the footprint (every pixel dropped onto the table along its normal) as a
 * rectangle along its principal axis, from the 2nd to the 98th percentile each way, and the
 * top face's centre. ws->px: the object's n pixels with a disparity (measure()).
 * @return how far the footprint's centre lies inside the table's extent
 */
static double grasp(const struct jd_camera_model *cam, const struct jd_disp *dm,
		    const struct jd_plane *pl, const struct jd__sense_ws *s,
		    const struct obj_ws *ws, long n, struct jd_object *o)
{
	double su = 0, sv = 0, suu = 0, svv = 0, suv = 0, top[3] = {0, 0, 0};
	long ntop = 0;
	float top_h = 0.9f * o->height_mm;

	if (n < 2) {
		return -INFINITY;
	}
	for (int pass = 0; pass < 2; pass++) {
		double ang = 0.5 * atan2(2.0 * suv, suu - svv);
		double ax[2] = {cos(ang), sin(ang)};

		for (long k = 0; k < n; k++) {
			int x = px_x(ws->px[k]), y = px_y(ws->px[k]);
			float d = disp_at(dm, ws->px[k]);
			double p[3];
			point3(cam, (float)x, (float)y, d, p);
			double u = p[0] * pl->e1[0] + p[1] * pl->e1[1] + p[2] * pl->e1[2];
			double v = p[0] * pl->e2[0] + p[1] * pl->e2[1] + p[2] * pl->e2[2];
			if (pass == 1) {
				ws->a[k] = (float)(u * ax[0] + v * ax[1]);
				ws->b[k] = (float)(-u * ax[1] + v * ax[0]);
				continue;
			}
			su += u;
			sv += v;
			suu += u * u;
			svv += v * v;
			suv += u * v;
			if (jd_plane_height_mm(pl, cam, (float)x, (float)y, d) >= top_h) {
				for (int i = 0; i < 3; i++) {
					top[i] += p[i];
				}
				ntop++;
			}
		}
		if (pass == 1) {
			return footprint(pl, s, ws, n, ang, ax, top, ntop, o);
		}
		double mu = su / n, mv = sv / n;
		suu = suu / n - mu * mu;
		svv = svv / n - mv * mv;
		suv = suv / n - mu * mv;
	}
	return -INFINITY;
}

/* A batch of the largest blobs, measured in parallel: each in its own share of the scratches. */
struct measure_job {
	const struct jd_camera_model *cam;
	const struct jd_disp *dm;
	const struct jd__sense_roi *r;
	const struct jd_plane *pl;
	const struct jd__sense_ws *s;
	const struct jd__sense_blob *blob;
	long offset[JD_SENSE_MAX_OBJECTS]; /* each blob's share: the areas before it */
	struct jd_object obj[JD_SENSE_MAX_OBJECTS];
	int keep[JD_SENSE_MAX_OBJECTS];
};

static void measure_one(void *ctx, int i, int worker)
{
	struct measure_job *j = ctx;
	const struct jd__sense_blob *b = &j->blob[i];
	const struct jd__sense_roi *r = j->r;
	struct obj_ws ws = {j->s->parent + j->offset[i], j->s->scratch + j->offset[i],
			    j->s->scratch2 + j->offset[i]};
	struct jd_object *o = &j->obj[i];

	(void)worker;
	memset(o, 0, sizeof(*o));
	o->area_px = b->area;
	memcpy(o->bbox, b->bbox, sizeof(o->bbox));
	long with_depth = measure(j->cam, j->dm, j->pl, j->s->label, b->label, &ws, o);
	/* the opening erodes a pixel off the border: within 2 px of it is at it */
	o->cut = o->bbox[0] <= r->x0 + 2 || o->bbox[1] <= r->y0 + 2 || o->bbox[2] >= r->x1 - 3 ||
		 o->bbox[3] >= r->y1 - 3;
	o->quality = (float)with_depth / (float)o->area_px * (o->cut ? 0.5f : 1.0f);
	double inside =
	    j->pl->valid ? grasp(j->cam, j->dm, j->pl, j->s, &ws, with_depth, o) : INFINITY;
	/*
	 * Not an object: mostly holes the closing filled (no depth to stand on), or a footprint
	 * outside the table's extent (a wall's is the table's far edge).
	 */
	j->keep[i] = !(2 * with_depth < o->area_px || inside < JD_SENSE_ON_TABLE_MM);
}

/* The largest first, the first in label order among equals. */
static int by_size(const void *pa, const void *pb)
{
	const struct jd__sense_blob *a = pa, *b = pb;

	if (a->area != b->area) {
		return a->area > b->area ? -1 : 1;
	}
	return (a->label > b->label) - (a->label < b->label);
}

void jd__sense_objects(const struct jd_camera_model *cam, const struct jd_disp *dm,
		       const struct jd__sense_roi *r, struct jd__sense_ws *s,
		       struct jd__sense_blob *blobs, long nblobs, struct jd_sense_result *out,
		       const struct jd_exec *ex)
{
	struct measure_job job = {.cam = cam, .dm = dm, .r = r, .pl = &out->plane, .s = s};
	long next = 0;

	jd_sort(blobs, (size_t)nblobs, sizeof(*blobs), by_size);
	/* each batch as large as the objects still wanted; their pixels never overlap */
	while (next < nblobs) {
		if (out->nobjects == JD_SENSE_MAX_OBJECTS) {
			out->truncated = 1;
			break;
		}
		int k = JD_SENSE_MAX_OBJECTS - out->nobjects;
		k = nblobs - next < k ? (int)(nblobs - next) : k;
		job.blob = blobs + next;
		for (int i = 0; i < k; i++) {
			job.offset[i] = i ? job.offset[i - 1] + job.blob[i - 1].area : 0;
		}
		jd_exec_run(ex, k, measure_one, &job);
		for (int i = 0; i < k; i++) {
			if (job.keep[i]) {
				struct jd_object *o = &out->objects[out->nobjects++];
				*o = job.obj[i];
				o->id = out->nobjects;
			}
		}
		next += k;
	}
}
