/*
 * jetdepth calib check FILES...: read a stereo calibration (two ROS camera_info files or one
 * OpenCV stereo file), check it, and print what it means for matching: the rectified focal
 * length, principal points, baseline, the region of the rectified view both cameras cover,
 * and the disparity range a depth range needs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../formats/calib_yaml.h"
#include "../formats/image_io.h"
#include "../../algo/match/jd_params.h"
#include "cli.h"
#include "commands.h"
#include "../loop/rectifier.h"

static void help(FILE *f)
{
	fprintf(
	    f,
	    "usage: jetdepth calib check LEFT.yaml RIGHT.yaml | STEREO.yaml [--size WxH] "
	    "[--depth MIN,MAX] [--maps PREFIX]\n\n"
	    "Reads and checks a stereo calibration: two ROS camera_info files (left, right;\n"
	    "plumb_bob, rational_polynomial or equidistant), one OpenCV stereo file (M1 D1\n"
	    "M2 D2 R T, with R1 R2 P1 P2 when present; 4, 5, 8, 12 or 14 coefficients; YAML\n"
	    "or XML) or OpenCV's two (intrinsics, extrinsics), or a Kalibr camchain.yaml\n"
	    "(pinhole, radtan or equidistant). A file may state its length unit with a line\n"
	    "\"units: mm\" (cm, m); without one a baseline from 1 to 25 is refused as unclear.\n"
	    "Prints the rectified focal length, principal points, baseline, the region of\n"
	    "the rectified view that both cameras see, and the --ndisp/--min-disp that a\n"
	    "depth range needs (default 300 to 3000 mm).\n\n"
	    "  --size WxH        image size (default: the files' image_width/height)\n"
	    "  --depth MIN,MAX   the working depth range in mm\n"
	    "  --maps PREFIX     write the rectify maps: PREFIX_{left,right}_{x,y}.pfm, for\n"
	    "                    each rectified pixel the raw pixel it comes from (+inf: none)\n");
}

/* --maps: each camera's rectify map as two gray PFMs (x and y), +inf where none. */
static int write_maps(const struct jd_stereo_calib *c, int w, int h, const char *prefix,
		      const char *const *files, int nfiles)
{
	size_t n = (size_t)w * h;
	float *mx = malloc(sizeof(float) * n), *my = malloc(sizeof(float) * n);
	char path[4][1100], err[1200];
	const char *out[4] = {path[0], path[1], path[2], path[3]};
	const char *out_what[4] = {"--maps", "--maps", "--maps", "--maps"};
	const char *in_what[2] = {"FILE", "FILE"};

	/* camera i's x and y maps are path[2 i] and path[2 i + 1]; none may be an input */
	for (int i = 0; i < 4; i++) {
		snprintf(path[i], sizeof(path[i]), "%s_%s_%c.pfm", prefix, i / 2 ? "right" : "left",
			 i % 2 ? 'y' : 'x');
	}
	int rc = jd_cli_outputs_not_inputs(out, out_what, 4, files, in_what, nfiles);
	for (int i = 0; i < 2 && mx && my && rc == JD_EXIT_OK; i++) {
		jd_calib_map(c, i, w, h, mx, my);
		for (int k = 0; k < 2 && rc == JD_EXIT_OK; k++) {
			float *m = k ? my : mx;
			for (size_t j = 0; j < n; j++) {
				m[j] = isfinite(m[j]) ? m[j] : INFINITY;
			}
			struct jd_disp d = {m, w, h, w};
			if (jd_pfm_write(path[2 * i + k], &d, err, sizeof(err))) {
				fprintf(stderr, "jetdepth: --maps: %s\n", err);
				rc = JD_EXIT_RUNTIME;
			}
		}
	}
	if (!mx || !my) {
		fprintf(stderr, "jetdepth: --maps: out of memory for %dx%d maps\n", w, h);
		rc = JD_EXIT_RUNTIME;
	}
	free(mx);
	free(my);
	return rc;
}

/*
 * The disparity range a depth range needs, in double (a tiny MIN gives a huge disparity), and
 * what jetdepth can search: --ndisp at most JD_NDISP_MAX, --min-disp + --ndisp at most the
 * width. Past that it says the nearest depth the search reaches instead of advising a range
 * that validation would refuse.
 */
static void depth_advice(double fb, double zmin, double zmax, int w)
{
	double dmin = floor(fb / zmax), dmax = ceil(fb / zmin);
	double top = fmin((double)w, dmin + JD_NDISP_MAX) - 1; /* the largest disparity searched */

	if (dmax <= top) {
		printf("  depth %.0f to %.0f mm: disparities %.0f to %.0f: --min-disp %.0f --ndisp "
		       "%.0f\n",
		       zmin, zmax, dmin, dmax, dmin, dmax - dmin + 1);
		return;
	}
	printf("  depth %g to %g mm: disparities %.0f to %.4g: more than jetdepth searches "
	       "(--ndisp at most %d, --min-disp + --ndisp at most the width %d); the nearest depth "
	       "it reaches is %.0f mm: --min-disp %.0f --ndisp %.0f, or raise --depth's MIN\n",
	       zmin, zmax, dmin, dmax, JD_NDISP_MAX, w, ceil(fb / top), dmin, top - dmin + 1);
}

int jd_cmd_calib(int argc, char **argv)
{
	const char *files[2], *maps = NULL;
	int nfiles = 0, w = 0, h = 0;
	double zmin = 300, zmax = 3000;
	struct jd_stereo_calib c;
	char err[600];

	if (argc < 2 || strcmp(argv[1], "check") != 0) {
		return jd_cli_help_or_usage(
		    argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")), help);
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			help(stdout);
			return JD_EXIT_OK;
		} else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
			if (jd_cli_size("--size", argv[++i], &w, &h)) {
				return JD_EXIT_USAGE;
			}
		} else if (!strcmp(argv[i], "--depth") && i + 1 < argc) {
			char extra;
			if (sscanf(argv[++i], "%lf,%lf%c", &zmin, &zmax, &extra) != 2 ||
			    !(zmin > 0) || !(zmax > zmin)) {
				fprintf(stderr,
					"jetdepth: --depth %s: expected MIN,MAX in mm with 0 < "
					"MIN < MAX\n",
					argv[i]);
				return JD_EXIT_USAGE;
			}
		} else if (!strcmp(argv[i], "--maps") && i + 1 < argc) {
			maps = argv[++i];
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "jetdepth calib check: unknown option '%s'\n", argv[i]);
			return JD_EXIT_USAGE;
		} else if (nfiles < 2) {
			files[nfiles++] = argv[i];
		} else {
			fprintf(stderr, "jetdepth calib check: one or two files, not more\n");
			return JD_EXIT_USAGE;
		}
	}
	if (nfiles == 0) {
		fprintf(stderr, "jetdepth calib check: which files? (see --help)\n");
		return JD_EXIT_USAGE;
	}
	if (jd_calib_load(files, nfiles, &c, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
		return JD_EXIT_RUNTIME;
	}
	if (w && jd_calib_fits(&c, files, nfiles, w, h, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
		return JD_EXIT_RUNTIME;
	}
	w = w ? w : c.cam[0].width;
	h = h ? h : c.cam[0].height;
	if (!w || !h) {
		fprintf(stderr, "jetdepth: %s does not give the image size: add --size WxH\n",
			files[0]);
		return JD_EXIT_USAGE;
	}
	double f, cx, cy, b, units;
	jd_calib_model(&c, &f, &cx, &cy, &b, &units);
	static const char *const formats[] = {"OpenCV stereo", "ROS camera_info",
					      "Kalibr camchain"};
	printf("%s: %s%s%s\n", formats[c.format], files[0], nfiles == 2 ? ", " : "",
	       nfiles == 2 ? files[1] : "");
	for (int i = 0; i < 2; i++) {
		const double *K = c.cam[i].K;
		printf("  %-5s raw: f %.2f x %.2f px, principal point (%.2f, %.2f), distortion %s:",
		       i ? "right" : "left", K[0], K[4], K[2], K[5],
		       jd_dist_name(c.cam[i].model, c.cam[i].ndist));
		for (int k = 0; k < c.cam[i].ndist; k++) {
			printf(" %.4g", c.cam[i].D[k]);
		}
		printf("%s\n", c.cam[i].ndist ? "" : " none");
	}
	static const char *const unit_names[] = {"", "mm", "cm", "m"};
	int u = units == 1 ? 1 : units == 10 ? 2 : 3;
	printf("  rectified: f %.2f px, principal point (%.2f, %.2f), baseline %.2f mm (the file's "
	       "unit: %s%s)\n",
	       f, cx, cy, b * units, unit_names[u],
	       c.unit_mm > 0 ? ", stated" : ", from the baseline");
	int roi[4];
	if (jd_rectified_valid_region(&c, w, h, roi)) {
		printf("  valid region (both cameras see every pixel): none at %dx%d\n", w, h);
	} else {
		printf(
		    "  valid region (both cameras see every pixel): x %d..%d, y %d..%d of %dx%d\n",
		    roi[0], roi[2] - 1, roi[1], roi[3] - 1, w, h);
	}
	if (fabs(c.doffs) >= JD_CALIB_DOFFS_PX) {
		printf(
		    "  right rectified principal point (%.2f, %.2f) in the file, %.2f px from the "
		    "left's: jetdepth rectifies the right view onto the left's, so disparity is f "
		    "B "
		    "/ Z (a pair rectified elsewhere with this file is off by %.2f px)\n",
		    c.cx_right_file, c.cy_right_file, c.doffs, c.doffs);
	}
	for (int i = 0; i < 2; i++) {
		if (c.cam[i].K[1] != 0) {
			printf("  %s camera matrix: skew K[0][1] = %g is left out of the maps, as "
			       "OpenCV's initUndistortRectifyMap does\n",
			       i ? "right" : "left", c.cam[i].K[1]);
		}
	}
	depth_advice(f * b * units, zmin, zmax, w);
	return maps ? write_maps(&c, w, h, maps, files, nfiles) : JD_EXIT_OK;
}
