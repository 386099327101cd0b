/*
 * Calibrations that parse but cannot be this rig: checked once after loading, and against
 * the frames they are used on. Each refusal names the file, the key and the values.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "calib_yaml.h"

/* how far from a rotation a matrix may be: rounding in files written with 6 digits */
#define ROTATION_TOL 1e-3
/* a stereo rig's baseline, mm: below 1 mm or beyond 10 m is a unit or typing mistake */
#define BASELINE_MIN_MM 1.0
#define BASELINE_MAX_MM 10000.0

/* Where each camera's numbers came from: its file and the keys' names in it. */
struct names {
	const char *file[2];  /* R's and P's */
	const char *kfile[2]; /* K's */
	const char *K[2], *R[2], *P[2];
};

static void names_of(const struct jd_stereo_calib *c, const char *const *files, int nfiles,
		     struct names *n)
{
	static const char *const ros[3] = {"camera_matrix", "rectification_matrix",
					   "projection_matrix"};
	static const char *const cv[2][3] = {{"M1", "R1", "P1"}, {"M2", "R2", "P2"}};
	static const char *const kalibr[2][3] = {
	    {"cam0: intrinsics", "cam0 (rectified)", "cam0 (rectified)"},
	    {"cam1: intrinsics", "cam1: T_cn_cnm1", "cam1: T_cn_cnm1"}};

	for (int i = 0; i < 2; i++) {
		const char *const *k = c->format == JD_CALIB_ROS      ? ros
				       : c->format == JD_CALIB_KALIBR ? kalibr[i]
								      : cv[i];
		int fe = c->format == JD_CALIB_ROS ? i : c->extrinsics_file;
		int fi = c->format == JD_CALIB_ROS ? i : c->intrinsics_file;
		n->file[i] = files[fe < nfiles ? fe : 0];
		n->kfile[i] = files[fi < nfiles ? fi : 0];
		n->K[i] = k[0];
		n->R[i] = k[1];
		n->P[i] = k[2];
	}
}

/* 0 when R is a rotation: R R^T = I and det R = +1, within ROTATION_TOL. */
static int not_rotation(const double *R)
{
	double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
		     R[2] * (R[3] * R[7] - R[4] * R[6]);

	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++) {
			double d = R[i * 3] * R[j * 3] + R[i * 3 + 1] * R[j * 3 + 1] +
				   R[i * 3 + 2] * R[j * 3 + 2];
			if (!(fabs(d - (i == j)) <= ROTATION_TOL)) {
				return 1;
			}
		}
	}
	return !(fabs(det - 1) <= ROTATION_TOL);
}

#define FAIL(...)                                                                                  \
	do {                                                                                       \
		snprintf(err, errlen, __VA_ARGS__);                                                \
		return -EINVAL;                                                                    \
	} while (0)

static int check_rotation(const char *file, const char *key, const double *R, char *err,
			  size_t errlen)
{
	if (not_rotation(R)) {
		FAIL("%s: %s: not a rotation (rows must be orthonormal with determinant +1): "
		     "[%g %g %g; %g %g %g; %g %g %g]",
		     file, key, R[0], R[1], R[2], R[3], R[4], R[5], R[6], R[7], R[8]);
	}
	return 0;
}

/*
 * The matchers search along image rows, so the cameras must sit side by side: a rig whose
 * translation runs mostly along y (one camera above the other) or z would rectify turned
 * or not at all. Stereo rigs have |T_x| within a few degrees of |T|.
 */
#define ALONG_X_MIN 0.9

static int along_rows(const double *T, const char *file, char *err, size_t errlen)
{
	double n = sqrt(T[0] * T[0] + T[1] * T[1] + T[2] * T[2]);

	if (fabs(T[0]) < ALONG_X_MIN * n) {
		const char *axis = fabs(T[1]) >= fabs(T[2]) ? "y: one camera above the other"
							    : "z: one camera in front of the other";
		FAIL("%s: T: (%g, %g, %g) runs mostly along %s; the matchers search along image "
		     "rows, so the cameras must sit side by side (along x)",
		     file, T[0], T[1], T[2], axis);
	}
	return 0;
}

/* P2's baseline and T's length must agree (rectification keeps |T|): else one is wrong. */
#define BASELINE_AGREE 0.02

static int baseline_contradicts(const struct jd_stereo_calib *c, double b, const char *file,
				char *err, size_t errlen)
{
	double t = sqrt(c->T[0] * c->T[0] + c->T[1] * c->T[1] + c->T[2] * c->T[2]);

	if (fabs(fabs(b) - t) > BASELINE_AGREE * t) {
		FAIL(
		    "%s: P2 and T disagree: P2 gives a baseline of %g (-P2[0][3] / P2[0][0]) but T "
		    "is %g long; one of them is from another calibration or another unit",
		    file, fabs(b), t);
	}
	return 0;
}

int jd_calib_validate(const struct jd_stereo_calib *c, const char *const *files, int nfiles,
		      char *err, size_t errlen)
{
	struct names n;
	const struct jd_calib_camera *l = &c->cam[0], *r = &c->cam[1];

	names_of(c, files, nfiles, &n);
	if (l->width && r->width && (l->width != r->width || l->height != r->height)) {
		FAIL("%s is for %dx%d images but %s for %dx%d: both cameras must have one size",
		     n.file[0], l->width, l->height, n.file[1], r->width, r->height);
	}
	const char *rt_file = files[c->extrinsics_file < nfiles ? c->extrinsics_file : 0];
	const char *rname = c->format == JD_CALIB_KALIBR ? "cam1: T_cn_cnm1" : "R";
	if (c->have_rt) {
		if (check_rotation(rt_file, rname, c->R, err, errlen)) {
			return -EINVAL;
		}
		if (along_rows(c->T, rt_file, err, errlen)) {
			return -EINVAL;
		}
		if (c->T[0] > 0) {
			FAIL("%s: T: T[0] = %g > 0 puts the right camera left of the left one: are "
			     "%s swapped?",
			     rt_file, c->T[0],
			     c->format == JD_CALIB_KALIBR ? "cam0 and cam1" : "M1/D1 and M2/D2");
		}
	}
	for (int i = 0; i < 2; i++) {
		const struct jd_calib_camera *k = &c->cam[i];
		const double *P = k->P;
		if (check_rotation(n.file[i], n.R[i], k->R, err, errlen)) {
			return -EINVAL;
		}
		if (!(P[0] > 0) || !(P[5] > 0)) {
			FAIL("%s: %s: focal lengths must be positive (P[0][0] %g, P[1][1] %g)",
			     n.file[i], n.P[i], P[0], P[5]);
		}
		if (k->width &&
		    (k->K[2] < 0 || k->K[2] > k->width || k->K[5] < 0 || k->K[5] > k->height)) {
			FAIL("%s: %s: principal point (%g, %g) outside the %dx%d image", n.kfile[i],
			     n.K[i], k->K[2], k->K[5], k->width, k->height);
		}
	}
	/* ROS: the left camera's P has Tx = 0, the right one's Tx = -f B < 0 */
	if (c->format == JD_CALIB_ROS && l->P[3] != 0) {
		FAIL(
		    "%s: projection_matrix: Tx = P[0][3] = %g, the left camera's is 0: is this the "
		    "right camera's file? (give the left camera's file first)",
		    files[0], l->P[3]);
	}
	if (r->P[3] > 0) {
		FAIL("%s: %s: Tx = P[0][3] = %g > 0: is this the left camera's file? (the right "
		     "camera's Tx is -f * baseline, negative)",
		     n.file[1], n.P[1], r->P[3]);
	}
	double f, cx, cy, b, units;
	jd_calib_model(c, &f, &cx, &cy, &b, &units);
	if (!(fabs(b) > 0) || !isfinite(b)) {
		FAIL("%s: the baseline is zero (the right projection's P[0][3] must be -f * B)",
		     n.file[1]);
	}
	if (units == 0) {
		FAIL("%s: %s: baseline %g in the file's unit, which it does not state: %g mm, or "
		     "%g mm if centimetres; add a line \"units: mm\" (or cm, m) to the file",
		     n.file[1], n.P[1], b, b, b * 10);
	}
	if (c->have_rt && baseline_contradicts(c, b, rt_file, err, errlen)) {
		return -EINVAL;
	}
	double mm = b * units; /* the sign was checked above */
	if (!(mm >= BASELINE_MIN_MM && mm <= BASELINE_MAX_MM)) {
		FAIL("%s: %s: baseline %g (%g mm): a stereo rig's is %g to %g mm", n.file[1],
		     n.P[1], b, mm, BASELINE_MIN_MM, BASELINE_MAX_MM);
	}
	return 0;
}

int jd_calib_fits(const struct jd_stereo_calib *c, const char *const *files, int nfiles, int w,
		  int h, char *err, size_t errlen)
{
	struct names n;

	names_of(c, files, nfiles, &n);
	for (int i = 0; i < 2; i++) {
		const struct jd_calib_camera *k = &c->cam[i];
		if (k->width && (k->width != w || k->height != h)) {
			FAIL("%s: the calibration is for %dx%d images, the frames are %dx%d: "
			     "calibrate at this size (or scale K and P)",
			     n.kfile[i], k->width, k->height, w, h);
		}
		/* a file without a size: its centres must at least lie in these frames */
		const double pts[2][2] = {{k->K[2], k->K[5]}, {k->P[2], k->P[6]}};
		for (int j = 0; j < 2; j++) {
			if (pts[j][0] < 0 || pts[j][0] > w || pts[j][1] < 0 || pts[j][1] > h) {
				FAIL("%s: %s: principal point (%g, %g) lies outside the %dx%d "
				     "frames: "
				     "is the calibration for another image size?",
				     j ? n.file[i] : n.kfile[i], j ? n.P[i] : n.K[i], pts[j][0],
				     pts[j][1], w, h);
			}
		}
	}
	return 0;
}
