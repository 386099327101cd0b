/*
 * 3D sensing against scenes whose answer is known exactly: a table plane tilted up to 25
 * degrees, boxes standing on it, ray-cast into a disparity map for a rectified camera (f 500
 * px, baseline 60 mm) with noise (+-0.2 px) and invalid pixels (1 %). Every box is found, its
 * 3D centroid lies within 2 % of its distance from the true centroid of its visible surface,
 * its distance within 1 % (2 % when the border cuts it), its height within 10 %, its
 * oriented footprint (centre, sides, yaw) within 10 %; an empty table gives no object; a
 * wall where the table ends is no object; a box behind another, overlapping it in the image,
 * is a second object; a box the border cuts is marked cut; noisy patches are no objects; an
 * untextured table (95 % without disparity) is "no table" with its reason and no objects;
 * the fixed-threshold fallback finds boxes on a table parallel to the camera; bad parameters
 * and a small workspace are refused.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jd_test.h"
#include "sense.h"
#include "sense_planner.h"
#include "workers.h"

static struct jd_workers wk;

enum { W = 640, H = 480, MAXB = 4 };

struct box {
	double u, v, sx, sy, height; /* centre and half sizes in the table plane, mm */
	int wall;		     /* a background surface: must not be reported */
};

struct scene {
	double n[3], k;	    /* table: n . P = k (mm), n towards the table */
	double table_v_min; /* the table ends at this v (a wall may stand there); 0: no end */
	double invalid;	    /* share of table pixels without disparity (an untextured table) */
	int nbox;
	struct box b[MAXB];
	/* truth, filled by render() */
	double sum[MAXB][3];
	long count[MAXB];
};

static const struct jd_camera_model cam = {500.0f, W / 2.0f, H / 2.0f, 60.0f};

static void cross(const double a[3], const double b[3], double out[3])
{
	out[0] = a[1] * b[2] - a[2] * b[1];
	out[1] = a[2] * b[0] - a[0] * b[2];
	out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double a[3], const double b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static uint32_t rng = 12345;
static double noise(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return (double)(rng % 10000) / 10000.0;
}

/* Ray-cast the scene: disparity per pixel, and the truth of each box's visible surface. */
static void render(struct scene *s, struct jd_disp *d)
{
	double e1[3], e2[3], up[3] = {-s->n[0], -s->n[1], -s->n[2]}, x[3] = {1, 0, 0};

	cross(s->n, x, e2);
	double l = sqrt(dot(e2, e2));
	for (int i = 0; i < 3; i++) {
		e2[i] /= l;
	}
	cross(e2, s->n, e1);
	memset(s->sum, 0, sizeof(s->sum));
	memset(s->count, 0, sizeof(s->count));
	for (int py = 0; py < H; py++) {
		for (int px = 0; px < W; px++) {
			double r[3] = {(px - cam.cx) / cam.f, (py - cam.cy) / cam.f, 1.0};
			double nr = dot(s->n, r), t = nr > 0 ? s->k / nr : INFINITY;
			int hit = -1;
			/* ray in table coordinates: a = t ra + a0 etc., origin O = k n */
			double o[3] = {-s->k * s->n[0], -s->k * s->n[1], -s->k * s->n[2]};
			double ra[3] = {dot(r, e1), dot(r, e2), dot(r, up)};
			double a0[3] = {dot(o, e1), dot(o, e2), dot(o, up)};
			for (int b = 0; b < s->nbox; b++) {
				double lo[3] = {s->b[b].u - s->b[b].sx, s->b[b].v - s->b[b].sy, 0};
				double hi[3] = {s->b[b].u + s->b[b].sx, s->b[b].v + s->b[b].sy,
						s->b[b].height};
				double t0 = 0, t1 = INFINITY;
				for (int k = 0; k < 3; k++) {
					if (fabs(ra[k]) < 1e-12) {
						if (a0[k] < lo[k] || a0[k] > hi[k]) {
							t1 = -1;
						}
						continue;
					}
					double ta = (lo[k] - a0[k]) / ra[k],
					       tb = (hi[k] - a0[k]) / ra[k];
					t0 = fmax(t0, fmin(ta, tb));
					t1 = fmin(t1, fmax(ta, tb));
				}
				if (t0 <= t1 && t0 > 0 && t0 < t) {
					t = t0;
					hit = b;
				}
			}
			float *out = &jd_disp_row(d, py)[px];
			int on_table = hit < 0 && isfinite(t);
			if (on_table && s->table_v_min != 0.0 &&
			    t * ra[1] + a0[1] < s->table_v_min) {
				t = INFINITY; /* past the table's end: nothing to match */
			}
			if (!isfinite(t) || noise() < 0.01 || (on_table && noise() < s->invalid)) {
				*out = INFINITY; /* no match here */
				continue;
			}
			*out = (float)(cam.f * cam.baseline_mm / t + (noise() - 0.5) * 0.4);
			if (hit >= 0) {
				for (int k = 0; k < 3; k++) {
					s->sum[hit][k] += t * r[k];
				}
				s->count[hit]++;
			}
		}
	}
}

static void table(struct scene *s, double tilt_deg, double azimuth_deg)
{
	double t = tilt_deg * M_PI / 180, a = azimuth_deg * M_PI / 180;

	memset(s, 0, sizeof(*s));
	s->n[0] = sin(t) * cos(a);
	s->n[1] = sin(t) * sin(a);
	s->n[2] = cos(t);
	s->k = 800;
}

/* The oriented footprint against the box's: centre, sides and (for oblong boxes) yaw. */
static void check_grasp(const struct scene *s, const struct box *bx, const struct jd_object *o,
			const char *what, int b)
{
	double e2[3], e1[3], x[3] = {1, 0, 0}, p[3];

	cross(s->n, x, e2);
	double l = sqrt(dot(e2, e2));
	for (int i = 0; i < 3; i++) {
		e2[i] /= l;
	}
	cross(e2, s->n, e1);
	for (int i = 0; i < 3; i++) {
		p[i] = bx->u * e1[i] + bx->v * e2[i] + s->k * s->n[i];
	}
	double err = sqrt((p[0] - o->footprint_mm[0]) * (p[0] - o->footprint_mm[0]) +
			  (p[1] - o->footprint_mm[1]) * (p[1] - o->footprint_mm[1]) +
			  (p[2] - o->footprint_mm[2]) * (p[2] - o->footprint_mm[2]));
	double len = 2 * fmax(bx->sx, bx->sy), wid = 2 * fmin(bx->sx, bx->sy);
	JD_CHECK(err < 0.1 * wid, "%s box %d: footprint centre off by %.1f mm", what, b, err);
	JD_CHECK(fabs(o->length_mm - len) < 0.1 * len && fabs(o->width_mm - wid) < 0.1 * wid,
		 "%s box %d: footprint %.0f x %.0f mm, true %.0f x %.0f", what, b,
		 (double)o->length_mm, (double)o->width_mm, len, wid);
	if (len > 1.2 * wid) {
		double want = bx->sx > bx->sy ? 0.0 : 90.0, got = fabs((double)o->yaw_deg);
		JD_CHECK(fabs(got - want) < 5.0, "%s box %d: yaw %.1f deg, true %.0f", what, b,
			 (double)o->yaw_deg, want);
	}
	JD_CHECK(o->top_mm[2] > 0 && o->quality > 0.9f, "%s box %d: top face and quality %.2f",
		 what, b, (double)o->quality);
}

static void check_scene(struct scene *s, const char *what)
{
	static float dm[W * H];
	struct jd_disp d = {dm, W, H, W};
	struct jd_sense_params sp;
	static struct jd_sense_result res;
	size_t bytes = jd_sense_mem_required(W, H);
	void *ws = malloc(bytes);

	render(s, &d);
	jd_sense_default(&sp);
	JD_CHECK(jd_sense_run(&sp, &cam, &d, ws, bytes, &res, NULL) == 0, "%s: sense", what);
	/* spread over workers: the same result, bit for bit */
	static struct jd_sense_result par;
	JD_CHECK(jd_sense_run(&sp, &cam, &d, ws, bytes, &par, &wk.exec) == 0 &&
		     !memcmp(&par, &res, sizeof(res)),
		 "%s: with 3 workers the result differs", what);
	double tilt = acos(s->n[2]) * 180 / M_PI;
	JD_CHECK(res.plane.valid && fabs(res.plane.tilt_deg - tilt) < 1.0 &&
		     fabs(res.plane.k_mm - s->k) < 0.01 * s->k,
		 "%s: table tilt %.1f (true %.1f), distance %.0f mm (true %.0f)", what,
		 (double)res.plane.tilt_deg, tilt, (double)res.plane.k_mm, s->k);
	int visible = 0;
	for (int b = 0; b < s->nbox; b++) {
		/* a tilted view can leave a box out of the frame */
		visible += s->count[b] >= 200 && !s->b[b].wall;
	}
	JD_CHECK(res.nobjects == visible, "%s: %d objects, %d boxes in view", what, res.nobjects,
		 visible);
	for (int b = 0; b < s->nbox; b++) {
		if (s->count[b] < 200 || s->b[b].wall) {
			printf("%s box %d: %s\n", what, b, s->b[b].wall ? "a wall" : "out of view");
			continue;
		}
		double t[3] = {s->sum[b][0] / s->count[b], s->sum[b][1] / s->count[b],
			       s->sum[b][2] / s->count[b]};
		double dist = sqrt(dot(t, t));
		const struct jd_object *best = NULL;
		double err = 1e30;
		for (int o = 0; o < res.nobjects; o++) {
			const float *c = res.objects[o].centroid_mm;
			double e =
			    sqrt((c[0] - t[0]) * (c[0] - t[0]) + (c[1] - t[1]) * (c[1] - t[1]) +
				 (c[2] - t[2]) * (c[2] - t[2]));
			if (e < err) {
				err = e;
				best = &res.objects[o];
			}
		}
		JD_CHECK(best && err < 0.02 * dist,
			 "%s box %d: centroid off by %.1f mm at %.0f mm (%.2f %%)", what, b, err,
			 dist, 100 * err / dist);
		JD_CHECK(best && fabs(best->height_mm - s->b[b].height) < 0.1 * s->b[b].height,
			 "%s box %d: height %.1f mm, true %.1f", what, b,
			 best ? (double)best->height_mm : 0.0, s->b[b].height);
		/* a cut object's is its visible part's: within 2 % */
		JD_CHECK(best && fabs(best->distance_mm - dist) < (best->cut ? 0.02 : 0.01) * dist,
			 "%s box %d: distance %.1f mm, true %.1f", what, b,
			 best ? (double)best->distance_mm : 0.0, dist);
		if (best && !best->cut) {
			check_grasp(s, &s->b[b], best, what, b);
		}
		if (best) {
			printf(
			    "%s box %d: footprint %.0f x %.0f mm yaw %.1f, cut %d, quality %.2f\n",
			    what, b, (double)best->length_mm, (double)best->width_mm,
			    (double)best->yaw_deg, best->cut, (double)best->quality);
		}
		if (best) {
			printf("%s box %d: found at %.0f mm, centroid off by %.1f mm (%.2f %%), "
			       "height "
			       "%.1f mm (true %.0f)\n",
			       what, b, (double)best->distance_mm, err, 100 * err / dist,
			       (double)best->height_mm, s->b[b].height);
		}
	}
	free(ws);
}

/* Sense a map with the defaults. @return jd_sense_run()'s result */
static int sense_map(const struct jd_disp *d, struct jd_sense_result *res)
{
	struct jd_sense_params sp;
	size_t bytes = jd_sense_mem_required(W, H);
	void *ws = malloc(bytes);

	jd_sense_default(&sp);
	int rc = jd_sense_run(&sp, &cam, d, ws, bytes, res, NULL);
	free(ws);
	return rc;
}

/* The box of "cut by the border" is marked cut; noisy patches are no objects. */
static void check_cut_and_phantoms(struct scene *s)
{
	static float dm[W * H];
	struct jd_disp d = {dm, W, H, W};
	static struct jd_sense_result res;

	render(s, &d);
	/* noisy patches of 12 x 12 px, each pixel its own wrong disparity up to 20 px nearer */
	for (int k = 0; k < 20; k++) {
		int x0 = 20 + (k % 5) * 50, y0 = 40 + (k / 5) * 100;
		for (int y = y0; y < y0 + 12; y++) {
			for (int x = x0; x < x0 + 12; x++) {
				dm[y * W + x] += (float)(20.0 * noise());
			}
		}
	}
	JD_CHECK(sense_map(&d, &res) == 0 && res.nobjects == 1 && res.objects[0].cut &&
		     res.objects[0].quality <= 0.5f,
		 "border and phantoms: %d objects (1), cut %d", res.nobjects,
		 res.nobjects ? res.objects[0].cut : -1);
}

/* Too little support for a plane: "no table", the reason, and no objects. */
static void check_no_table(struct scene *s)
{
	static float dm[W * H];
	struct jd_disp d = {dm, W, H, W};
	static struct jd_sense_result res;

	render(s, &d);
	JD_CHECK(sense_map(&d, &res) == 0 && !res.plane.valid &&
		     res.plane.verdict == JD_TABLE_LOW_SUPPORT && res.nobjects == 0,
		 "untextured table: plane %d (%s, %.1f %% of the view), %d objects",
		 res.plane.valid, jd_table_verdict_name(res.plane.verdict),
		 100.0 * res.plane.roi_share, res.nobjects);
}

/* Fixed point (jd_sense_fix): rounded to the nearest, ties to even; clamped either way. */
static void check_fixed_point(void)
{
	JD_CHECK(jd_sense_fix(1.0 / 128, JD_SENSE_FIX, JD_SENSE_FIX_LIM) == 0 &&
		     jd_sense_fix(3.0 / 128, JD_SENSE_FIX, JD_SENSE_FIX_LIM) == 2 &&
		     jd_sense_fix(-3.0 / 128, JD_SENSE_FIX, JD_SENSE_FIX_LIM) == -2 &&
		     jd_sense_fix(10.26, JD_SENSE_FIXC, JD_SENSE_FIXC_LIM) == 164,
		 "fixed point: rounding");
	JD_CHECK(jd_sense_fix(1e12, JD_SENSE_FIX, JD_SENSE_FIX_LIM) == 2147483647LL &&
		     jd_sense_fix(-1e300, JD_SENSE_FIXC, JD_SENSE_FIXC_LIM) == -131071,
		 "fixed point: clamping");
}

int main(void)
{
	static const double tilts[][2] = {{0, 0}, {10, 90}, {25, 90}, {25, 30}, {18, 200}};
	struct scene s;
	char what[64];

	JD_CHECK(jd_workers_init(&wk, 3) == 0, "workers");
	for (size_t i = 0; i < sizeof(tilts) / sizeof(tilts[0]); i++) {
		table(&s, tilts[i][0], tilts[i][1]);
		s.nbox = 3;
		s.b[0] = (struct box){-180, -60, 40, 40, 80, 0};
		s.b[1] = (struct box){20, 80, 60, 30, 120, 0};
		s.b[2] = (struct box){200, -20, 30, 50, 40, 0};
		snprintf(what, sizeof(what), "tilt %g az %g", tilts[i][0], tilts[i][1]);
		check_scene(&s, what);
		s.nbox = 0;
		snprintf(what, sizeof(what), "empty tilt %g az %g", tilts[i][0], tilts[i][1]);
		check_scene(&s, what);
	}

	/* A wall where the table ends (far from the camera): not an object; the boxes are. */
	for (int tilt = 0; tilt <= 25; tilt += 25) {
		table(&s, tilt, 90);
		s.table_v_min = -150;
		s.nbox = 3;
		s.b[0] = (struct box){-180, -60, 40, 40, 80, 0};
		s.b[1] = (struct box){60, 40, 60, 30, 120, 0};
		s.b[2] = (struct box){0, -160, 3000, 10, 2000, 1}; /* the wall */
		snprintf(what, sizeof(what), "wall, tilt %d", tilt);
		check_scene(&s, what);
	}
	/* One box in front of another, overlapping in the image: two objects. */
	table(&s, 25, 90);
	s.nbox = 2; /* +v is nearer the camera, lower in the image */
	s.b[0] = (struct box){0, -70, 50, 20, 60, 0};
	s.b[1] = (struct box){0, -140, 50, 30, 160, 0};
	check_scene(&s, "one box behind another");
	/* A box the image border cuts: found, marked cut. */
	table(&s, 10, 90);
	s.nbox = 1;
	s.b[0] = (struct box){470, 0, 60, 40, 80, 0};
	check_scene(&s, "cut by the border");
	check_cut_and_phantoms(&s);
	check_fixed_point();
	/* An untextured table: few confident pixels, so no table, and no objects. */
	table(&s, 10, 90);
	s.invalid = 0.95;
	s.nbox = 1;
	s.b[0] = (struct box){0, 0, 40, 40, 80, 0};
	check_no_table(&s);

	/* The thesis's fixed threshold: a table parallel to the camera, boxes nearer. */
	static float dm[W * H];
	struct jd_disp d = {dm, W, H, W};
	struct jd_sense_params sp;
	static struct jd_sense_result res;
	size_t bytes = jd_sense_mem_required(W, H);
	void *ws = malloc(bytes);
	table(&s, 0, 0);
	s.nbox = 2;
	s.b[0] = (struct box){-150, 0, 50, 50, 100, 0};
	s.b[1] = (struct box){150, 0, 50, 50, 100, 0};
	render(&s, &d);
	jd_sense_default(&sp);
	sp.use_fixed = 1;
	sp.fixed_disp = (float)(cam.f * cam.baseline_mm / (s.k - 20)); /* 20 mm above the table */
	JD_CHECK(jd_sense_run(&sp, &cam, &d, ws, bytes, &res, NULL) == 0 && res.nobjects == 2 &&
		     !res.plane.valid,
		 "fixed threshold: %d objects, plane %d", res.nobjects, res.plane.valid);
	/* A region of interest holding one box sees one box. */
	sp.roi[0] = 0;
	sp.roi[1] = 0;
	sp.roi[2] = W / 2;
	sp.roi[3] = H;
	JD_CHECK(jd_sense_run(&sp, &cam, &d, ws, bytes, &res, NULL) == 0 && res.nobjects == 1 &&
		     res.objects[0].centroid_px[0] < W / 2,
		 "roi: %d objects", res.nobjects);
	/* Refusals. */
	struct jd_camera_model bad = cam;
	bad.baseline_mm = 0;
	JD_CHECK(jd_sense_run(&sp, &bad, &d, ws, bytes, &res, NULL) == -EINVAL, "zero baseline");
	sp.roi[2] = W + 1;
	JD_CHECK(jd_sense_run(&sp, &cam, &d, ws, bytes, &res, NULL) == -EINVAL, "roi outside");
	jd_sense_default(&sp);
	JD_CHECK(jd_sense_run(&sp, &cam, &d, ws, bytes - 64, &res, NULL) == -ENOMEM,
		 "a workspace a block short");
	free(ws);
	jd_workers_deinit(&wk);
	return jd_test_done("unit.sense");
}
