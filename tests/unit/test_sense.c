/*
 * 3D sensing against scenes whose answer is known exactly: a table plane tilted up to 25
 * degrees, boxes standing on it, ray-cast into a disparity map for a rectified camera (f 500
 * px, baseline 60 mm) with noise (+-0.2 px) and invalid pixels (1 %). Every box is found, its
 * 3D centroid lies within 2 % of its distance from the true centroid of its visible surface,
 * its height within 10 %; an empty table gives no object; the fixed-threshold fallback
 * finds boxes on a table parallel to the camera; bad parameters and a small workspace are
 * refused.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jd_test.h"
#include "sense.h"
#include "workers.h"

static struct jd_workers wk;

enum { W = 640, H = 480, MAXB = 4 };

struct box {
	double u, v, sx, sy, height; /* centre and half sizes in the table plane, mm */
};

struct scene {
	double n[3], k; /* table: n . P = k (mm), n towards the table */
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
					double ta = (lo[k] - a0[k]) / ra[k], tb = (hi[k] - a0[k]) / ra[k];
					t0 = fmax(t0, fmin(ta, tb));
					t1 = fmin(t1, fmax(ta, tb));
				}
				if (t0 <= t1 && t0 > 0 && t0 < t) {
					t = t0;
					hit = b;
				}
			}
			float *out = &jd_disp_row(d, py)[px];
			if (!isfinite(t) || noise() < 0.01) {
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
		visible += s->count[b] >= 200; /* a tilted view can leave a box out of the frame */
	}
	JD_CHECK(res.nobjects == visible, "%s: %d objects, %d boxes in view", what, res.nobjects,
		 visible);
	for (int b = 0; b < s->nbox; b++) {
		if (s->count[b] < 200) {
			printf("%s box %d: out of view\n", what, b);
			continue;
		}
		double t[3] = {s->sum[b][0] / s->count[b], s->sum[b][1] / s->count[b],
			       s->sum[b][2] / s->count[b]};
		double dist = sqrt(dot(t, t));
		const struct jd_object *best = NULL;
		double err = 1e30;
		for (int o = 0; o < res.nobjects; o++) {
			const float *c = res.objects[o].centroid_mm;
			double e = sqrt((c[0] - t[0]) * (c[0] - t[0]) + (c[1] - t[1]) * (c[1] - t[1]) +
					(c[2] - t[2]) * (c[2] - t[2]));
			if (e < err) {
				err = e;
				best = &res.objects[o];
			}
		}
		JD_CHECK(best && err < 0.02 * dist,
			 "%s box %d: centroid off by %.1f mm at %.0f mm (%.2f %%)", what, b, err, dist,
			 100 * err / dist);
		JD_CHECK(best && fabs(best->height_mm - s->b[b].height) < 0.1 * s->b[b].height,
			 "%s box %d: height %.1f mm, true %.1f", what, b,
			 best ? (double)best->height_mm : 0.0, s->b[b].height);
		if (best) {
			printf("%s box %d: found at %.0f mm, centroid off by %.1f mm (%.2f %%), height "
			       "%.1f mm (true %.0f)\n",
			       what, b, (double)best->distance_mm, err, 100 * err / dist,
			       (double)best->height_mm, s->b[b].height);
		}
	}
	free(ws);
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
		s.b[0] = (struct box){-180, -60, 40, 40, 80};
		s.b[1] = (struct box){20, 80, 60, 30, 120};
		s.b[2] = (struct box){200, -20, 30, 50, 40};
		snprintf(what, sizeof(what), "tilt %g az %g", tilts[i][0], tilts[i][1]);
		check_scene(&s, what);
		s.nbox = 0;
		snprintf(what, sizeof(what), "empty tilt %g az %g", tilts[i][0], tilts[i][1]);
		check_scene(&s, what);
	}

	/* The thesis's fixed threshold: a table parallel to the camera, boxes nearer. */
	static float dm[W * H];
	struct jd_disp d = {dm, W, H, W};
	struct jd_sense_params sp;
	static struct jd_sense_result res;
	size_t bytes = jd_sense_mem_required(W, H);
	void *ws = malloc(bytes);
	table(&s, 0, 0);
	s.nbox = 2;
	s.b[0] = (struct box){-150, 0, 50, 50, 100};
	s.b[1] = (struct box){150, 0, 50, 50, 100};
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
	JD_CHECK(jd_sense_run(&sp, &cam, &d, ws, bytes - 1, &res, NULL) == -ENOMEM, "small workspace");
	free(ws);
	jd_workers_deinit(&wk);
	return jd_test_done("unit.sense");
}
