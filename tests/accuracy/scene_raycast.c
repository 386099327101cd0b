/* Tabletop scenes ray-cast into a stereo pair (scene_raycast.h). */
#include "scene_raycast.h"

#include <math.h>
#include <string.h>

#define FAR_MM 4000.0 /* a textured backdrop where nothing else is hit */

struct frame {
	double n[3], up[3], e1[3], e2[3], o[3];
};

struct hit {
	double t;      /* along the ray (its z is 1: t is the depth) */
	int obj;       /* object index, -1 the table, -2 the backdrop */
	double nrm[3]; /* the surface normal, world frame, towards the viewer */
	double albedo;
};

static double dot(const double a[3], const double b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross(const double a[3], const double b[3], double out[3])
{
	out[0] = a[1] * b[2] - a[2] * b[1];
	out[1] = a[2] * b[0] - a[0] * b[2];
	out[2] = a[0] * b[1] - a[1] * b[0];
}

static void unit(double v[3])
{
	double l = sqrt(dot(v, v));
	for (int i = 0; i < 3; i++) {
		v[i] /= l;
	}
}

static void table_frame(const struct jd_scene *s, struct frame *f)
{
	double t = s->tilt_deg * M_PI / 180, a = s->azimuth_deg * M_PI / 180, x[3] = {1, 0, 0};

	f->n[0] = sin(t) * cos(a);
	f->n[1] = sin(t) * sin(a);
	f->n[2] = cos(t);
	cross(f->n, x, f->e2);
	unit(f->e2);
	cross(f->e2, f->n, f->e1);
	for (int i = 0; i < 3; i++) {
		f->up[i] = -f->n[i];
	}
	/* the origin of (u, v): where the optical axis meets the table */
	f->o[0] = f->o[1] = 0;
	f->o[2] = s->distance_mm / f->n[2];
}

/* Table coordinates (u, v, height) of a world vector: a point (minus o) or a direction. */
static void to_table(const struct frame *f, const double v[3], double out[3])
{
	out[0] = dot(v, f->e1);
	out[1] = dot(v, f->e2);
	out[2] = dot(v, f->up);
}

static void to_world(const struct frame *f, const double v[3], double out[3])
{
	for (int i = 0; i < 3; i++) {
		out[i] = v[0] * f->e1[i] + v[1] * f->e2[i] + v[2] * f->up[i];
	}
}

/* Slab test of the ray (a0 + t ra) against [lo, hi]; the entry's axis and side. */
static double slabs(const double a0[3], const double ra[3], const double lo[3], const double hi[3],
		    int *axis, double *side)
{
	double t0 = 0, t1 = INFINITY;

	*axis = 2;
	*side = 1;
	for (int k = 0; k < 3; k++) {
		if (fabs(ra[k]) < 1e-12) {
			if (a0[k] < lo[k] || a0[k] > hi[k]) {
				return INFINITY;
			}
			continue;
		}
		double ta = (lo[k] - a0[k]) / ra[k], tb = (hi[k] - a0[k]) / ra[k];
		double tn = fmin(ta, tb);
		if (tn > t0) {
			t0 = tn;
			*axis = k;
			*side = ta < tb ? -1 : 1;
		}
		t1 = fmin(t1, fmax(ta, tb));
	}
	return t0 <= t1 && t0 > 0 ? t0 : INFINITY;
}

/* One object against the ray in table coordinates: t and the normal (table frame). */
static double hit_obj(const struct jd_scene_obj *ob, const double a0[3], const double ra[3],
		      double nt[3])
{
	if (ob->kind == JD_SCENE_BOX || ob->kind == JD_SCENE_WALL) {
		double c = cos(ob->yaw_deg * M_PI / 180), s = sin(ob->yaw_deg * M_PI / 180);
		double du = a0[0] - ob->u, dv = a0[1] - ob->v;
		double p0[3] = {du * c + dv * s, -du * s + dv * c, a0[2]};
		double pd[3] = {ra[0] * c + ra[1] * s, -ra[0] * s + ra[1] * c, ra[2]};
		double lo[3] = {-ob->sx, -ob->sy, 0}, hi[3] = {ob->sx, ob->sy, ob->height}, side;
		int axis;
		double t = slabs(p0, pd, lo, hi, &axis, &side);
		double ln[3] = {0, 0, 0};
		ln[axis] = side;
		nt[0] = ln[0] * c - ln[1] * s;
		nt[1] = ln[0] * s + ln[1] * c;
		nt[2] = ln[2];
		return t;
	}
	if (ob->kind == JD_SCENE_SPHERE) {
		double r = ob->sx, oc[3] = {a0[0] - ob->u, a0[1] - ob->v, a0[2] - r};
		double a = dot(ra, ra), b = dot(oc, ra), cc = dot(oc, oc) - r * r,
		       disc = b * b - a * cc;
		if (disc < 0) {
			return INFINITY;
		}
		double t = (-b - sqrt(disc)) / a;
		if (!(t > 0)) {
			return INFINITY;
		}
		for (int i = 0; i < 3; i++) {
			nt[i] = (oc[i] + t * ra[i]) / r;
		}
		return t;
	}
	/* cylinder: the side, then the top cap */
	double r = ob->sx, du = a0[0] - ob->u, dv = a0[1] - ob->v, best = INFINITY;
	double a = ra[0] * ra[0] + ra[1] * ra[1], b = du * ra[0] + dv * ra[1];
	double cc = du * du + dv * dv - r * r, disc = b * b - a * cc;
	if (a > 1e-12 && disc >= 0) {
		double t = (-b - sqrt(disc)) / a, hgt = a0[2] + t * ra[2];
		if (t > 0 && hgt >= 0 && hgt <= ob->height) {
			best = t;
			nt[0] = (du + t * ra[0]) / r;
			nt[1] = (dv + t * ra[1]) / r;
			nt[2] = 0;
		}
	}
	if (fabs(ra[2]) > 1e-12) {
		double t = (ob->height - a0[2]) / ra[2];
		double pu = du + t * ra[0], pv = dv + t * ra[1];
		if (t > 0 && t < best && pu * pu + pv * pv <= r * r) {
			best = t;
			nt[0] = nt[1] = 0;
			nt[2] = 1;
		}
	}
	return best;
}

static void cast(const struct jd_scene *s, const struct frame *f, const double c[3],
		 const double r[3], struct hit *h)
{
	double oc[3] = {c[0] - f->o[0], c[1] - f->o[1], c[2] - f->o[2]}, a0[3], ra[3],
	       nt[3] = {0, 0, 1};

	to_table(f, oc, a0);
	to_table(f, r, ra);
	*h = (struct hit){(FAR_MM - c[2]) / r[2], -2, {0, 0, -1}, 0.6};
	if (fabs(ra[2]) > 1e-12) {
		double t = -a0[2] / ra[2];
		if (t > 0 && t < h->t &&
		    (s->table_v_min == 0 || a0[1] + t * ra[1] >= s->table_v_min)) {
			*h = (struct hit){t, -1, {f->up[0], f->up[1], f->up[2]}, 0.8};
		}
	}
	for (int k = 0; k < s->n; k++) {
		double t = hit_obj(&s->o[k], a0, ra, nt);
		if (t < h->t) {
			h->t = t;
			h->obj = k;
			h->albedo = s->o[k].albedo;
			to_world(f, nt, h->nrm);
		}
	}
}

static uint32_t hash3(int32_t x, int32_t y, int32_t z, uint32_t seed)
{
	uint32_t v = (uint32_t)x * 0x8da6b343u ^ (uint32_t)y * 0xd8163841u ^
		     (uint32_t)z * 0xcb1ab31fu ^ seed * 0x9e3779b9u;
	v ^= v >> 15;
	v *= 0x2c1b3c6du;
	v ^= v >> 12;
	v *= 0x297a2d39u;
	return v ^ (v >> 15);
}

static double smooth(double t)
{
	return t * t * (3 - 2 * t);
}

/* Value noise in [0, 1) at p / scale. */
static double noise3(const double p[3], double scale, uint32_t seed)
{
	double q[3] = {p[0] / scale, p[1] / scale, p[2] / scale}, fr[3], v = 0;
	int32_t i[3];

	for (int k = 0; k < 3; k++) {
		i[k] = (int32_t)floor(q[k]);
		fr[k] = smooth(q[k] - i[k]);
	}
	for (int c = 0; c < 8; c++) {
		double wgt = 1;
		for (int k = 0; k < 3; k++) {
			wgt *= (c >> k & 1) ? fr[k] : 1 - fr[k];
		}
		v += wgt *
		     (hash3(i[0] + (c & 1), i[1] + (c >> 1 & 1), i[2] + (c >> 2 & 1), seed) >> 8) /
		     16777216.0;
	}
	return v;
}

/* The brightness a ray sees, 0..255. */
static double shade(const struct jd_scene *s, const struct frame *f, const double c[3],
		    const double r[3], struct hit *h)
{
	static const double light[3] = {0.27, -0.77, -0.58}; /* above, towards the camera */

	cast(s, f, c, r, h);
	double p[3] = {c[0] + h->t * r[0], c[1] + h->t * r[1], c[2] + h->t * r[2]};
	double tex = 0.55 * noise3(p, 2.2, s->seed) + 0.45 * noise3(p, 7.0, s->seed + 1);
	double lam = fmax(0.0, dot(h->nrm, light));
	return 255.0 * h->albedo * (0.4 + 0.6 * lam) * (0.25 + 0.75 * tex);
}

void jd_scene_init(struct jd_scene *s, int w, int h, double f, double tilt_deg, double azimuth_deg,
		   double distance_mm)
{
	memset(s, 0, sizeof(*s));
	s->cam = (struct jd_camera_model){(float)f, w / 2.0f, h / 2.0f, 60.0f};
	s->w = w;
	s->h = h;
	s->tilt_deg = tilt_deg;
	s->azimuth_deg = azimuth_deg;
	s->distance_mm = distance_mm;
	s->seed = 7;
}

/*
 * The ray (x, y, 1) a raw pixel's normalised, distorted coordinates (xd, yd) come from:
 * OpenCV's radial model xd = x (1 + k1 r^2 + k2 r^4) inverted by fixed-point iteration.
 */
static void undistort(const struct jd_scene *s, double xd, double yd, double r[3])
{
	double x = xd, y = yd;

	for (int it = 0; it < 20 && (s->k1 != 0 || s->k2 != 0); it++) {
		double r2 = x * x + y * y, g = 1 + s->k1 * r2 + s->k2 * r2 * r2;
		x = xd / g;
		y = yd / g;
	}
	r[0] = x;
	r[1] = y;
	r[2] = 1.0;
}

static void render_view(struct jd_scene *s, const struct frame *f, double cx_mm,
			struct jd_image *im, int8_t *label)
{
	const double fo = s->cam.f, ccx = s->cam.cx, ccy = s->cam.cy, c[3] = {cx_mm, 0, 0};
	struct hit h;

	for (int y = 0; y < s->h; y++) {
		for (int x = 0; x < s->w; x++) {
			double sum = 0;
			for (int k = 0; k < 4; k++) {
				double sx = x + (k & 1 ? 0.25 : -0.25),
				       sy = y + (k & 2 ? 0.25 : -0.25);
				double r[3];
				undistort(s, (sx - ccx) / fo, (sy - ccy) / fo, r);
				sum += shade(s, f, c, r, &h);
			}
			uint32_t z = hash3(x, y, cx_mm > 0, s->seed + 99);
			double v = sum / 4 + ((z >> 8) / 16777216.0 - 0.5) * 4.0;
			im->data[(size_t)y * im->stride + x] = (uint8_t)(v < 0	   ? 0
									 : v > 255 ? 255
										   : v + 0.5);
			if (!label) {
				continue;
			}
			double r[3];
			undistort(s, (x - ccx) / fo, (y - ccy) / fo, r);
			cast(s, f, c, r, &h);
			int8_t k =
			    h.obj >= 0 && s->o[h.obj].kind != JD_SCENE_WALL ? (int8_t)h.obj : -1;
			label[(size_t)y * s->w + x] = k;
			if (k >= 0) {
				for (int i = 0; i < 3; i++) {
					s->centroid[k][i] += h.t * r[i];
				}
				s->area[k]++;
			}
		}
	}
}

void jd_scene_render(struct jd_scene *s, struct jd_image *left, struct jd_image *right,
		     int8_t *label)
{
	struct frame f;

	table_frame(s, &f);
	if (label) {
		memset(s->area, 0, sizeof(s->area));
		memset(s->centroid, 0, sizeof(s->centroid));
	}
	render_view(s, &f, 0.0, left, label);
	render_view(s, &f, s->cam.baseline_mm, right, NULL);
	for (int k = 0; k < s->n && label; k++) {
		if (s->area[k]) {
			for (int i = 0; i < 3; i++) {
				s->centroid[k][i] /= (double)s->area[k];
			}
		}
		s->distance[k] = sqrt(dot(s->centroid[k], s->centroid[k]));
	}
}
