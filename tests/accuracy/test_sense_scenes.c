/*
 * Whole objects, where they are: tabletop scenes ray-cast into stereo pairs (scene_raycast.h)
 * with boxes, spheres and cylinders, a sphere overlapping a box in the image, a wall where the
 * table ends, small objects far off, a raw distorted pair, at 1280x720 and 640x480. Every
 * matcher with its defaults, the confidence mask at its default, then sensing with its
 * defaults, as the daemon runs them. Against the truth of the left view, for every object:
 * found once (no split), no reported object that is none of them (no phantom), none holding
 * two (no merge: the other would be missed), its distance and its centroid within 1 % of its
 * distance, its image area at least 90 % of its visible pixels (75 % under 2000 px) and at
 * most 110 %. JD_SCENES_REPORT=1 prints every figure and asserts nothing (for measuring);
 * JD_SCENES_ONLY=name runs one scene; JD_SCENES_DUMP=prefix writes the left image and each
 * matcher's masked map (x3) as PGM.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "confidence.h"
#include "image_io.h"
#include "jd_test.h"
#include "matcher.h"
#include "scene_raycast.h"
#include "sense.h"
#include "workers.h"

static struct jd_workers wk;
static int report_only;

/* With JD_SCENES_DUMP=prefix, im as prefix-name.pgm, to look at. */
static void dump(const char *name, const struct jd_image *im)
{
	const char *prefix = getenv("JD_SCENES_DUMP");
	char path[512], err[512];

	if (!prefix) {
		return;
	}
	snprintf(path, sizeof(path), "%s-%s.pgm", prefix, name);
	if (jd_pgm_write(path, im, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
	}
}

/* The truth object a reported one stands for: the label under its centroid, else -1. */
static int truth_of(const struct jd_scene *s, const int8_t *label, const struct jd_object *o)
{
	int x = (int)lrintf(o->centroid_px[0]), y = (int)lrintf(o->centroid_px[1]);

	if (x < 0 || y < 0 || x >= s->w || y >= s->h) {
		return -1;
	}
	return label[(size_t)y * s->w + x];
}

/*
 * A raw pair as the cameras give it (the scene's k1, k2), rectified the way the daemon does
 * it: the calibration (K, D of each camera, R = I, T = 60 mm along x) through
 * jd_calib_rectify(), jd_calib_map() and the remap, in place; cam becomes the rectified
 * model jd_calib_model() gives.
 */
static void rectify_raw(const struct jd_scene *s, struct jd_image *im[2],
			struct jd_camera_model *cam)
{
	struct jd_stereo_calib c;
	size_t n = (size_t)s->w * s->h;
	float *mx = malloc(sizeof(float) * n), *my = malloc(sizeof(float) * n);
	struct jd_remap m = {s->w, s->h, malloc(4 * n), malloc(4 * n)};
	uint8_t *tmp = malloc(n);
	double f, cx, cy, b, units;

	memset(&c, 0, sizeof(c));
	for (int i = 0; i < 2; i++) {
		struct jd_calib_camera *k = &c.cam[i];
		k->width = s->w;
		k->height = s->h;
		k->K[0] = k->K[4] = s->cam.f;
		k->K[2] = s->cam.cx;
		k->K[5] = s->cam.cy;
		k->K[8] = 1;
		k->D[0] = s->k1;
		k->D[1] = s->k2;
		k->ndist = 5;
		k->model = JD_DIST_RADTAN;
	}
	c.R[0] = c.R[4] = c.R[8] = 1;
	c.T[0] = -s->cam.baseline_mm;
	c.have_rt = 1;
	c.unit_mm = 1;
	JD_CHECK(jd_calib_rectify(&c) == 0, "rectify the raw pair's calibration");
	jd_calib_model(&c, &f, &cx, &cy, &b, &units);
	*cam = (struct jd_camera_model){(float)f, (float)cx, (float)cy, (float)(b * units)};
	for (int i = 0; i < 2; i++) {
		struct jd_image out = {tmp, s->w, s->h, s->w};
		jd_calib_map(&c, i, s->w, s->h, mx, my);
		jd_remap_from_float(&m, mx, my);
		jd_remap_ref(&m, im[i], &out, &wk.exec);
		memcpy(im[i]->data, tmp, n);
	}
	free(mx);
	free(my);
	free(m.sx);
	free(m.sy);
	free(tmp);
}

static void check(struct jd_scene *s, const char *name, int ndisp)
{
	static const enum jd_algo algos[] = {JD_ALGO_SGM, JD_ALGO_BP, JD_ALGO_SAD};
	size_t n = (size_t)s->w * s->h;
	uint8_t *lb = malloc(n), *rb = malloc(n), *conf = malloc(n);
	int8_t *label = malloc(n);
	float *db = malloc(sizeof(float) * n);
	struct jd_image l = {lb, s->w, s->h, s->w}, r = {rb, s->w, s->h, s->w};
	struct jd_disp d = {db, s->w, s->h, s->w};
	static struct jd_sense_result res;

	struct jd_camera_model cam = s->cam;
	if (s->k1 != 0 || s->k2 != 0) { /* the truth undistorted, then the raw pair rectified */
		double k1 = s->k1, k2 = s->k2;
		s->k1 = s->k2 = 0;
		jd_scene_render(s, &l, &r, label);
		s->k1 = k1;
		s->k2 = k2;
		jd_scene_render(s, &l, &r, NULL);
		struct jd_image *im[2] = {&l, &r};
		rectify_raw(s, im, &cam);
	} else {
		jd_scene_render(s, &l, &r, label);
	}
	dump("l", &l);
	for (size_t a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
		struct jd_match_params p;
		struct jd_sense_params sp;
		const char *what = jd_algo_name(algos[a]);

		jd_params_default(&p, algos[a], ndisp);
		size_t nm = jd_match_mem_required(&p, s->w, s->h, 2);
		size_t nc = jd_confidence_mem_required(s->w, s->h, 2);
		size_t ns = jd_sense_mem_required(s->w, s->h);
		size_t nw = nm > nc ? nm : nc;
		void *ws = malloc(nw > ns ? nw : ns);
		struct jd_conf_search search = {p.min_disp, p.ndisp};
		JD_CHECK(jd_match_run(NULL, &p, &l, &r, &d, ws, nm, &wk.exec) == 0 &&
			     jd_confidence_ref(&l, &r, &d, &search, conf, ws, nc, &wk.exec) == 0,
			 "%s %s: match", name, what);
		jd_confidence_mask(&d, conf, JD_MIN_CONFIDENCE_DEFAULT);
		if (getenv("JD_SCENES_DUMP")) { /* the map, x3, to look at */
			struct jd_image vis = {conf, s->w, s->h, s->w}; /* conf is spent */
			for (size_t i = 0; i < n; i++) {
				conf[i] = (uint8_t)(db[i] > 0 && db[i] < 85 ? 3 * db[i] : 0);
			}
			dump(what, &vis);
		}
		jd_sense_default(&sp);
		JD_CHECK(jd_sense_run(&sp, &cam, &d, ws, ns, &res, &wk.exec) == 0, "%s %s: sense",
			 name, what);
		free(ws);
		int count[JD_SCENE_MAX] = {0}, phantoms = 0;
		const struct jd_object *mine[JD_SCENE_MAX] = {0};
		for (int i = 0; i < res.nobjects; i++) {
			int k = truth_of(s, label, &res.objects[i]);
			if (k < 0) {
				phantoms++;
				const struct jd_object *o = &res.objects[i];
				printf(
				    "%s %-3s phantom at (%.0f, %.0f) px, %ld px, %.0f mm, %.0f mm "
				    "high, footprint %.0f x %.0f mm, box %d %d %d %d\n",
				    name, what, (double)o->centroid_px[0],
				    (double)o->centroid_px[1], o->area_px, (double)o->distance_mm,
				    (double)o->height_mm, (double)o->length_mm, (double)o->width_mm,
				    o->bbox[0], o->bbox[1], o->bbox[2], o->bbox[3]);
				continue;
			}
			count[k]++;
			mine[k] = mine[k] && mine[k]->area_px > res.objects[i].area_px
				      ? mine[k]
				      : &res.objects[i];
		}
		JD_CHECK(report_only || phantoms == 0, "%s %s: %d phantom objects", name, what,
			 phantoms);
		for (int k = 0; k < s->n; k++) {
			if (s->o[k].kind == JD_SCENE_WALL) {
				continue;
			}
			const struct jd_object *o = mine[k];
			double dist = s->distance[k], area = (double)s->area[k];
			double off = o ? fabs(o->distance_mm - dist) / dist : 1.0;
			double share = o ? (double)o->area_px / area : 0.0;
			double ce = o ? sqrt(pow(o->centroid_mm[0] - s->centroid[k][0], 2) +
					     pow(o->centroid_mm[1] - s->centroid[k][1], 2) +
					     pow(o->centroid_mm[2] - s->centroid[k][2], 2)) /
					    dist
				      : 1.0;
			printf("%s %-3s object %d (%s): %s, %.0f mm, distance off %.2f %%, "
			       "centroid off "
			       "%.2f %%, area %.0f %% of %ld px%s\n",
			       name, what, k,
			       s->o[k].kind == JD_SCENE_BOX	 ? "box"
			       : s->o[k].kind == JD_SCENE_SPHERE ? "sphere"
								 : "cylinder",
			       count[k] == 0  ? "MISSED"
			       : count[k] > 1 ? "SPLIT"
					      : "found",
			       dist, 100 * off, 100 * ce, 100 * share, s->area[k],
			       o && o->area_px > 1.5 * area ? " (merged?)" : "");
			if (report_only) {
				continue;
			}
			JD_CHECK(count[k] == 1, "%s %s: object %d reported %d times", name, what, k,
				 count[k]);
			JD_CHECK(off < 0.01, "%s %s: object %d at %.0f mm off by %.2f %%", name,
				 what, k, dist, 100 * off);
			JD_CHECK(ce < 0.01,
				 "%s %s: object %d's centroid %.2f %% of its distance off", name,
				 what, k, 100 * ce);
			/* thin objects far off lose their one-pixel borders: 25 mm is 19 px at 1.3
			 * m */
			double least = s->area[k] >= 2000 ? 0.9 : 0.75;
			JD_CHECK(share >= least && share <= 1.1,
				 "%s %s: object %d has %.0f %% of its %ld px", name, what, k,
				 100 * share, s->area[k]);
		}
	}
	free(lb);
	free(rb);
	free(conf);
	free(label);
	free(db);
}

static struct jd_scene_obj box(double u, double v, double sx, double sy, double hgt, double yaw)
{
	return (struct jd_scene_obj){JD_SCENE_BOX, u, v, sx, sy, hgt, yaw, 0.9};
}

static struct jd_scene_obj sphere(double u, double v, double r)
{
	return (struct jd_scene_obj){JD_SCENE_SPHERE, u, v, r, r, 2 * r, 0, 0.85};
}

static struct jd_scene_obj cylinder(double u, double v, double r, double hgt)
{
	return (struct jd_scene_obj){JD_SCENE_CYLINDER, u, v, r, r, hgt, 0, 0.8};
}

int main(void)
{
	struct jd_scene s;
	const char *only = getenv("JD_SCENES_ONLY"), *emu = getenv("JETDEPTH_EMULATOR");

	report_only = getenv("JD_SCENES_REPORT") != NULL;
	if (!only && emu && *emu) {
		printf("under an emulator: the 640x480 scenes only (the rest run natively)\n");
		only = "640x480";
	}
	JD_CHECK(jd_workers_init(&wk, 2) == 0, "workers");
#define SCENE(NAME) if (!only || strstr(NAME, only))
	SCENE("boxes 1280x720")
	{
		jd_scene_init(&s, 1280, 720, 1000, 30, 90, 800);
		s.n = 3;
		s.o[0] = box(-160, -40, 45, 40, 90, 20);
		s.o[1] = box(40, 60, 60, 30, 120, 0);
		s.o[2] = box(200, -40, 30, 50, 50, -30);
		check(&s, "boxes 1280x720", 128);
	}
	SCENE("round 1280x720")
	{
		jd_scene_init(&s, 1280, 720, 1000, 30, 90, 800);
		s.n = 3;
		s.o[0] = cylinder(-150, 0, 35, 110);
		s.o[1] = box(40, -60, 40, 40, 160, 0);
		s.o[2] = sphere(50, 40, 35); /* before the box, overlapping it in the image */
		check(&s, "round 1280x720", 128);
	}
	SCENE("wall 1280x720")
	{
		jd_scene_init(&s, 1280, 720, 1000, 30, 90, 800);
		s.table_v_min = -170;
		s.n = 3;
		s.o[0] = box(-120, 0, 40, 40, 80, 10);
		s.o[1] = sphere(120, 40, 40);
		s.o[2] = (struct jd_scene_obj){JD_SCENE_WALL, 0, -180, 3000, 10, 1500, 0, 0.7};
		check(&s, "wall 1280x720", 128);
	}
	SCENE("small 1280x720")
	{
		jd_scene_init(&s, 1280, 720, 1000, 40, 90, 1000);
		s.n = 4;
		s.o[0] = box(-200, 0, 15, 15, 40, 0);
		s.o[1] = cylinder(-60, 40, 12, 40);
		s.o[2] = sphere(80, -20, 20);
		s.o[3] = box(220, 30, 20, 12, 40, 45);
		check(&s, "small 1280x720", 128);
	}
	SCENE("raw distorted 640x480")
	{
		jd_scene_init(&s, 640, 480, 500, 25, 90, 750);
		s.k1 = -0.25;
		s.k2 = 0.07;
		s.n = 3;
		s.o[0] = cylinder(-110, 10, 30, 110);
		s.o[1] = box(30, -30, 40, 35, 80, 15);
		s.o[2] = box(150, 40, 35, 30, 60, -20);
		check(&s, "raw distorted 640x480", 64);
	}
	SCENE("boxes 640x480")
	{
		jd_scene_init(&s, 640, 480, 500, 25, 90, 750);
		s.n = 3;
		s.o[0] = box(-160, -40, 45, 40, 90, 20);
		s.o[1] = cylinder(40, 40, 35, 100);
		s.o[2] = box(200, -40, 30, 50, 50, -30);
		check(&s, "boxes 640x480", 64);
	}
	jd_workers_deinit(&wk);
	return jd_test_done("accuracy.sense_scenes");
}
