/*
 * The objects on the table (sense.h): which pixels stand above it, and from the blobs the
 * labelling found, each object's measures and its grasp, finished from the figures its
 * pixels gave (jd_sense_obj_rec: the reference's gathering in sense_gather.c, or the GPU's).
 * The reference (sense.c) and the GPU's host side (hal/cuda/sense_cuda.c) both end here.
 */
#include <math.h>
#include <string.h>

#include "jd_sort.h"
#include "jd_status.h"
#include "sense_planner.h"

float jd_plane_height_mm(const struct jd_plane *p, const struct jd_camera_model *cam, float x,
			 float y, float d)
{
	float z = cam->f * cam->baseline_mm / d;
	float px = (x - cam->cx) * z / cam->f, py = (y - cam->cy) * z / cam->f;

	return p->k_mm - (p->n[0] * px + p->n[1] * py + p->n[2] * z);
}

int jd_sense_object_px(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		       const struct jd_plane *pl, const struct jd_sense_roi *r, int fixed, int x,
		       int y, float d)
{
	if (!(x >= r->x0 && x < r->x1 && y >= r->y0 && y < r->y1 && jd_sense_valid(d))) {
		return 0;
	}
	if (fixed) {
		return d > sp->fixed_disp && sp->fixed_disp > 0 ? JD_SENSE_PX_STRONG : 0;
	}
	/*
	 * Above the table by min_height_mm, and by more than the plane's own tolerance in
	 * disparity: far away one disparity step is more than the height threshold, and integer
	 * maps (BP, SAD) would sprout objects.
	 */
	float above = d - (pl->a * x + pl->b * y + pl->c);
	float hgt = jd_plane_height_mm(pl, cam, (float)x, (float)y, d);
	if (above > sp->plane_tol && hgt > sp->min_height_mm) {
		return JD_SENSE_PX_STRONG;
	}
	/* half of both: an object's lower rim, kept where it joins a strong part */
	int rim = above > JD_SENSE_WEAK_SHARE * sp->plane_tol &&
		  hgt > JD_SENSE_WEAK_SHARE * sp->min_height_mm;
	return rim ? JD_SENSE_PX_WEAK : 0;
}

/* How far (mm) the point lies inside the table's extent (negative: outside). */
static double inside_extent(const struct jd_sense_ws *s, const double p[2])
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

/* The object's measures from its first figures. */
static void measures(const struct jd_camera_model *cam, const struct jd_plane *pl,
		     const struct jd_sense_obj_rec *rec, struct jd_object *o)
{
	double n = (double)rec->n;

	if (rec->n == 0) {
		return;
	}
	o->centroid_px[0] = (float)((double)rec->sx / n);
	o->centroid_px[1] = (float)((double)rec->sy / n);
	o->median_disp = rec->med;
	/*
	 * The centroid of its visible surface: the mean of its pixels' 3D points, each at its
	 * own depth, the 2 % nearest and farthest (stray disparities) left out.
	 */
	jd_sense_obj_centroid(rec, o->centroid_mm);
	float z = cam->f * cam->baseline_mm / o->median_disp;
	o->distance_mm =
	    sqrtf(o->centroid_mm[0] * o->centroid_mm[0] + o->centroid_mm[1] * o->centroid_mm[1] +
		  o->centroid_mm[2] * o->centroid_mm[2]);
	o->size_mm[0] = (float)(o->bbox[2] - o->bbox[0] + 1) * z / cam->f;
	o->size_mm[1] = (float)(o->bbox[3] - o->bbox[1] + 1) * z / cam->f;
	/* the top of the object, robust to a few stray pixels: the 95th percentile */
	o->height_mm = pl->valid ? rec->top : 0.0f;
}

/* The footprint's principal axis (cos, sin) from its sums about the centroid. @return angle */
static double axis(const struct jd_sense_obj_rec *rec, double ax[2])
{
	double n = (double)rec->n, mu = (double)rec->su / n, mv = (double)rec->sv / n;
	double cuu = (double)rec->suu / n - mu * mu, cvv = (double)rec->svv / n - mv * mv;
	double cuv = (double)rec->suv / n - mu * mv, ang = 0.5 * atan2(2.0 * cuv, cuu - cvv);

	ax[0] = cos(ang);
	ax[1] = sin(ang);
	return ang;
}

/*
 * For grasping: the footprint (every pixel dropped onto the table along its normal) as a
 * rectangle along its principal axis, from the 2nd to the 98th percentile each way, and the
 * top face's centre. @return how far the footprint's centre lies inside the table's extent
 */
static double footprint(const struct jd_plane *pl, const struct jd_sense_ws *s,
			const struct jd_sense_obj_rec *rec, double ang, const double ax[2],
			struct jd_object *o)
{
	double ca = 0.5 * (rec->a0 + rec->a1), cb = 0.5 * (rec->b0 + rec->b1);
	double uv[2] = {ca * ax[0] - cb * ax[1], ca * ax[1] + cb * ax[0]};
	double yaw = ang * 180.0 / M_PI;

	o->length_mm = rec->a1 - rec->a0;
	o->width_mm = rec->b1 - rec->b0;
	if (o->width_mm > o->length_mm) {
		float t = o->length_mm;
		o->length_mm = o->width_mm;
		o->width_mm = t;
		yaw += 90.0;
	}
	o->yaw_deg = (float)(yaw >= 90.0 ? yaw - 180.0 : (yaw < -90.0 ? yaw + 180.0 : yaw));
	for (int i = 0; i < 3; i++) {
		o->footprint_mm[i] =
		    (float)(uv[0] * pl->e1[i] + uv[1] * pl->e2[i] + (double)pl->k_mm * pl->n[i]);
		o->top_mm[i] = rec->ntop
				   ? (float)((double)rec->t[i] / JD_SENSE_FIX / (double)rec->ntop)
				   : o->centroid_mm[i];
	}
	return s->nhull ? inside_extent(s, uv) : INFINITY;
}

/* The largest first, the first in label order among equals. */
static int by_size(const void *pa, const void *pb)
{
	const struct jd_sense_blob *a = pa, *b = pb;

	if (a->area != b->area) {
		return a->area > b->area ? -1 : 1;
	}
	return (a->label > b->label) - (a->label < b->label);
}

/* A batch being measured: each blob's record, object and axis. */
struct batch {
	struct jd_sense_obj_rec rec[JD_SENSE_MAX_OBJECTS];
	struct jd_object obj[JD_SENSE_MAX_OBJECTS];
	double ax[JD_SENSE_MAX_OBJECTS][2], ang[JD_SENSE_MAX_OBJECTS];
};

/* Blob b's object up to its grasp: measures, border cut, quality. */
static void begin(const struct jd_camera_model *cam, const struct jd_sense_roi *r,
		  const struct jd_plane *pl, const struct jd_sense_blob *b,
		  const struct jd_sense_obj_rec *rec, struct jd_object *o)
{
	memset(o, 0, sizeof(*o));
	o->area_px = b->area;
	memcpy(o->bbox, b->bbox, sizeof(o->bbox));
	measures(cam, pl, rec, o);
	/* the opening erodes a pixel off the border: within 2 px of it is at it */
	o->cut = o->bbox[0] <= r->x0 + 2 || o->bbox[1] <= r->y0 + 2 || o->bbox[2] >= r->x1 - 3 ||
		 o->bbox[3] >= r->y1 - 3;
	o->quality = (float)rec->n / (float)o->area_px * (o->cut ? 0.5f : 1.0f);
}

/*
 * How far inside the table's extent an object's footprint must stand. The extent's far edge
 * reaches past the table's end by what the plane's tolerance lets through: where a surface
 * rises there, its lowest pixels are inliers. That overreach is about plane_tol in disparity
 * at the surface's depth, plane_tol z / d in mm. A surface that runs past the top of the view
 * (a wall, a shelf, a person behind the table) must stand inside by that too; an object whose
 * top the view shows need not.
 */
static double on_table_margin(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
			      const struct jd_sense_roi *r, const struct jd_object *o)
{
	double d = o->median_disp;

	if (o->bbox[1] > r->y0 + 2 || !(d > 0)) {
		return JD_SENSE_ON_TABLE_MM;
	}
	return JD_SENSE_ON_TABLE_MM + sp->plane_tol * (double)cam->f * cam->baseline_mm / (d * d);
}

/* Is it an object? With a plane, its grasp first. */
static int finish(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		  const struct jd_sense_roi *r, const struct jd_plane *pl,
		  const struct jd_sense_ws *s, const struct jd_sense_obj_rec *rec, double ang,
		  const double ax[2], struct jd_object *o)
{
	double inside = INFINITY;

	if (pl->valid) {
		inside = rec->n < 2 ? -INFINITY : footprint(pl, s, rec, ang, ax, o);
	}
	/*
	 * Not an object: mostly holes the closing filled (no depth to stand on), a footprint
	 * outside the table's extent (a wall's is the table's far edge), or smaller where it
	 * stands than min_area_mm2 (a pixel there is z / f mm wide).
	 */
	double mm_px = o->median_disp > 0 ? (double)cam->baseline_mm / o->median_disp : 0.0;
	return !(2 * rec->n < o->area_px || inside < on_table_margin(sp, cam, r, o) ||
		 (double)o->area_px * mm_px * mm_px < sp->min_area_mm2);
}

int jd_sense_objects(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		     const struct jd_sense_roi *r, const struct jd_sense_ws *s,
		     struct jd_sense_blob *blobs, long nblobs, const struct jd_sense_gather *g,
		     struct jd_sense_result *out)
{
	const struct jd_plane *pl = &out->plane;
	struct batch bt;
	long next = 0;

	jd_sort(blobs, (size_t)nblobs, sizeof(*blobs), by_size);
	/* each batch as large as the objects still wanted; their pixels never overlap */
	while (next < nblobs) {
		if (out->nobjects == JD_SENSE_MAX_OBJECTS) {
			out->truncated = 1;
			break;
		}
		int k = JD_SENSE_MAX_OBJECTS - out->nobjects;
		const struct jd_sense_blob *b = blobs + next;
		k = nblobs - next < k ? (int)(nblobs - next) : k;
		JD_TRY(g->first(g->ctx, b, k, bt.rec));
		for (int i = 0; i < k; i++) {
			begin(cam, r, pl, &b[i], &bt.rec[i], &bt.obj[i]);
			bt.ang[i] = bt.rec[i].n < 2 ? 0.0 : axis(&bt.rec[i], bt.ax[i]);
		}
		if (pl->valid) {
			JD_TRY(g->axes(g->ctx, b, k, (const double(*)[2])bt.ax, bt.rec));
		}
		for (int i = 0; i < k; i++) {
			if (finish(sp, cam, r, pl, s, &bt.rec[i], bt.ang[i], bt.ax[i],
				   &bt.obj[i])) {
				struct jd_object *o = &out->objects[out->nobjects++];
				*o = bt.obj[i];
				o->id = out->nobjects;
			}
		}
		next += k;
	}
	return 0;
}
