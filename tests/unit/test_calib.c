/*
 * Calibration files and rectification. A known rig (distortion, the right camera turned by a
 * small rotation, 60 mm baseline) is written in both formats: ROS camera_info (with R and P
 * from our own rectification) and OpenCV stereo (M1 D1 M2 D2 R T only, so rectification is
 * computed). For random 3D points the rectified rows of the two views agree within 0.5 px and
 * the maps send each rectified pixel to where the raw camera saw the point (within 0.5 px).
 * Broken files each give an error naming the file and the key.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "calib_yaml.h"
#include "jd_test.h"

enum { W = 640, H = 480 };

static char dir[] = "/tmp/jd_calib_XXXXXX";

static const char *path(const char *name)
{
	static char p[8][256];
	static int k;

	k = (k + 1) % 8;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static void list(FILE *f, const double *v, int n)
{
	fprintf(f, "[");
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s%.17g", i ? ", " : "", v[i]);
	}
	fprintf(f, "]");
}

static void cv_mat(FILE *f, const char *key, const double *v, int rows, int cols)
{
	fprintf(f, "%s: !!opencv-matrix\n   rows: %d\n   cols: %d\n   dt: d\n   data: ", key, rows,
		cols);
	list(f, v, rows * cols);
	fprintf(f, "\n");
}

static void ros_file(const char *p, const struct jd_calib_camera *c, const char *name)
{
	FILE *f = fopen(p, "w");

	fprintf(f, "image_width: %d\nimage_height: %d\ncamera_name: %s\n", W, H, name);
	fprintf(f, "camera_matrix:\n  rows: 3\n  cols: 3\n  data: ");
	list(f, c->K, 9);
	fprintf(f, "\ndistortion_model: plumb_bob\ndistortion_coefficients:\n  rows: 1\n  cols: "
		   "5\n  data: ");
	list(f, c->D, 5);
	fprintf(f, "\nrectification_matrix:\n  rows: 3\n  cols: 3\n  data: ");
	list(f, c->R, 9);
	fprintf(f, "\nprojection_matrix:\n  rows: 3\n  cols: 4\n  data: ");
	list(f, c->P, 12);
	fprintf(f, "\n");
	fclose(f);
}

/* Raw pixel of camera point X through K and D. */
static void project_raw(const struct jd_calib_camera *c, const double X[3], double *u, double *v)
{
	double x = X[0] / X[2], y = X[1] / X[2], r2 = x * x + y * y;
	const double *D = c->D, *K = c->K;
	double rad = 1 + D[0] * r2 + D[1] * r2 * r2 + D[4] * r2 * r2 * r2;
	double xd = x * rad + 2 * D[2] * x * y + D[3] * (r2 + 2 * x * x);
	double yd = y * rad + D[2] * (r2 + 2 * y * y) + 2 * D[3] * x * y;

	*u = K[0] * xd + K[1] * yd + K[2];
	*v = K[4] * yd + K[5];
}

static void rot(const double R[9], const double X[3], double out[3])
{
	for (int i = 0; i < 3; i++) {
		out[i] = R[i * 3] * X[0] + R[i * 3 + 1] * X[1] + R[i * 3 + 2] * X[2];
	}
}

/* Bilinear sample of a map at (u, v). */
static double sample(const float *m, double u, double v)
{
	int x = (int)u, y = (int)v;
	double fx = u - x, fy = v - y;
	const float *p = m + (size_t)y * W + x;

	return (1 - fy) * ((1 - fx) * p[0] + fx * p[1]) + fy * ((1 - fx) * p[W] + fx * p[W + 1]);
}

static void check_rig(const struct jd_stereo_calib *truth, const struct jd_stereo_calib *c,
		      const char *what)
{
	static float mx[2][W * H], my[2][W * H];
	double worst_row = 0, worst_map = 0;
	uint32_t s = 99;
	int n = 0;

	for (int i = 0; i < 2; i++) {
		jd_calib_map(c, i, W, H, mx[i], my[i]);
	}
	for (int k = 0; k < 2000; k++) {
		s = s * 1664525u + 1013904223u;
		double X[3] = {((s >> 8) % 1000 - 500.0), 0, 0};
		s = s * 1664525u + 1013904223u;
		X[1] = (s >> 8) % 800 - 400.0;
		s = s * 1664525u + 1013904223u;
		X[2] = 700 + (s >> 8) % 1500;
		double X2[3], r1[3], r2[3], uv[2][2];
		rot(truth->R, X, X2);
		for (int j = 0; j < 3; j++) {
			X2[j] += truth->T[j];
		}
		rot(c->cam[0].R, X, r1);
		rot(c->cam[1].R, X2, r2);
		const double *pts[2] = {r1, r2};
		int inside = 1;
		for (int i = 0; i < 2; i++) {
			const double *P = c->cam[i].P;
			uv[i][0] = P[0] * pts[i][0] / pts[i][2] + P[2];
			uv[i][1] = P[5] * pts[i][1] / pts[i][2] + P[6];
			inside &=
			    uv[i][0] > 1 && uv[i][0] < W - 2 && uv[i][1] > 1 && uv[i][1] < H - 2;
		}
		double ru[2], rv[2];
		project_raw(&truth->cam[0], X, &ru[0], &rv[0]);
		project_raw(&truth->cam[1], X2, &ru[1], &rv[1]);
		for (int i = 0; i < 2; i++) {
			inside &= ru[i] > 0 && ru[i] < W - 1 && rv[i] > 0 && rv[i] < H - 1;
		}
		if (!inside) {
			continue;
		}
		n++;
		worst_row = fmax(worst_row, fabs(uv[0][1] - uv[1][1]));
		for (int i = 0; i < 2; i++) {
			double du = sample(mx[i], uv[i][0], uv[i][1]) - ru[i];
			double dv = sample(my[i], uv[i][0], uv[i][1]) - rv[i];
			worst_map = fmax(worst_map, sqrt(du * du + dv * dv));
		}
	}
	printf("%s: %d points seen by both: rows differ by at most %.4f px, maps off by at most "
	       "%.4f px\n",
	       what, n, worst_row, worst_map);
	JD_CHECK(n > 500, "%s: %d points in view", what, n);
	JD_CHECK(worst_row < 0.5, "%s: rectified rows differ by %.3f px", what, worst_row);
	JD_CHECK(worst_map < 0.5, "%s: maps off by %.3f px", what, worst_map);
}

static void expect_error(const char *text, const char *needle)
{
	struct jd_stereo_calib c;
	char err[600];
	const char *p = path("bad.yaml");
	FILE *f = fopen(p, "w");

	fputs(text, f);
	fclose(f);
	const char *files[1] = {p};
	int rc = jd_calib_load(files, 1, &c, err, sizeof(err));
	JD_CHECK(rc < 0 && strstr(err, needle) && strstr(err, "bad.yaml"), "error '%s' lacks '%s'",
		 err, needle);
}

int main(void)
{
	struct jd_stereo_calib truth = {0}, c;
	char err[600];

	JD_CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	/* The rig: barrel distortion, decentred a little; the right camera 60 mm to the right,
	 * turned by about a degree. */
	const double K0[9] = {500, 0, 322, 0, 502, 238, 0, 0, 1},
		     K1[9] = {505, 0, 318, 0, 504, 243, 0, 0, 1};
	const double D0[5] = {-0.12, 0.03, 0.001, -0.0008, 0},
		     D1[5] = {-0.1, 0.02, -0.0005, 0.001, 0};
	const double om[3] = {0.01, -0.015, 0.004};
	memcpy(truth.cam[0].K, K0, sizeof(K0));
	memcpy(truth.cam[1].K, K1, sizeof(K1));
	memcpy(truth.cam[0].D, D0, sizeof(D0));
	memcpy(truth.cam[1].D, D1, sizeof(D1));
	jd_rodrigues(om, truth.R);
	truth.T[0] = -60;
	truth.T[1] = 0.8;
	truth.T[2] = -0.5;
	truth.have_rt = 1;
	double back[3], Rb[9];
	jd_rodrigues_inv(truth.R, back);
	JD_CHECK(fabs(back[0] - om[0]) < 1e-12 && fabs(back[2] - om[2]) < 1e-12,
		 "rodrigues round trip");
	jd_rodrigues(back, Rb);

	/* OpenCV, without R1 R2 P1 P2: we rectify. */
	FILE *f = fopen(path("stereo.yaml"), "w");
	fprintf(f, "%%YAML:1.0\n---\n");
	cv_mat(f, "M1", K0, 3, 3);
	cv_mat(f, "D1", D0, 1, 5);
	cv_mat(f, "M2", K1, 3, 3);
	cv_mat(f, "D2", D1, 1, 5);
	cv_mat(f, "R", truth.R, 3, 3);
	cv_mat(f, "T", truth.T, 3, 1);
	fclose(f);
	const char *one[1] = {path("stereo.yaml")};
	JD_CHECK(jd_calib_load(one, 1, &c, err, sizeof(err)) == 0, "opencv: %s", err);
	double fl, cx, cy, b, units;
	jd_calib_model(&c, &fl, &cx, &cy, &b, &units);
	JD_CHECK(fabs(b - 60.0) < 0.1 && units == 1 && fabs(fl - 502) < 1e-9,
		 "opencv: baseline %.3f (mm), f %.1f", b, fl);
	check_rig(&truth, &c, "OpenCV M1 D1 M2 D2 R T");

	/* ROS camera_info, R and P as camera_calibration writes them (from the same rig). */
	ros_file(path("left.yaml"), &c.cam[0], "left");
	ros_file(path("right.yaml"), &c.cam[1], "right");
	const char *two[2] = {path("left.yaml"), path("right.yaml")};
	struct jd_stereo_calib ros;
	JD_CHECK(jd_calib_load(two, 2, &ros, err, sizeof(err)) == 0, "ros: %s", err);
	JD_CHECK(ros.cam[0].width == W && ros.cam[1].height == H, "image size read");
	JD_CHECK(!memcmp(ros.cam[1].P, c.cam[1].P, sizeof(c.cam[1].P)), "P read exactly");
	check_rig(&truth, &ros, "ROS camera_info");
	/* A ROS pair in metres: the baseline in mm is 1000 x. */
	ros.cam[1].P[3] /= 1000.0;
	jd_calib_model(&ros, &fl, &cx, &cy, &b, &units);
	JD_CHECK(units == 1000 && fabs(b * units - 60.0) < 0.1, "metres: %g x %g", b, units);

	/* Broken files: the file, the line where known, and the key. */
	expect_error("M1: !!opencv-matrix\n   rows: 3\n   cols: 3\n   dt: d\n   data: [1, 2]\n",
		     "M1: 2 values, expected 9");
	expect_error("%YAML:1.0\nM1: [500, 0, 320, 0, 500, 240, 0, 0, 1]\n", "D1: missing");
	expect_error("M1: {rows: 3, cols: 3, data: [500, 0, 320, 0, 500, 240, 0, 0, nan]}\n",
		     "M1[8]: 'nan' is not a finite number");
	expect_error("M1: {rows: 3, cols: 3, data: [-5, 0, 320, 0, 500, 240, 0, 0, 1]}\n"
		     "D1: [0, 0, 0, 0, 0]\n",
		     "focal lengths must be positive");
	expect_error("M1: [500, 0, 320\n", "not valid YAML");
	expect_error("- just\n- a list\n", "not a YAML mapping");
	expect_error("M1: [500, 0, 320, 0, 500, 240, 0, 0, 1]\nD1: [0, 0, 0, 0, 0]\n"
		     "M2: [500, 0, 320, 0, 500, 240, 0, 0, 1]\nD2: [0, 0, 0, 0, 0]\n"
		     "R: [1, 0, 0, 0, 1, 0, 0, 0, 1]\nT: [0, 0, 0]\n",
		     "T: the baseline is zero");
	/* ROS: zero baseline, other distortion model. */
	struct jd_calib_camera z = c.cam[1];
	z.P[3] = 0;
	ros_file(path("right0.yaml"), &z, "right");
	const char *zero[2] = {path("left.yaml"), path("right0.yaml")};
	JD_CHECK(jd_calib_load(zero, 2, &ros, err, sizeof(err)) == -EINVAL &&
		     strstr(err, "right0.yaml: the baseline is zero"),
		 "zero baseline: %s", err);
	const char *missing[2] = {path("left.yaml"), path("nope.yaml")};
	JD_CHECK(jd_calib_load(missing, 2, &ros, err, sizeof(err)) == -ENOENT &&
		     strstr(err, "nope.yaml"),
		 "missing file: %s", err);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	JD_CHECK(system(cmd) == 0, "cleanup");
	return jd_test_done("unit.calib");
}
