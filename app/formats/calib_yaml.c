/*
 * The calibration formats (calib_yaml.h): which one a set of files is, and each one's keys
 * into struct jd_stereo_calib. The documents, lookups and shared checks are calib_doc.c's.
 */
#include "calib_yaml.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "calib_doc.h"

static int check_camera(struct doc *x, const struct jd_calib_camera *c, const char *kname)
{
	if (!(c->K[0] > 0) || !(c->K[4] > 0)) {
		FAIL("%s: %s: focal lengths must be positive (fx %g, fy %g)", x->path, kname,
		     c->K[0], c->K[4]);
	}
	if (c->have_rect && !(c->P[0] > 0)) {
		FAIL("%s: projection: focal length must be positive (%g)", x->path, c->P[0]);
	}
	return 0;
}

/* key's distortion numbers into c->D, one of the counts in allowed[] (0-ended). */
static int distortion(struct doc *x, yaml_node_t *map, const char *key, const int *allowed,
		      const char *model, struct jd_calib_camera *c)
{
	int n = jd__calib_vector(x, map, key, c->D, JD_DIST_MAX);

	if (n < 0) {
		return n;
	}
	for (int i = 0; allowed[i] >= 0; i++) {
		if (n == allowed[i]) {
			c->ndist = n;
			return 0;
		}
	}
	char counts[64] = "";
	for (int i = 0; allowed[i] >= 0; i++) {
		size_t k = strlen(counts);
		snprintf(counts + k, sizeof(counts) - k, "%s%d", i ? ", " : "", allowed[i]);
	}
	FAIL("%s:%zu: %s: %d numbers; %s takes %s", x->path,
	     jd__calib_get(x, map, key)->start_mark.line + 1, key, n, model, counts);
}

/* A scalar's text, or "" (for comparisons). */
static const char *text_of(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : "";
}

/* One ROS camera_info file (what camera_calibration writes). */
static int load_ros(struct doc *x, struct jd_calib_camera *c, double *unit_mm)
{
	yaml_node_t *root = yaml_document_get_root_node(&x->d), *n;
	static const char *const known[] = {"image_width",
					    "image_height",
					    "camera_name",
					    "camera_matrix",
					    "distortion_model",
					    "distortion_coefficients",
					    "rectification_matrix",
					    "projection_matrix",
					    "units",
					    "binning_x",
					    "binning_y",
					    NULL};
	static const int plumb_bob[] = {0, 4, 5, -1}, rational[] = {0, 8, -1}, equi[] = {0, 4, -1};

	memset(c, 0, sizeof(*c));
	if (jd__calib_misspelt(x, root, known) || jd__calib_units(x, unit_mm) ||
	    jd__calib_stated_size(x, &c->width, &c->height)) {
		return -EINVAL;
	}
	const int *allowed = plumb_bob;
	const char *model = "plumb_bob";
	if ((n = jd__calib_get(x, root, "distortion_model"))) {
		model = text_of(n);
		if (!strcmp(model, "rational_polynomial")) {
			allowed = rational;
		} else if (!strcmp(model, "equidistant")) {
			allowed = equi;
			c->model = JD_DIST_FISHEYE;
		} else if (strcmp(model, "plumb_bob")) {
			FAIL("%s:%zu: distortion_model: '%s': expected plumb_bob, "
			     "rational_polynomial or equidistant",
			     x->path, n->start_mark.line + 1, model);
		}
	}
	if (jd__calib_matrix(x, root, "camera_matrix", c->K, 9, 0) ||
	    jd__calib_matrix(x, root, "rectification_matrix", c->R, 9, 0) ||
	    jd__calib_matrix(x, root, "projection_matrix", c->P, 12, 0) ||
	    distortion(x, root, "distortion_coefficients", allowed, model, c)) {
		return -EINVAL;
	}
	c->have_rect = 1;
	return check_camera(x, c, "camera_matrix");
}

/* The document of xs[0..n) whose root holds key (xs[0] when none: its "missing" is said). */
static struct doc *holder(struct doc *xs, int n, const char *key)
{
	for (int i = 0; i < n; i++) {
		if (jd__calib_root(&xs[i], key)) {
			return &xs[i];
		}
	}
	return &xs[0];
}

/*
 * OpenCV's stereo calibration: M1 D1 M2 D2 R T, and R1 R2 P1 P2 when stereoRectify was run,
 * in one file or split as OpenCV's stereo sample writes them (intrinsics.yml with M1 D1 M2
 * D2, extrinsics.yml with R T R1 R2 P1 P2 Q), YAML or XML.
 */
static int load_opencv(struct doc *xs, int nx, struct jd_stereo_calib *s)
{
	static const char *const keys[2][4] = {{"M1", "D1", "R1", "P1"}, {"M2", "D2", "R2", "P2"}};
	static const char *const known[] = {"M1",
					    "D1",
					    "M2",
					    "D2",
					    "R",
					    "T",
					    "R1",
					    "R2",
					    "P1",
					    "P2",
					    "Q",
					    "E",
					    "F",
					    "image_width",
					    "image_height",
					    "imageSize",
					    "image_size",
					    "units",
					    "distortion_model",
					    NULL};
	static const int counts[] = {4, 5, 8, 12, 14, -1}, four[] = {4, -1};
	int have_rect = 1, w = 0, h = 0;
	struct doc *x;
	/*
	 * Which of OpenCV's models: the file may say (distortion_model: fisheye or equidistant,
	 * plumb_bob, radtan or rational_polynomial); else 4 coefficients could be either the
	 * standard model's k1 k2 p1 p2 or the fisheye's k1 k2 k3 k4 (cv2.fisheye writes 4, the
	 * standard calibration 5 or more), and are refused with both readings named.
	 */
	int stated = -1; /* -1 unsaid, else enum jd_dist_model */
	x = holder(xs, nx, "distortion_model");
	yaml_node_t *dm = jd__calib_get(x, yaml_document_get_root_node(&x->d), "distortion_model");
	if (dm) {
		const char *m = text_of(dm);
		if (!strcmp(m, "fisheye") || !strcmp(m, "equidistant")) {
			stated = JD_DIST_FISHEYE;
		} else if (!strcmp(m, "plumb_bob") || !strcmp(m, "radtan") ||
			   !strcmp(m, "rational_polynomial")) {
			stated = JD_DIST_RADTAN;
		} else {
			FAIL("%s:%zu: distortion_model: '%s': expected fisheye (equidistant), "
			     "plumb_bob, radtan or rational_polynomial",
			     x->path, dm->start_mark.line + 1, m);
		}
	}

	for (int i = 0; i < nx; i++) {
		x = &xs[i];
		if (jd__calib_misspelt(x, yaml_document_get_root_node(&x->d), known) ||
		    jd__calib_units(x, &s->unit_mm) || jd__calib_stated_size(x, &w, &h)) {
			return -EINVAL;
		}
	}
	s->format = JD_CALIB_OPENCV;
	s->intrinsics_file = (int)(holder(xs, nx, "M1") - xs);
	s->extrinsics_file = (int)(holder(xs, nx, "T") - xs);
	for (int i = 0; i < 2; i++) {
		struct jd_calib_camera *c = &s->cam[i];
		c->width = w;
		c->height = h;
		x = holder(xs, nx, keys[i][0]);
		yaml_node_t *root = yaml_document_get_root_node(&x->d);
		if (jd__calib_matrix(x, root, keys[i][0], c->K, 9, 0)) {
			return -EINVAL;
		}
		x = holder(xs, nx, keys[i][1]);
		root = yaml_document_get_root_node(&x->d);
		if (!jd__calib_get(x, root, keys[i][1])) {
			FAIL("%s: %s: missing", x->path, keys[i][1]);
		}
		if (distortion(x, root, keys[i][1], stated == JD_DIST_FISHEYE ? four : counts,
			       stated == JD_DIST_FISHEYE ? "the fisheye model" : "OpenCV's model",
			       c)) {
			return -EINVAL;
		}
		c->model = stated == JD_DIST_FISHEYE ? JD_DIST_FISHEYE : JD_DIST_RADTAN;
		if (stated < 0 && c->ndist == 4) {
			FAIL(
			    "%s:%zu: %s: 4 coefficients could be OpenCV's standard model (k1 k2 p1 "
			    "p2) or its fisheye model (k1 k2 k3 k4), whose maps differ: add a line "
			    "\"distortion_model: fisheye\" or \"distortion_model: plumb_bob\"",
			    x->path, jd__calib_get(x, root, keys[i][1])->start_mark.line + 1,
			    keys[i][1]);
		}
		x = holder(xs, nx, keys[i][3]);
		root = yaml_document_get_root_node(&x->d);
		int a = jd__calib_matrix(x, root, keys[i][2], c->R, 9, 1),
		    b = jd__calib_matrix(x, root, keys[i][3], c->P, 12, 1);
		if (a < 0 || b < 0) {
			return -EINVAL;
		}
		have_rect &= a == 0 && b == 0;
		if (check_camera(x, c, keys[i][0])) {
			return -EINVAL;
		}
	}
	x = holder(xs, nx, "R");
	yaml_node_t *root = yaml_document_get_root_node(&x->d);
	int r9 = jd__calib_matrix(x, root, "R", s->R, 9, 1);
	if (r9 == 1) {
		FAIL("%s: R: missing", x->path);
	}
	if (r9 < 0) {
		/* a rotation vector (3x1) instead of a matrix */
		double v[3];
		snprintf(x->err, x->errlen, "%s", "");
		if (jd__calib_matrix(x, root, "R", v, 3, 0)) {
			FAIL("%s: R: expected a 3x3 matrix or a 3x1 rotation vector", x->path);
		}
		jd_rodrigues(v, s->R);
	}
	x = holder(xs, nx, "T");
	if (jd__calib_matrix(x, yaml_document_get_root_node(&x->d), "T", s->T, 3, 0)) {
		return -EINVAL;
	}
	if (s->T[0] == 0 && s->T[1] == 0 && s->T[2] == 0) {
		FAIL("%s: T: the baseline is zero (T = 0, 0, 0)", x->path);
	}
	s->have_rt = 1;
	for (int i = 0; i < 2; i++) {
		s->cam[i].have_rect = have_rect;
	}
	return 0;
}

/* cam1's T_cn_cnm1: a 4x4 list of rows, cam0 to cam1 (X1 = R X0 + T), metres. */
static int kalibr_pose(struct doc *x, yaml_node_t *cam, struct jd_stereo_calib *s)
{
	yaml_node_t *t = jd__calib_get(x, cam, "T_cn_cnm1");
	double m[16];

	if (!t) {
		FAIL("%s: cam1: T_cn_cnm1: missing (the pose of cam1 from cam0)", x->path);
	}
	long rows = t->type == YAML_SEQUENCE_NODE
			? t->data.sequence.items.top - t->data.sequence.items.start
			: 0;
	for (long i = 0; i < rows && rows == 4; i++) {
		yaml_node_t *r = yaml_document_get_node(&x->d, t->data.sequence.items.start[i]);
		long n = r && r->type == YAML_SEQUENCE_NODE
			     ? r->data.sequence.items.top - r->data.sequence.items.start
			     : 0;
		for (long j = 0; j < n && n == 4; j++) {
			char what[40];
			snprintf(what, sizeof(what), "T_cn_cnm1[%ld][%ld]", i, j);
			if (jd__calib_number(
				x, yaml_document_get_node(&x->d, r->data.sequence.items.start[j]),
				what, &m[i * 4 + j])) {
				return -EINVAL;
			}
		}
		if (n != 4) {
			rows = 0;
		}
	}
	if (rows != 4) {
		FAIL("%s:%zu: cam1: T_cn_cnm1: expected 4 rows of 4 numbers", x->path,
		     t->start_mark.line + 1);
	}
	for (int i = 0; i < 3; i++) {
		memcpy(&s->R[i * 3], &m[i * 4], 3 * sizeof(double));
		s->T[i] = m[i * 4 + 3];
	}
	if (s->T[0] == 0 && s->T[1] == 0 && s->T[2] == 0) {
		FAIL("%s: cam1: T_cn_cnm1: the baseline is zero", x->path);
	}
	s->have_rt = 1;
	s->unit_mm = 1000; /* Kalibr works in metres */
	return 0;
}

/* Kalibr's camchain.yaml: cam0 and cam1, pinhole with radtan or equidistant distortion. */
static int load_kalibr(struct doc *x, struct jd_stereo_calib *s)
{
	static const char *const known[] = {"camera_model",	 "intrinsics", "distortion_model",
					    "distortion_coeffs", "resolution", "rostopic",
					    "cam_overlaps",	 "T_cam_imu",  "T_cn_cnm1",
					    "timeshift_cam_imu", "line_delay", NULL};
	static const int four[] = {0, 4, -1};
	yaml_node_t *root = yaml_document_get_root_node(&x->d);

	s->format = JD_CALIB_KALIBR;
	for (int i = 0; i < 2; i++) {
		const char *name = i ? "cam1" : "cam0";
		yaml_node_t *cam = jd__calib_get(x, root, name);
		struct jd_calib_camera *c = &s->cam[i];
		double v[4];

		if (!cam || cam->type != YAML_MAPPING_NODE) {
			FAIL("%s: %s: missing, or not a mapping of keys", x->path, name);
		}
		if (jd__calib_misspelt(x, cam, known)) {
			return -EINVAL;
		}
		yaml_node_t *m = jd__calib_get(x, cam, "camera_model");
		if (m && strcmp(text_of(m), "pinhole")) {
			FAIL("%s:%zu: %s: camera_model: '%s': only pinhole is supported", x->path,
			     m->start_mark.line + 1, name, text_of(m));
		}
		if (jd__calib_matrix(x, cam, "intrinsics", v, 4, 0)) {
			return -EINVAL;
		}
		double K[9] = {v[0], 0, v[2], 0, v[1], v[3], 0, 0, 1};
		memcpy(c->K, K, sizeof(K));
		yaml_node_t *dm = jd__calib_get(x, cam, "distortion_model");
		const char *model = dm ? text_of(dm) : "none";
		if (!strcmp(model, "equidistant")) {
			c->model = JD_DIST_FISHEYE;
		} else if (strcmp(model, "radtan") && strcmp(model, "none")) {
			FAIL("%s:%zu: %s: distortion_model: '%s': expected radtan, equidistant or "
			     "none",
			     x->path, dm->start_mark.line + 1, name, model);
		}
		if (distortion(x, cam, "distortion_coeffs", four, model, c)) {
			return -EINVAL;
		}
		if (jd__calib_get(x, cam, "resolution")) {
			if (jd__calib_matrix(x, cam, "resolution", v, 2, 0)) {
				return -EINVAL;
			}
			if (!(v[0] >= 1 && v[0] <= 65536 && v[1] >= 1 && v[1] <= 65536)) {
				FAIL("%s: %s: resolution: %g x %g: expected [width, height] in "
				     "pixels",
				     x->path, name, v[0], v[1]);
			}
			c->width = (int)v[0];
			c->height = (int)v[1];
		}
		if (check_camera(x, c, "intrinsics")) {
			return -EINVAL;
		}
		if (i && kalibr_pose(x, cam, s)) {
			return -EINVAL;
		}
	}
	return 0;
}

int jd_calib_load(const char *const *files, int nfiles, struct jd_stereo_calib *c, char *err,
		  size_t errlen)
{
	struct doc xs[2] = {{.path = files[0], .err = err, .errlen = errlen},
			    {.path = nfiles > 1 ? files[1] : NULL, .err = err, .errlen = errlen}};
	int rc = 0;

	memset(c, 0, sizeof(*c));
	if (nfiles < 1 || nfiles > 2) {
		snprintf(err, errlen,
			 "calibration: one OpenCV stereo file or Kalibr camchain, or "
			 "two files: ROS camera_info (left, right) or OpenCV's "
			 "intrinsics and extrinsics");
		return -EINVAL;
	}
	for (int i = 0; i < nfiles && !rc; i++) {
		if (!files[i][0]) {
			snprintf(err, errlen, "a calibration file named '' (empty)");
			rc = -EINVAL;
		} else {
			rc = jd__calib_doc_load(&xs[i]);
		}
	}
	if (!rc && nfiles == 2 && jd__calib_root(&xs[0], "camera_matrix")) {
		c->format = JD_CALIB_ROS;
		c->extrinsics_file = 1;
		for (int i = 0; i < 2 && !rc; i++) {
			rc = load_ros(&xs[i], &c->cam[i], &c->unit_mm);
		}
	} else if (!rc && nfiles == 1 && jd__calib_root(&xs[0], "cam0")) {
		rc = load_kalibr(&xs[0], c);
	} else if (!rc) {
		rc = load_opencv(xs, nfiles, c);
	}
	for (int i = 0; i < nfiles; i++) {
		jd__calib_doc_free(&xs[i]);
	}
	if (!rc && jd_calib_rectify(c)) {
		snprintf(err, errlen,
			 "%s: no rectification (R1 R2 P1 P2) and no R, T to compute it", files[0]);
		rc = -EINVAL;
	}
	return rc ? rc : jd_calib_validate(c, files, nfiles, err, errlen);
}
