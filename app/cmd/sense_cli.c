#include "sense_cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../formats/extrinsics.h"

enum {
	S_FOCAL,
	S_BASELINE,
	S_CX,
	S_CY,
	S_ROI,
	S_MIN_HEIGHT,
	S_MIN_AREA,
	S_FIXED,
	S_TOL,
	S_MIN_CONF,
	S_EXTRINSICS,
	S_MIN_AREA_MM2,
	S_N
};

static const char *const names[S_N] = {"focal",	    "baseline",	      "cx",	    "cy",
				       "roi",	    "min-height",     "min-area",   "fixed-disp",
				       "plane-tol", "min-confidence", "extrinsics", "min-area-mm2"};

const char jd_sense_cli_help[] =
    "sensing options:\n"
    "  --focal PX --baseline MM   the rectified camera (focal length in px, baseline in mm)\n"
    "  --cx PX --cy PX        principal point (default: the image centre)\n"
    "  --roi X0,Y0,X1,Y1      only this region (pixels, X1 and Y1 exclusive)\n"
    "  --min-height MM        object pixels stand this far above the table (default 15)\n"
    "  --min-area PX          smaller blobs are dropped (default 100)\n"
    "  --min-area-mm2 MM2     objects smaller where they stand are dropped (default 400:\n"
    "                         2 x 2 cm; its image area at its distance)\n"
    "  --plane-tol PX         table inliers lie this close to its plane, in disparity (1)\n"
    "  --fixed-disp D         the thesis's fixed threshold instead of a table plane:\n"
    "                         object pixels have a disparity above D\n"
    "  --min-confidence N     depth, point cloud and sensing keep pixels whose confidence\n"
    "                         (0..255, docs/accuracy.md) is at least N (default 32;\n"
    "                         0 keeps all)\n"
    "  --extrinsics FILE      the camera's pose in the robot's base frame (hand-eye\n"
    "                         calibration): a 4x4 matrix or x y z qx qy qz qw, metres\n"
    "                         (a line \"units: mm\" for millimetres); positions are then\n"
    "                         also reported in the base frame\n";
_Static_assert(JD_MIN_CONFIDENCE_DEFAULT == 32, "the help above states the default");

void jd_sense_cli_init(struct jd_sense_options *s)
{
	memset(s, 0, sizeof(*s));
	jd_sense_default(&s->sp);
	s->cam.cx = s->cam.cy = NAN;
	s->min_confidence = JD_MIN_CONFIDENCE_DEFAULT;
}

_Static_assert(S_N == JD_SENSE_CLI_NOPTS, "callers size their option tables with it");

void jd_sense_cli_options(struct option *opts, int max, int base)
{
	int n = 0;

	for (int k = 0; k < S_N && n < max - 1; k++) {
		opts[n++] = (struct option){names[k], required_argument, NULL, base + k};
	}
	opts[n] = (struct option){0};
}

/* 1 when arg is a number, its value in *out (no range checked) */
static int number_in(const char *arg, double *out)
{
	char *end;
	*out = strtod(arg, &end);
	return end != arg && !*end;
}

static int number(const char *opt, const char *arg, double lo, double hi, double *out)
{
	double v;

	if (!number_in(arg, &v) || !(v >= lo && v <= hi)) {
		fprintf(stderr, "jetdepth: --%s %s: must be a number from %g to %g\n", opt, arg, lo,
			hi);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int jd_sense_cli_parse(struct jd_sense_options *s, int k, const char *arg)
{
	double v;

	switch (k) {
	case S_ROI: {
		int *r = s->sp.roi;
		char extra;
		if (sscanf(arg, "%d,%d,%d,%d%c", &r[0], &r[1], &r[2], &r[3], &extra) != 4 ||
		    r[0] < 0 || r[1] < 0 || r[2] <= r[0] || r[3] <= r[1]) {
			fprintf(stderr,
				"jetdepth: --roi %s: expected X0,Y0,X1,Y1 with X0 < X1, "
				"Y0 < Y1\n",
				arg);
			return -EINVAL;
		}
		return 0;
	}
	case S_MIN_AREA:
		if (number(names[k], arg, 1, 1e8, &v)) {
			return -EINVAL;
		}
		s->sp.min_area_px = (int)v;
		return 0;
	case S_MIN_AREA_MM2:
		if (number(names[k], arg, 0, 1e8, &v)) {
			return -EINVAL;
		}
		s->sp.min_area_mm2 = (float)v;
		return 0;
	case S_MIN_CONF:
		return jd_cli_confidence("--min-confidence", arg, &s->min_confidence);
	case S_EXTRINSICS: {
		char err[700];
		if (jd_extrinsics_load(arg, s->base_from_camera, err, sizeof(err))) {
			fprintf(stderr, "jetdepth: %s\n", err);
			return -EINVAL;
		}
		s->have_extrinsics = 1;
		return 0;
	}
	}
	/* the baseline's range is the calibration files' (calib_check.c): a stereo rig's */
	static const double lim[S_N][2] = {{1, 1e6}, {1, 1e4}, {-1e5, 1e5}, {-1e5, 1e5}, {0, 0},
					   {0, 1e5}, {0, 0},   {0.01, 1e4}, {0.01, 100}};
	if (k == S_BASELINE && number_in(arg, &v) && v > 0 && v < 1) {
		fprintf(stderr,
			"jetdepth: --baseline %s: millimetres, 1 to 10000 (%s m is %g mm: "
			"give --baseline %g)\n",
			arg, arg, v * 1000, v * 1000);
		return -EINVAL;
	}
	if (number(names[k], arg, lim[k][0], lim[k][1], &v)) {
		return -EINVAL;
	}
	switch (k) {
	case S_FOCAL:
		s->cam.f = (float)v;
		s->have_focal = 1;
		break;
	case S_BASELINE:
		s->cam.baseline_mm = (float)v;
		s->have_baseline = 1;
		break;
	case S_CX:
		s->cam.cx = (float)v;
		break;
	case S_CY:
		s->cam.cy = (float)v;
		break;
	case S_MIN_HEIGHT:
		s->sp.min_height_mm = (float)v;
		break;
	case S_FIXED:
		s->sp.use_fixed = 1;
		s->sp.fixed_disp = (float)v;
		break;
	case S_TOL:
		s->sp.plane_tol = (float)v;
		break;
	}
	return 0;
}

int jd_sense_cli_model_alone(const struct jd_sense_options *s, const char *what)
{
	const char *given = s->have_focal	  ? "--focal"
			    : s->have_baseline	  ? "--baseline"
			    : isfinite(s->cam.cx) ? "--cx"
			    : isfinite(s->cam.cy) ? "--cy"
						  : NULL;

	if (!given || !what) {
		return 0;
	}
	fprintf(stderr,
		"jetdepth: %s with %s: %s gives the camera the frames are rectified for, and a "
		"second model would put every object at the wrong depth; leave out --focal, "
		"--baseline, --cx and --cy\n",
		given, what, what);
	return -EINVAL;
}

int jd_sense_cli_check(const struct jd_sense_options *s)
{
	if (!s->have_focal || !s->have_baseline) {
		fprintf(stderr,
			"jetdepth: sensing needs the camera: --focal PX and --baseline MM\n");
		return -EINVAL;
	}
	return 0;
}

int jd_sense_cli_fits(const struct jd_sense_options *s, int w, int h)
{
	const int *r = s->sp.roi;

	if ((r[2] || r[3]) && (r[2] > w || r[3] > h)) {
		fprintf(stderr, "jetdepth: --roi %d,%d,%d,%d: outside the %dx%d image\n", r[0],
			r[1], r[2], r[3], w, h);
		return -EINVAL;
	}
	/* the principal point inside the frames, as calibration files are held to */
	if (isfinite(s->cam.cx) && !(s->cam.cx >= 0 && s->cam.cx < w)) {
		fprintf(stderr, "jetdepth: --cx %g: outside the %dx%d image (0 to %d)\n",
			(double)s->cam.cx, w, h, w - 1);
		return -EINVAL;
	}
	if (isfinite(s->cam.cy) && !(s->cam.cy >= 0 && s->cam.cy < h)) {
		fprintf(stderr, "jetdepth: --cy %g: outside the %dx%d image (0 to %d)\n",
			(double)s->cam.cy, w, h, h - 1);
		return -EINVAL;
	}
	return 0;
}
