/*
 * jetdepth sense: the whole chain once on a pair of image files: match, then the table and
 * the objects in mm, written as one JSON object (the daemon's per-frame report).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../algo/jd_status.h"
#include "../../algo/sense/sense.h"
#include "../../hal/clock.h"
#include "../loop/boot.h"
#include "cli.h"
#include "desk_confidence.h"
#include "commands.h"
#include "../formats/image_io.h"
#include "../formats/calib_yaml.h"
#include "../../algo/geometry/pair_check.h"
#include "../loop/rectifier.h"
#include "../formats/report.h"
#include "sense_cli.h"

enum {
	OPT_OUT = OPT_CMD_BASE,
	OPT_RECTIFIED,
	OPT_DISP,
	OPT_CALIB,
	OPT_HELP,
	OPT_NO_PAIR_CHECK,
	OPT_SENSE_BASE
};

static void help(FILE *f)
{
	fprintf(
	    f,
	    "usage: jetdepth sense LEFT RIGHT --calib LEFT.yaml --calib RIGHT.yaml [options] "
	    "-o objects.json\n"
	    "       jetdepth sense LEFT RIGHT --calib STEREO.yaml [options] -o objects.json\n"
	    "       jetdepth sense LEFT RIGHT --rectified --focal PX --baseline MM [options] "
	    "-o objects.json\n\n"
	    "Rectifies a raw stereo pair with its calibration (or takes a rectified one), "
	    "matches it, finds the table plane and the objects standing on "
	    "it,\nand writes them as JSON: the table (plane, normal, distance, tilt) and per "
	    "object\nid, area_px, bbox, centroid_px, median_disparity, centroid_mm [X, Y, Z] in "
	    "the left\ncamera's frame (x right, y down, z forward), distance_mm, height_mm above "
	    "the table,\nsize_mm.\n\n"
	    "  -o FILE         the JSON (- for stdout; written whole or not at all)\n"
	    "  --disp FILE     also the disparity map (.pfm or 16-bit .png)\n"
	    "  --calib FILE    the calibration: two ROS camera_info files (left, then right) or\n"
	    "                  one OpenCV stereo file (see jetdepth calib check)\n"
	    "  --rectified     the pair is already rectified (the calibration, if given, only\n"
	    "                  supplies the camera model)\n"
	    "  --no-pair-check skip the check that the pair is rectified and in left, right\n"
	    "                  order (refused otherwise: confident wrong objects are worse)\n"
	    "%s\n%s",
	    jd_sense_cli_help, jd_cli_matcher_help());
}

int jd_cmd_sense(int argc, char **argv)
{
	struct option cmd_opts[32] = {{"output", required_argument, NULL, OPT_OUT},
				      {"rectified", no_argument, NULL, OPT_RECTIFIED},
				      {"disp", required_argument, NULL, OPT_DISP},
				      {"calib", required_argument, NULL, OPT_CALIB},
				      {"help", no_argument, NULL, OPT_HELP},
				      {"no-pair-check", no_argument, NULL, OPT_NO_PAIR_CHECK}};
	struct jd_match_params p;
	struct jd_sense_options sc;
	struct jd_cli cli;
	const char *out = NULL, *disp_out = NULL, *calib_files[2];
	int ncalib = 0;
	static struct jd_stereo_calib calib;
	int threads = jd_workers_cpu_count(), opt, rectified = 0, pair_check = 1,
	    rc = JD_EXIT_RUNTIME;
	struct jd_image l = {0}, r = {0};
	static struct jd_engine engine;
	static struct jd_sense_result res;
	static char json[65536];
	char err[600];

	_Static_assert(6 + JD_SENSE_CLI_NOPTS + 1 <= 32, "cmd_opts holds the sensing options");
	jd_sense_cli_options(cmd_opts + 6, 32 - 6, OPT_SENSE_BASE);
	jd_sense_cli_init(&sc);
	jd_params_default(&p, JD_ALGO_SGM, 64);
	jd_cli_begin(&cli, argc, argv, "o:h", cmd_opts, &p, &threads);
	while ((opt = jd_cli_next(&cli)) != -1) {
		if (opt == JD_CLI_BAD) {
			return JD_EXIT_USAGE;
		} else if (opt == 'o' || opt == OPT_OUT) {
			out = optarg;
		} else if (opt == OPT_DISP) {
			disp_out = optarg;
		} else if (opt == OPT_RECTIFIED) {
			rectified = 1;
		} else if (opt == OPT_NO_PAIR_CHECK) {
			pair_check = 0;
		} else if (opt == OPT_CALIB) {
			if (ncalib == 2) {
				fprintf(stderr, "jetdepth sense: --calib: one or two files\n");
				return JD_EXIT_USAGE;
			}
			calib_files[ncalib++] = optarg;
		} else if (opt == 'h' || opt == OPT_HELP) {
			help(stdout);
			return JD_EXIT_OK;
		} else if (opt >= OPT_SENSE_BASE) {
			if (jd_sense_cli_parse(&sc, opt - OPT_SENSE_BASE, optarg)) {
				return JD_EXIT_USAGE;
			}
		} else {
			help(stderr);
			return JD_EXIT_USAGE;
		}
	}
	if (argc - optind != 2 || !out) {
		fprintf(stderr, "jetdepth sense: need LEFT RIGHT and -o OUT (see --help)\n");
		return JD_EXIT_USAGE;
	}
	const char *outs[2] = {strcmp(out, "-") ? out : NULL, disp_out};
	const char *opts[2] = {"-o", "--disp"};
	const char *ins[4] = {argv[optind], argv[optind + 1], ncalib > 0 ? calib_files[0] : NULL,
			      ncalib > 1 ? calib_files[1] : NULL};
	const char *in_what[4] = {"LEFT", "RIGHT", "--calib", "--calib"};
	if (jd_cli_distinct_outputs(outs, opts, 2) ||
	    jd_cli_outputs_not_inputs(outs, opts, 2, ins, in_what, 4)) {
		return JD_EXIT_USAGE;
	}
	if (!rectified && !ncalib) {
		fprintf(stderr,
			"jetdepth sense: a raw pair needs its calibration (--calib), or say "
			"--rectified\n");
		return JD_EXIT_USAGE;
	}
	if (ncalib && jd_sense_cli_model_alone(&sc, "--calib")) {
		return JD_EXIT_USAGE;
	}
	if (ncalib) {
		/* the camera model from the calibration */
		double f, cx, cy, b, units;
		if (jd_calib_load(calib_files, ncalib, &calib, err, sizeof(err))) {
			fprintf(stderr, "jetdepth: %s\n", err);
			return JD_EXIT_RUNTIME;
		}
		jd_calib_model(&calib, &f, &cx, &cy, &b, &units);
		if (rectified && fabs(calib.doffs) >= JD_CALIB_DOFFS_PX) {
			/* rectified elsewhere with the file's own P2: every disparity is off */
			fprintf(
			    stderr,
			    "jetdepth: sense --rectified: %s puts the right view's principal "
			    "point %.2f px from the left's (cx' %.2f): a pair rectified with it "
			    "has every disparity off by that; give the raw pair (jetdepth "
			    "rectifies both onto one principal point) or rectify with "
			    "CALIB_ZERO_DISPARITY\n",
			    calib_files[ncalib - 1], calib.doffs, calib.cx_right_file);
			return JD_EXIT_USAGE;
		}
		/* none given here: jd_sense_cli_model_alone() refused that above */
		sc.cam.f = (float)f;
		sc.cam.cx = (float)cx;
		sc.cam.cy = (float)cy;
		sc.cam.baseline_mm = (float)(b * units);
		sc.have_focal = sc.have_baseline = 1;
	}
	if (jd_sense_cli_check(&sc)) {
		return JD_EXIT_USAGE;
	}
	if (jd_pair_read(argv[optind], argv[optind + 1], &l, &r, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
		return JD_EXIT_RUNTIME;
	}
	if (ncalib &&
	    jd_calib_fits(&calib, calib_files, ncalib, l.width, l.height, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
		rc = JD_EXIT_RUNTIME;
		goto out;
	}
	if (ncalib && !rectified) {
		/* the raw pair through the calibration's undistort + rectify tables */
		size_t rb = jd_rectifier_mem_required(l.width, l.height);
		void *rmem = malloc(rb);
		struct jd_rectifier rect;
		struct jd_image rl = {malloc((size_t)l.width * l.height), l.width, l.height,
				      l.width};
		struct jd_image rr = {malloc((size_t)l.width * l.height), l.width, l.height,
				      l.width};
		if (!rmem || !rl.data || !rr.data ||
		    jd_rectifier_init(&rect, &calib, l.width, l.height, rmem, rb)) {
			fprintf(stderr, "jetdepth: sense: out of memory for rectification\n");
			free(rmem);
			free(rl.data);
			free(rr.data);
			rc = JD_EXIT_RUNTIME;
			goto out;
		}
		jd_rectifier_apply(&rect, NULL, &l, &r, &rl, &rr, NULL);
		free(rmem);
		free(l.data);
		free(r.data);
		l = rl;
		r = rr;
	}
	struct jd_camera_model cam = sc.cam;
	if (!(cam.cx == cam.cx)) {
		cam.cx = (float)(l.width - 1) / 2.0f;
	}
	if (!(cam.cy == cam.cy)) {
		cam.cy = (float)(l.height - 1) / 2.0f;
	}
	struct jd_pair_check pc;
	if (pair_check) {
		jd_pair_check(&l, &r, p.min_disp + p.ndisp, &pc);
		if (pc.verdict == JD_PAIR_SWAPPED || pc.verdict == JD_PAIR_UNRECTIFIED) {
			fprintf(
			    stderr,
			    "jetdepth: sense: %s: %s: of %d clearly matched patches %d lie at "
			    "negative disparity, %d at positive, %d rows apart (median %+d); %s "
			    "(--no-pair-check to match anyway)\n",
			    argv[optind], jd_pair_verdict_text(pc.verdict), pc.confident,
			    pc.negative, pc.positive, pc.off_row, pc.median_dy,
			    pc.verdict == JD_PAIR_SWAPPED
				? "give the left camera's image first"
				: (rectified ? "drop --rectified and give the calibration"
					     : "check the calibration belongs to these cameras"));
			rc = JD_EXIT_RUNTIME;
			goto out;
		}
	}
	if ((rc = jd_cli_validate(&p, l.width, l.height)) ||
	    jd_sense_cli_fits(&sc, l.width, l.height)) {
		rc = rc ? rc : JD_EXIT_USAGE;
		goto out;
	}
	rc = JD_EXIT_RUNTIME;
	struct jd_boot_config bc = {.p = &p, .w = l.width, .h = l.height, .threads = threads};
	if (jd_cli_boot_choices(&bc.choices) || jd_boot_init(&engine, &bc)) {
		goto out;
	}
	size_t wsb = jd_sense_mem_required(l.width, l.height);
	void *ws = malloc(wsb);
	memcpy(engine.left.data, l.data, (size_t)l.width * l.height);
	memcpy(engine.right.data, r.data, (size_t)r.width * r.height);
	uint64_t t0 = jd_clock_ns();
	int mrc = jd_engine_match(&engine, &p);
	uint64_t t1 = jd_clock_ns();
	if (!mrc && sc.min_confidence) {
		uint8_t *conf = NULL;
		struct jd_conf_search search = {p.min_disp, p.ndisp};
		mrc = jd_desk_confidence(&l, &r, &engine.disp, &search, sc.min_confidence,
					 &engine.workers.exec, &conf);
		free(conf);
	}
	int src = mrc || !ws ? -ENOMEM
			     : jd_sense_run(&sc.sp, &cam, &engine.disp, ws, wsb, &res,
					    &engine.workers.exec);
	uint64_t t2 = jd_clock_ns();
	struct jd_frame_report rep = {NULL,
				      NULL,
				      0,
				      0,
				      0.0,
				      0.0,
				      (double)(t1 - t0) / 1e6,
				      (double)(t2 - t1) / 1e6,
				      0.0, /* one pair: no frame before it to count CPU time from */
				      &res,
				      NULL,
				      sc.have_extrinsics ? sc.base_from_camera : NULL,
				      pair_check && pc.verdict == JD_PAIR_OK ? pc.dy_px : NAN,
				      0,
				      NULL, /* one pair from files: no daemon, no cameras */
				      0,
				      {NULL, NULL},
				      NULL};
	int n = src ? -1 : jd_report_json(&rep, json, sizeof(json));
	if (mrc) {
		fprintf(stderr, "jetdepth: match failed: %s\n", jd_strerror(mrc));
	} else if (src) {
		fprintf(stderr, "jetdepth: sense failed: %s\n", jd_strerror(src));
	} else if (n < 0) {
		fprintf(stderr, "jetdepth: sense: the report exceeds %zu bytes\n", sizeof(json));
	} else if (disp_out && jd_disp_write(disp_out, &engine.disp, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
	} else if (strcmp(out, "-") == 0) {
		fwrite(json, 1, (size_t)n, stdout);
		rc = JD_EXIT_OK;
	} else if (jd_text_write(out, json, (size_t)n, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
	} else {
		fprintf(stderr, "%d object(s), table %s -> %s\n", res.nobjects,
			res.plane.valid ? "found" : "not found (fixed threshold)", out);
		rc = JD_EXIT_OK;
	}
	free(ws);
	jd_boot_deinit(&engine);
out:
	free(l.data);
	free(r.data);
	return rc;
}
