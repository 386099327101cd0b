#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../algo/match/confidence.h"
#include "../../algo/match/matcher.h"
#include "../../hal/clock.h"
#include "../loop/boot.h"
#include "../../algo/jd_status.h"
#include "cli.h"
#include "desk_confidence.h"
#include "commands.h"
#include "../formats/image_io.h"

enum { OPT_OUT = OPT_CMD_BASE, OPT_COLOR, OPT_CONF, OPT_MIN_CONF, OPT_QUIET, OPT_HELP };

static void help(FILE *f)
{
	fprintf(
	    f,
	    "usage: jetdepth match LEFT RIGHT -o OUT.pfm|OUT.png [--color VIEW.png] "
	    "[options]\n\n"
	    "Match a rectified stereo pair (PGM/PPM, PNG or JPEG; colour is converted to "
	    "gray).\n"
	    "OUT.pfm: float disparity, invalid = inf (Middlebury). OUT.png: 16-bit, "
	    "disparity * 256, 0 = invalid (KITTI).\n"
	    "Outputs are written only when the whole map was computed.\n\n"
	    "  -o, --output FILE      disparity map (required)\n"
	    "      --color FILE       also write a colour-mapped PNG for people\n"
	    "      --confidence FILE  also write the confidence map: 8-bit grey PNG, 0 = no\n"
	    "                         depth, 1..255 more trustworthy the higher "
	    "(docs/accuracy.md)\n"
	    "      --min-confidence N mark pixels below confidence N invalid in OUT (default 0:\n"
	    "                         keep all; run and sense use %d)\n"
	    "  -q, --quiet            no budget and timing lines\n"
	    "  -h, --help\n\n%s",
	    JD_MIN_CONFIDENCE_DEFAULT, jd_cli_matcher_help());
}

static int write_conf(const char *path, uint8_t *conf, int w, int h, char *err, size_t errlen)
{
	struct jd_image im = {conf, w, h, w};

	return jd_gray_png_write(path, &im, err, errlen);
}

int jd_cmd_match(int argc, char **argv)
{
	static const struct option cmd_opts[] = {
	    {"output", required_argument, NULL, OPT_OUT},
	    {"color", required_argument, NULL, OPT_COLOR},
	    {"confidence", required_argument, NULL, OPT_CONF},
	    {"min-confidence", required_argument, NULL, OPT_MIN_CONF},
	    {"quiet", no_argument, NULL, OPT_QUIET},
	    {"help", no_argument, NULL, OPT_HELP},
	    {0}};
	struct jd_match_params p;
	struct jd_cli cli;
	const char *out = NULL, *color = NULL, *conf_path = NULL;
	int threads = jd_workers_cpu_count(), quiet = 0, min_conf = 0, opt, rc;
	struct jd_image l, r;
	struct jd_engine engine;
	char err[512];

	jd_params_default(&p, JD_ALGO_SGM, 64);
	jd_cli_begin(&cli, argc, argv, "o:qh", cmd_opts, &p, &threads);
	while ((opt = jd_cli_next(&cli)) != -1) {
		switch (opt) {
		case JD_CLI_BAD:
			return JD_EXIT_USAGE;
		case 'o':
		case OPT_OUT:
			out = optarg;
			break;
		case OPT_COLOR:
			color = optarg;
			break;
		case OPT_CONF:
			conf_path = optarg;
			break;
		case OPT_MIN_CONF:
			if (jd_cli_confidence("--min-confidence", optarg, &min_conf)) {
				return JD_EXIT_USAGE;
			}
			break;
		case 'q':
		case OPT_QUIET:
			quiet = 1;
			break;
		default:
			return jd_cli_help_or_usage(opt == 'h' || opt == OPT_HELP, help);
		}
	}
	if (argc - optind != 2 || !out) {
		fprintf(stderr, "jetdepth match: need LEFT RIGHT and -o OUT (see --help)\n");
		return JD_EXIT_USAGE;
	}
	const char *outs[3] = {out, color, conf_path}, *opts[3] = {"-o", "--color", "--confidence"};
	const char *ins[2] = {argv[optind], argv[optind + 1]}, *in_what[2] = {"LEFT", "RIGHT"};
	if (jd_cli_distinct_outputs(outs, opts, 3) ||
	    jd_cli_outputs_not_inputs(outs, opts, 3, ins, in_what, 2)) {
		return JD_EXIT_USAGE;
	}
	if (p.ndisp < 2 || p.ndisp > JD_NDISP_MAX) {
		/* Known bad before any file is read. */
		return jd_cli_validate(&p, 1 << 14, 1 << 14);
	}
	if (jd_image_read(argv[optind], &l, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
		return JD_EXIT_RUNTIME;
	}
	if (jd_image_read(argv[optind + 1], &r, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
		free(l.data);
		return JD_EXIT_RUNTIME;
	}
	rc = JD_EXIT_RUNTIME;
	if (l.width != r.width || l.height != r.height) {
		fprintf(stderr, "jetdepth: %s is %dx%d but %s is %dx%d: a stereo pair must match\n",
			argv[optind], l.width, l.height, argv[optind + 1], r.width, r.height);
		goto out;
	}
	if ((rc = jd_cli_validate(&p, l.width, l.height))) {
		goto out;
	}
	rc = JD_EXIT_RUNTIME;
	struct jd_boot_config bc = {
	    .p = &p, .w = l.width, .h = l.height, .threads = threads, .log = quiet ? NULL : stderr};
	if (jd_cli_boot_choices(&bc.choices) || jd_boot_init(&engine, &bc)) {
		goto out;
	}
	memcpy(engine.left.data, l.data, (size_t)l.width * l.height);
	memcpy(engine.right.data, r.data, (size_t)r.width * r.height);
	uint64_t t0 = jd_clock_ns();
	int mrc = jd_engine_match(&engine, &p);
	uint64_t t1 = jd_clock_ns();
	uint8_t *conf = NULL;
	if (!mrc && (conf_path || min_conf)) {
		struct jd_conf_search search = {p.min_disp, p.ndisp};
		mrc = jd_desk_confidence(&l, &r, &engine.disp, &search, min_conf,
					 &engine.workers.exec, &conf);
	}
	if (mrc) {
		fprintf(stderr, "jetdepth: match failed: %s\n", jd_strerror(mrc));
	} else if ((conf_path &&
		    write_conf(conf_path, conf, l.width, l.height, err, sizeof(err))) ||
		   jd_disp_write(out, &engine.disp, err, sizeof(err)) ||
		   (color &&
		    jd_color_png_write(color, &engine.disp, (float)p.min_disp,
				       (float)(p.min_disp + p.ndisp - 1), err, sizeof(err)))) {
		fprintf(stderr, "jetdepth: %s\n", err);
	} else {
		if (!quiet) {
			fprintf(stderr, "%s %dx%d ndisp %d: %.1f ms on %d thread(s) -> %s\n",
				jd_algo_name(p.algo), l.width, l.height, p.ndisp,
				(double)(t1 - t0) / 1e6, threads, out);
		}
		rc = JD_EXIT_OK;
	}
	free(conf);
	jd_boot_deinit(&engine);
out:
	free(l.data);
	free(r.data);
	return rc;
}
