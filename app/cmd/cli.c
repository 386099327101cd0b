#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../hal/out_file.h"
#include "../loop/boot.h"
#include "../../hal/workers.h"

/* The --backend choice: one per process, read once by boot (jd_cli_backend). */
static enum jd_backend cli_backend = JD_BACKEND_AUTO;
static int cli_backend_set;
static enum jd_backend board_backend = JD_BACKEND_AUTO;
/* --tuning FILE and --gpu-memory M, likewise. */
static const char *cli_tuning;
static enum jd_gpu_memory cli_gpu_memory = JD_GPU_MEMORY_AUTO;

int jd_cli_closed_std_fds;

void jd_cli_guard_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
			jd_cli_closed_std_fds |= 1 << fd;
			/* the lowest free number: this one, as the lower ones are open by now */
			(void)open("/dev/null", O_RDWR);
		}
	}
}

const char *jd_cli_tuning_path(void)
{
	const char *env = getenv("JD_TUNING");

	return cli_tuning ? cli_tuning : env && *env ? env : JD_TUNING_DEFAULT;
}

void jd_cli_backend_default(enum jd_backend b)
{
	board_backend = b;
}

int jd_cli_backend(enum jd_backend *out)
{
	const char *env = getenv("JD_BACKEND");

	if (cli_backend_set) {
		*out = cli_backend;
		return 0;
	}
	if (!env || !*env) {
		*out = board_backend;
		return 0;
	}
	if (jd_backend_parse(env, out)) {
		fprintf(stderr, "jetdepth: JD_BACKEND=%s: must be auto, cpu, ref, neon or cuda\n",
			env);
		return -EINVAL;
	}
	return 0;
}

int jd_cli_boot_choices(struct jd_boot_config *c)
{
	c->gpu_memory = cli_gpu_memory;
	c->tuning_path = jd_cli_tuning_path();
	return jd_cli_backend(&c->backend);
}

const char jd_cli_matcher_help[] =
    "matcher options:\n"
    "  --algo bp|sgm|sad      matcher (default sgm)\n"
    "  --ndisp N              disparity count, 2..1024 (default 64)\n"
    "  --min-disp N           smallest disparity (default 0)\n"
    "  --backend B            auto: the GPU where a CUDA driver and GPU answer, else NEON\n"
    "                         on aarch64, else the reference; cpu: auto without the GPU;\n"
    "                         ref (portable C); neon; cuda (the GPU or an error)\n"
    "                         (default: $JD_BACKEND, else the board's, else auto)\n"
    "  --gpu-memory M         how frames reach the GPU. copy: uploaded and downloaded each\n"
    "                         frame; mapped: the kernels read and write the pinned host\n"
    "                         buffers, nothing is copied; auto: mapped on an integrated\n"
    "                         GPU (Jetson), copy on a discrete one (default auto)\n"
    "  --threads N            worker threads (default: all CPUs)\n"
    "  --tuning FILE          GPU tuning file from `jetdepth tune` (default: $JD_TUNING,\n"
    "                         else " JD_TUNING_DEFAULT "; ignored, saying why,\n"
    "                         when made on another GPU, driver or build)\n"
    "  --tiles N              match in N horizontal strips (default 0: only when the\n"
    "                         board's memory ceiling needs it; boot prints the plan)\n"
    "  --tile-overlap N       rows of context each side of a strip (default: SAD half\n"
    "                         the window + 1, SGM 128, BP 20 (22 with its census cost);\n"
    "                         plus half the rank window with --prefilter rank)\n"
    "  --prefilter P          what SAD's and BP's costs compare. rank: the rank transform\n"
    "                         of both images; census (BP only): Hamming distance of 5x5\n"
    "                         census codes; both ignore brightness differences between\n"
    "                         the cameras. none: raw intensities (the seeds' costs).\n"
    "                         auto: census for BP, rank for SAD, none for SGM (default)\n"
    "  --rank-window N        the rank transform's odd side, 3..15 (default SAD 9, BP 7)\n"
    " SAD:\n"
    "  --window N             odd window side, 1..31 (default 11)\n"
    "  --[no-]lr-check --[no-]fill --[no-]median   as for SGM (default on)\n"
    " SGM:\n"
    "  --cost census|ad       matching cost (default census 9x7)\n"
    "  --paths 4|8            aggregation paths (default 8)\n"
    "  --p1 N --p2 N          smoothness penalties (default 25, 200)\n"
    "  --p2-adapt T           P2 halves at an intensity step of T, 0 = constant (default 4)\n"
    "  --[no-]subpixel        equiangular sub-pixel fit (default: SGM on; BP, SAD off)\n"
    "  --[no-]lr-check        left-right check (default on), --lr-max-diff N (1)\n"
    "  --uniqueness PCT       uniqueness margin in percent, 0 = off (default 5)\n"
    "  --[no-]fill            fill invalid pixels from the farther neighbour (default on)\n"
    "  --[no-]median          3x3 median (default on)\n"
    " BP:\n"
    "  --levels N --iters N   pyramid levels and iterations per level (default 5, 7)\n"
    "  --lambda F --data-k F  data cost weight and cap (default 0.1, 15)\n"
    "  --disc-k F             discontinuity cap (default ndisp / 7.5)\n"
    "  --sigma F              Gaussian pre-smoothing (default 0)\n"
    "  --fp16 | --float       message storage (default float)\n";

static const struct option matcher_options[] = {
    {"algo", required_argument, NULL, OPT_ALGO},
    {"ndisp", required_argument, NULL, OPT_NDISP},
    {"min-disp", required_argument, NULL, OPT_MIN_DISP},
    {"window", required_argument, NULL, OPT_WINDOW},
    {"cost", required_argument, NULL, OPT_COST},
    {"paths", required_argument, NULL, OPT_PATHS},
    {"p1", required_argument, NULL, OPT_P1},
    {"p2", required_argument, NULL, OPT_P2},
    {"p2-adapt", required_argument, NULL, OPT_P2_ADAPT},
    {"subpixel", no_argument, NULL, OPT_SUBPIXEL},
    {"no-subpixel", no_argument, NULL, OPT_NO_SUBPIXEL},
    {"lr-check", no_argument, NULL, OPT_LR_CHECK},
    {"no-lr-check", no_argument, NULL, OPT_NO_LR_CHECK},
    {"lr-max-diff", required_argument, NULL, OPT_LR_MAX_DIFF},
    {"uniqueness", required_argument, NULL, OPT_UNIQUENESS},
    {"fill", no_argument, NULL, OPT_FILL},
    {"no-fill", no_argument, NULL, OPT_NO_FILL},
    {"median", no_argument, NULL, OPT_MEDIAN},
    {"no-median", no_argument, NULL, OPT_NO_MEDIAN},
    {"levels", required_argument, NULL, OPT_LEVELS},
    {"iters", required_argument, NULL, OPT_ITERS},
    {"lambda", required_argument, NULL, OPT_LAMBDA},
    {"data-k", required_argument, NULL, OPT_DATA_K},
    {"disc-k", required_argument, NULL, OPT_DISC_K},
    {"sigma", required_argument, NULL, OPT_SIGMA},
    {"fp16", no_argument, NULL, OPT_FP16},
    {"float", no_argument, NULL, OPT_FLOAT},
    {"backend", required_argument, NULL, OPT_BACKEND},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"tiles", required_argument, NULL, OPT_TILES},
    {"tuning", required_argument, NULL, OPT_TUNING},
    {"tile-overlap", required_argument, NULL, OPT_TILE_OVERLAP},
    {"prefilter", required_argument, NULL, OPT_PREFILTER},
    {"rank-window", required_argument, NULL, OPT_RANK_WINDOW},
    {"gpu-memory", required_argument, NULL, OPT_GPU_MEMORY},
};

void jd_cli_begin(struct jd_cli *c, int argc, char **argv, const char *shortopts,
		  const struct option *cmd_opts, struct jd_match_params *p, int *threads)
{
	size_t n = 0;

	memset(c, 0, sizeof(*c));
	c->argc = argc;
	c->argv = argv;
	c->shortopts = shortopts;
	c->p = p;
	c->threads = threads;
	for (size_t i = 0; i < sizeof(matcher_options) / sizeof(matcher_options[0]); i++) {
		c->opts[n++] = matcher_options[i];
	}
	for (; cmd_opts && cmd_opts->name && n < JD_CLI_MAX_OPTIONS - 1; cmd_opts++) {
		c->opts[n++] = *cmd_opts;
	}
	if (cmd_opts && cmd_opts->name) {
		/* a programming error, loud: a dropped option would read as "unrecognized" */
		fprintf(stderr, "jetdepth: internal: more than %d options (--%s on)\n",
			JD_CLI_MAX_OPTIONS - 1, cmd_opts->name);
		c->full = 1;
	}
	c->opts[n] = (struct option){0};
	optind = 1;
}

int jd_cli_next(struct jd_cli *c)
{
	int opt;

	if (c->full) {
		return JD_CLI_BAD;
	}
	while ((opt = getopt_long(c->argc, c->argv, c->shortopts, c->opts, NULL)) != -1) {
		int rc = jd_cli_matcher_option(opt, optarg, c->p, c->threads);

		if (rc < 0) {
			return JD_CLI_BAD;
		}
		if (rc == 0) {
			return opt;
		}
		c->seen[opt - OPT_ALGO] = 1;
	}
	return -1;
}

int jd_cli_confidence(const char *opt, const char *arg, int *out)
{
	if (jd_cli_int(opt, arg, out)) {
		return -EINVAL;
	}
	if (*out < 0 || *out > 255) {
		fprintf(stderr, "jetdepth: %s %s: must be a confidence level, 0 to 255\n", opt, arg);
		return -EINVAL;
	}
	return 0;
}

int jd_cli_help_or_usage(int asked, void (*help)(FILE *))
{
	help(asked ? stdout : stderr);
	return asked ? JD_EXIT_OK : JD_EXIT_USAGE;
}

int jd_cli_int(const char *opt, const char *arg, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end != '\0' || errno || v < INT_MIN || v > INT_MAX) {
		fprintf(stderr, "jetdepth: %s %s: not a whole number\n", opt, arg);
		return -EINVAL;
	}
	*out = (int)v;
	return 0;
}

int jd_cli_float(const char *opt, const char *arg, float *out)
{
	char *end;
	float v;

	errno = 0;
	v = strtof(arg, &end);
	if (end == arg || *end != '\0' || errno || v != v) {
		fprintf(stderr, "jetdepth: %s %s: not a number\n", opt, arg);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int jd_cli_size(const char *opt, const char *arg, int *w, int *h)
{
	char extra;

	if (sscanf(arg, "%dx%d%c", w, h, &extra) != 2 || *w < 8 || *h < 8 || *w > 16384 ||
	    *h > 16384) {
		fprintf(stderr, "jetdepth: %s %s: expected WIDTHxHEIGHT, each 8..16384\n", opt,
			arg);
		return -EINVAL;
	}
	return 0;
}

/* 1 when the option parsed, else the parse error. */
static int consumed(int rc)
{
	return rc ? rc : 1;
}

int jd_cli_matcher_option(int opt, const char *arg, struct jd_match_params *p, int *threads)
{
	switch (opt) {
	case OPT_ALGO:
		if (jd_algo_parse(arg, &p->algo)) {
			fprintf(stderr, "jetdepth: --algo %s: must be bp, sgm or sad\n", arg);
			return -EINVAL;
		}
		return 1;
	case OPT_NDISP:
		return consumed(jd_cli_int("--ndisp", arg, &p->ndisp));
	case OPT_MIN_DISP:
		return consumed(jd_cli_int("--min-disp", arg, &p->min_disp));
	case OPT_WINDOW:
		return consumed(jd_cli_int("--window", arg, &p->sad.window));
	case OPT_COST:
		if (strcmp(arg, "census") == 0) {
			p->sgm.cost = JD_SGM_COST_CENSUS;
		} else if (strcmp(arg, "ad") == 0) {
			p->sgm.cost = JD_SGM_COST_AD;
		} else {
			fprintf(stderr, "jetdepth: --cost %s: must be census or ad\n", arg);
			return -EINVAL;
		}
		return 1;
	case OPT_RANK_WINDOW:
		return consumed(jd_cli_int("--rank-window", arg, &p->rank_window));
	case OPT_PATHS:
		return consumed(jd_cli_int("--paths", arg, &p->sgm.paths));
	case OPT_P1:
		return consumed(jd_cli_int("--p1", arg, &p->sgm.p1));
	case OPT_P2:
		return consumed(jd_cli_int("--p2", arg, &p->sgm.p2));
	case OPT_P2_ADAPT:
		return consumed(jd_cli_int("--p2-adapt", arg, &p->sgm.p2_adapt));
	case OPT_SUBPIXEL:
	case OPT_NO_SUBPIXEL:
		p->sgm.subpixel = p->bp.subpixel = p->sad.subpixel = opt == OPT_SUBPIXEL;
		return 1;
	case OPT_LR_CHECK:
	case OPT_NO_LR_CHECK:
		p->sgm.lr_check = opt == OPT_LR_CHECK;
		p->sad.lr_check = p->sgm.lr_check;
		return 1;
	case OPT_LR_MAX_DIFF:
		return consumed(jd_cli_int("--lr-max-diff", arg, &p->sgm.lr_max_diff));
	case OPT_UNIQUENESS:
		return consumed(jd_cli_int("--uniqueness", arg, &p->sgm.uniqueness));
	case OPT_FILL:
	case OPT_NO_FILL:
		p->sgm.fill = opt == OPT_FILL;
		p->sad.fill = p->sgm.fill;
		return 1;
	case OPT_MEDIAN:
	case OPT_NO_MEDIAN:
		p->sgm.median = opt == OPT_MEDIAN;
		p->sad.median = p->sgm.median;
		return 1;
	case OPT_LEVELS:
		return consumed(jd_cli_int("--levels", arg, &p->bp.levels));
	case OPT_ITERS:
		return consumed(jd_cli_int("--iters", arg, &p->bp.iters));
	case OPT_LAMBDA:
		return consumed(jd_cli_float("--lambda", arg, &p->bp.lambda));
	case OPT_DATA_K:
		return consumed(jd_cli_float("--data-k", arg, &p->bp.data_k));
	case OPT_DISC_K:
		return consumed(jd_cli_float("--disc-k", arg, &p->bp.disc_k));
	case OPT_SIGMA:
		return consumed(jd_cli_float("--sigma", arg, &p->bp.sigma));
	case OPT_FP16:
	case OPT_FLOAT:
		p->bp.fp16 = opt == OPT_FP16;
		return 1;
	case OPT_BACKEND:
		if (jd_backend_parse(arg, &cli_backend)) {
			fprintf(stderr,
				"jetdepth: --backend %s: must be auto, cpu, ref, neon or cuda\n",
				arg);
			return -EINVAL;
		}
		cli_backend_set = 1;
		return 1;
	case OPT_TUNING:
		cli_tuning = arg;
		return 1;
	case OPT_GPU_MEMORY:
		if (strcmp(arg, "auto") && strcmp(arg, "copy") && strcmp(arg, "mapped")) {
			fprintf(stderr, "jetdepth: --gpu-memory %s: must be auto, copy or mapped\n",
				arg);
			return -EINVAL;
		}
		cli_gpu_memory = arg[0] == 'c'	 ? JD_GPU_MEMORY_COPY
				 : arg[0] == 'm' ? JD_GPU_MEMORY_MAPPED
						 : JD_GPU_MEMORY_AUTO;
		return 1;
	case OPT_TILES:
		return consumed(jd_cli_int("--tiles", arg, &p->tiles));
	case OPT_TILE_OVERLAP:
		return consumed(jd_cli_int("--tile-overlap", arg, &p->tile_overlap));
	case OPT_PREFILTER:
		if (jd_prefilter_parse(arg, &p->prefilter)) {
			fprintf(stderr, "jetdepth: --prefilter %s: must be auto, census, rank or none\n", arg);
			return -EINVAL;
		}
		return 1;
	case OPT_THREADS:
		if (jd_cli_int("--threads", arg, threads)) {
			return -EINVAL;
		}
		if (*threads < 1 || *threads > JD_WORKERS_MAX) {
			fprintf(stderr, "jetdepth: --threads %d: must be between 1 and %d\n",
				*threads, JD_WORKERS_MAX);
			return -EINVAL;
		}
		return 1;
	default:
		return 0;
	}
}

int jd_cli_validate(const struct jd_match_params *p, int w, int h)
{
	char err[256];

	if (jd_params_validate(p, w, h, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
		return JD_EXIT_USAGE;
	}
	return 0;
}

int jd_cli_distinct_outputs(const char *const *names, const char *const *what, int n)
{
	for (int i = 0; i < n; i++) {
		for (int j = i + 1; j < n && names[i]; j++) {
			if (names[j] && jd_out_same(names[i], names[j])) {
				fprintf(stderr,
					"jetdepth: %s %s and %s %s name the same file: give each output "
					"its own name\n",
					what[i], names[i], what[j], names[j]);
				return JD_EXIT_USAGE;
			}
		}
	}
	return 0;
}
