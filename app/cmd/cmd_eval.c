#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../algo/match/confidence.h"
#include "../../algo/eval.h"
#include "cli.h"
#include "commands.h"
#include "../formats/image_io.h"

enum {
	OPT_MAX_BAD = OPT_CMD_BASE,
	OPT_CONF,
	OPT_MAX_CONF_RATIO,
	OPT_CONF_THRESH,
	OPT_SUBPIX,
	OPT_MAX_SUBPIX_RMS,
	OPT_MAX_BAND,
	OPT_HELP
};

static void help(FILE *f)
{
	fprintf(
	    f, "usage: jetdepth eval DISP.pfm GT_DIR [--max-bad PCT]\n\n"
	       "Score a disparity map against a dataset folder laid out as\n"
	       "GT_DIR/gt.pfm (unknown = inf), GT_DIR/mask_nonocc.pgm and GT_DIR/mask_all.pgm\n"
	       "(255 = evaluated; a missing mask is skipped; with none, every known pixel "
	       "counts).\n"
	       "Reports bad-pixel rates (|d - gt| > 0.5, 1, 2, 4 px; invalid pixels count as "
	       "bad),\nmean absolute error over valid pixels and the invalid share, in percent.\n\n"
	       "  --max-bad PCT   exit 1 when the 1-px bad rate on the first mask exceeds PCT\n"
	       "  --confidence CONF.png   also the bad rate of the most confident 10, 20 ..\n"
	       "                  100 %% of the pixels on the first mask (the curve in\n"
	       "                  docs/accuracy.md), and of the confident half against the rest\n"
	       "  --conf-threshold PX   the error that counts as bad there (default 1)\n"
	       "  --max-conf-ratio R   exit 1 when the confident half's bad rate exceeds R times\n"
	       "                  the other half's\n"
	       "  --max-band-published N   exit 1 when more than N pixels of the band where no\n"
	       "                  match exists (x < true disparity) are published at the\n"
	       "                  default confidence\n"
	       "  --subpixel      also the sub-pixel error on the first mask: the RMS over the\n"
	       "                  pixels within 1 px of the truth, and how the fractional parts\n"
	       "                  spread over fifths (pixel-locking piles them at the ends)\n"
	       "  --max-subpix-rms PX   exit 1 when that RMS exceeds PX (implies --subpixel)\n");
}

static int same_size(const char *path, int w, int h, int gw, int gh)
{
	if (w != gw || h != gh) {
		fprintf(stderr, "jetdepth: %s is %dx%d but the ground truth is %dx%d\n", path, w, h,
			gw, gh);
		return 0;
	}
	return 1;
}

/* The confidence curve and halves on one mask; nonzero when the halves break max_ratio. */
static int confidence_report(const struct jd_disp *disp, const struct jd_disp *gt,
			     const struct jd_image *mask, const struct jd_image *conf,
			     const char *name, float thresh, float max_ratio, int max_band)
{
	static struct jd_eval_conf tally;
	double top, rest;

	jd_eval_confidence(disp, gt, mask, conf, thresh, &tally);
	printf("confidence on %s: bad rate (> %g px) of the most confident share of the pixels\n",
	       name, (double)thresh);
	for (int k = 1; k <= 10; k++) {
		jd_eval_conf_split(&tally, k / 10.0, &top, &rest);
		printf("  kept %3d%%  bad %6.2f\n", k * 10, top);
	}
	jd_eval_conf_split(&tally, 0.5, &top, &rest);
	printf("  confident half %.2f, other half %.2f (ratio %.3f)\n", top, rest,
	       rest > 0.0 ? top / rest : 0.0);
	/* the band no match exists for: the true disparity puts the match left of the image */
	long band = 0, nonzero = 0, published = 0;
	for (int y = 0; y < gt->height; y++) {
		const float *g = jd_disp_row(gt, y), *d = jd_disp_row(disp, y);
		const uint8_t *c = conf->data + (size_t)y * conf->stride;
		for (int x = 0; x < gt->width; x++) {
			if (g[x] > 0 && g[x] < INFINITY && (float)x < g[x]) {
				band++;
				nonzero += c[x] > 0;
				published += c[x] >= JD_MIN_CONFIDENCE_DEFAULT && d[x] > 0 &&
					     d[x] < INFINITY;
			}
		}
	}
	printf("  band without a match (x < true disparity): %ld px, %ld with confidence, %ld "
	       "published at the default %d\n",
	       band, nonzero, published, JD_MIN_CONFIDENCE_DEFAULT);
	if (max_band >= 0 && published > max_band) {
		fprintf(stderr,
			"jetdepth: %ld pixels published where no match exists, above "
			"--max-band-published %d\n",
			published, max_band);
		return 1;
	}
	if (max_ratio > 0.0f && top > (double)max_ratio * rest) {
		fprintf(stderr,
			"jetdepth: confident half's bad rate %.2f%% is above %.3f x the "
			"other half's %.2f%%\n",
			top, (double)max_ratio, rest);
		return 1;
	}
	return 0;
}

/* The sub-pixel error on a mask (NULL: every known pixel). @return 1 when above max_rms > 0 */
static int subpixel_report(const struct jd_disp *disp, const struct jd_disp *gt,
			   const struct jd_image *mask, const char *name, float max_rms)
{
	double sq = 0.0;
	long near = 0, fifth[5] = {0}, n = 0;

	for (int y = 0; y < gt->height; y++) {
		const float *g = jd_disp_row(gt, y), *d = jd_disp_row(disp, y);
		const uint8_t *m = mask ? mask->data + (size_t)y * mask->stride : NULL;
		for (int x = 0; x < gt->width; x++) {
			if ((m && !m[x]) || !(g[x] > 0 && g[x] < INFINITY) ||
			    !(d[x] > 0 && d[x] < INFINITY)) {
				continue;
			}
			double e = (double)d[x] - g[x], f = d[x] - floorf(d[x]);
			int k = (int)(f * 5.0);
			fifth[k < 5 ? k : 4]++;
			n++;
			if (fabs(e) < 1.0) {
				sq += e * e;
				near++;
			}
		}
	}
	double rms = near ? sqrt(sq / (double)near) : 0.0;
	printf("subpixel on %s: RMS %.3f px over %ld pixels within 1 px; fractional parts by "
	       "fifths",
	       name, rms, near);
	for (int k = 0; k < 5; k++) {
		printf(" %.2f", n ? (double)fifth[k] / n : 0.0);
	}
	printf("\n");
	if (max_rms > 0.0f && rms > (double)max_rms) {
		fprintf(stderr, "jetdepth: sub-pixel RMS %.3f px on %s is above the limit %.3f\n",
			rms, name, (double)max_rms);
		return 1;
	}
	return 0;
}

int jd_cmd_eval(int argc, char **argv)
{
	static const char *const masks[] = {"nonocc", "all"};
	struct option opts[] = {{"max-bad", required_argument, NULL, OPT_MAX_BAD},
				{"confidence", required_argument, NULL, OPT_CONF},
				{"max-conf-ratio", required_argument, NULL, OPT_MAX_CONF_RATIO},
				{"conf-threshold", required_argument, NULL, OPT_CONF_THRESH},
				{"subpixel", no_argument, NULL, OPT_SUBPIX},
				{"max-subpix-rms", required_argument, NULL, OPT_MAX_SUBPIX_RMS},
				{"max-band-published", required_argument, NULL, OPT_MAX_BAND},
				{"help", no_argument, NULL, OPT_HELP},
				{0}};
	float max_bad = -1.0f, max_ratio = -1.0f, thresh = 1.0f, max_rms = -1.0f;
	int subpix = 0, max_band = -1;
	const char *conf_path = NULL;
	struct jd_image conf = {0};
	struct jd_disp disp, gt;
	char err[512], path[4096];
	int opt, rc = JD_EXIT_RUNTIME, first = 1;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (opt == OPT_MAX_BAD) {
			if (jd_cli_float("--max-bad", optarg, &max_bad) || max_bad < 0.0f ||
			    max_bad > 100.0f) {
				fprintf(stderr, "jetdepth: --max-bad %s: must be a percentage\n",
					optarg);
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_CONF) {
			conf_path = optarg;
		} else if (opt == OPT_MAX_CONF_RATIO) {
			if (jd_cli_float("--max-conf-ratio", optarg, &max_ratio) ||
			    !(max_ratio > 0.0f)) {
				fprintf(stderr, "jetdepth: --max-conf-ratio %s: must be above 0\n",
					optarg);
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_MAX_BAND) {
			if (jd_cli_int("--max-band-published", optarg, &max_band) || max_band < 0) {
				fprintf(
				    stderr,
				    "jetdepth: --max-band-published %s: must be 0 or more pixels\n",
				    optarg);
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_SUBPIX) {
			subpix = 1;
		} else if (opt == OPT_MAX_SUBPIX_RMS) {
			if (jd_cli_float("--max-subpix-rms", optarg, &max_rms) ||
			    !(max_rms > 0.0f)) {
				fprintf(stderr,
					"jetdepth: --max-subpix-rms %s: must be above 0 px\n",
					optarg);
				return JD_EXIT_USAGE;
			}
			subpix = 1;
		} else if (opt == OPT_CONF_THRESH) {
			if (jd_cli_float("--conf-threshold", optarg, &thresh) || !(thresh > 0.0f)) {
				fprintf(stderr,
					"jetdepth: --conf-threshold %s: must be above 0 px\n",
					optarg);
				return JD_EXIT_USAGE;
			}
		} else {
			return jd_cli_help_or_usage(opt == OPT_HELP || opt == 'h', help);
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "jetdepth eval: need DISP.pfm and GT_DIR (see --help)\n");
		return JD_EXIT_USAGE;
	}
	/* a limit that cannot be checked would pass silently */
	const char *needs_conf = max_ratio > 0.0f ? "--max-conf-ratio"
				 : max_band >= 0  ? "--max-band-published"
				 : thresh != 1.0f ? "--conf-threshold"
						  : NULL;
	if (needs_conf && !conf_path) {
		fprintf(stderr, "jetdepth eval: %s needs --confidence CONF.png\n", needs_conf);
		return JD_EXIT_USAGE;
	}
	const char *dpath = argv[optind], *dir = argv[optind + 1];
	if (jd_pfm_read(dpath, &disp, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
		return JD_EXIT_RUNTIME;
	}
	snprintf(path, sizeof(path), "%s/gt.pfm", dir);
	if (jd_pfm_read(path, &gt, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
		free(disp.data);
		return JD_EXIT_RUNTIME;
	}
	if (!same_size(dpath, disp.width, disp.height, gt.width, gt.height)) {
		goto out;
	}
	if (conf_path && (jd_image_read(conf_path, &conf, err, sizeof(err)) ||
			  !same_size(conf_path, conf.width, conf.height, gt.width, gt.height))) {
		if (conf.data == NULL) {
			fprintf(stderr, "jetdepth: %s\n", err);
		}
		goto out;
	}
	printf("%-8s %9s %8s %8s %8s %8s %8s %8s\n", "mask", "pixels", "bad0.5", "bad1", "bad2",
	       "bad4", "mae", "invalid");
	rc = JD_EXIT_OK;
	for (int m = 0; m <= 2; m++) {
		struct jd_image mask = {0};
		struct jd_eval_result res;
		const char *name = m < 2 ? masks[m] : "known";

		if (m < 2) {
			snprintf(path, sizeof(path), "%s/mask_%s.pgm", dir, masks[m]);
			FILE *probe = fopen(path, "rb");
			if (!probe) {
				continue;
			}
			fclose(probe);
			if (jd_image_read(path, &mask, err, sizeof(err))) {
				fprintf(stderr, "jetdepth: %s\n", err);
				rc = JD_EXIT_RUNTIME;
				goto out;
			}
			if (!same_size(path, mask.width, mask.height, gt.width, gt.height)) {
				free(mask.data);
				rc = JD_EXIT_RUNTIME;
				goto out;
			}
		} else if (!first) {
			break; /* masks existed; "known" is only the fallback */
		}
		jd_eval(&disp, &gt, mask.data ? &mask : NULL, &res);
		if (first && conf.data &&
		    confidence_report(&disp, &gt, mask.data ? &mask : NULL, &conf, name, thresh,
				      max_ratio, max_band)) {
			rc = JD_EXIT_RUNTIME;
		}
		if (first && subpix &&
		    subpixel_report(&disp, &gt, mask.data ? &mask : NULL, name, max_rms)) {
			rc = JD_EXIT_RUNTIME;
		}
		free(mask.data);
		printf("%-8s %9ld %8.2f %8.2f %8.2f %8.2f %8.3f %8.2f\n", name, res.evaluated,
		       res.bad[0], res.bad[1], res.bad[2], res.bad[3], res.mae, res.invalid);
		if (first && max_bad >= 0.0f && res.bad[1] > max_bad) {
			fprintf(stderr,
				"jetdepth: %s: bad pixels > 1 px on %s: %.2f%% above the "
				"limit %.2f%%\n",
				dpath, name, res.bad[1], (double)max_bad);
			rc = JD_EXIT_RUNTIME;
		}
		first = 0;
	}
out:
	free(conf.data);
	free(disp.data);
	free(gt.data);
	return rc;
}
