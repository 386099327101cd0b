#include <stdio.h>
#include <stdlib.h>

#include "../../algo/synth.h"
#include "cli.h"
#include "commands.h"
#include "../formats/image_io.h"

enum { OPT_SIZE = OPT_CMD_BASE, OPT_NDISP_S, OPT_FRAME, OPT_HELP };

int jd_cmd_synth(int argc, char **argv)
{
	struct option opts[] = {{"size", required_argument, NULL, OPT_SIZE},
				{"ndisp", required_argument, NULL, OPT_NDISP_S},
				{"frame", required_argument, NULL, OPT_FRAME},
				{"help", no_argument, NULL, OPT_HELP},
				{0}};
	int w = 450, h = 375, ndisp = 64, frame = 0, opt, rc = JD_EXIT_RUNTIME;
	char err[512];

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (opt == OPT_SIZE) {
			if (jd_cli_size("--size", optarg, &w, &h)) {
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_NDISP_S) {
			if (jd_cli_int("--ndisp", optarg, &ndisp)) {
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_FRAME) {
			if (jd_cli_int("--frame", optarg, &frame)) {
				return JD_EXIT_USAGE;
			}
			if (frame < 0) {
				fprintf(stderr, "jetdepth: --frame %s: must be 0 or more\n",
					optarg);
				return JD_EXIT_USAGE;
			}
		} else {
			fprintf(
			    opt == OPT_HELP || opt == 'h' ? stdout : stderr,
			    "usage: jetdepth synth LEFT.pgm RIGHT.pgm [GT.pfm] [--size WxH] "
			    "[--ndisp N] [--frame N]\n\n"
			    "Write the built-in synthetic stereo pair (a tilted table with boxes) "
			    "and its true disparity.\n");
			return opt == OPT_HELP || opt == 'h' ? JD_EXIT_OK : JD_EXIT_USAGE;
		}
	}
	if (argc - optind < 2 || argc - optind > 3) {
		fprintf(stderr, "jetdepth synth: need LEFT RIGHT [GT] (see --help)\n");
		return JD_EXIT_USAGE;
	}
	const char *outs[3] = {argv[optind], argv[optind + 1],
			       argc - optind == 3 ? argv[optind + 2] : NULL};
	const char *what[3] = {"LEFT", "RIGHT", "GT"};
	if (jd_cli_distinct_outputs(outs, what, 3)) {
		return JD_EXIT_USAGE;
	}
	if (ndisp < 2 || ndisp > w) {
		fprintf(stderr, "jetdepth: --ndisp %d: must be between 2 and the width %d\n", ndisp,
			w);
		return JD_EXIT_USAGE;
	}
	struct jd_image l = {malloc((size_t)w * h), w, h, w};
	struct jd_image r = {malloc((size_t)w * h), w, h, w};
	struct jd_disp gt = {malloc(sizeof(float) * w * h), w, h, w};
	if (!l.data || !r.data || !gt.data) {
		fprintf(stderr, "jetdepth: out of memory\n");
		goto out;
	}
	jd_synth_render(frame, ndisp, &l, &r, &gt);
	if (jd_pgm_write(argv[optind], &l, err, sizeof(err)) ||
	    jd_pgm_write(argv[optind + 1], &r, err, sizeof(err)) ||
	    (argc - optind == 3 && jd_pfm_write(argv[optind + 2], &gt, err, sizeof(err)))) {
		fprintf(stderr, "jetdepth: %s\n", err);
		goto out;
	}
	rc = JD_EXIT_OK;
out:
	free(l.data);
	free(r.data);
	free(gt.data);
	return rc;
}
