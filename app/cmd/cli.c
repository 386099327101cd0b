#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../hal/out_file.h"
#include "cli_matcher.h"
#include "../loop/boot.h"
#include "../../hal/workers.h"

/* The --backend choice: one per process, read once by boot (jd_cli_backend). */
static enum jd_backend cli_backend = JD_BACKEND_AUTO;
static int cli_backend_set;
static enum jd_backend board_backend = JD_BACKEND_AUTO;
/* --tuning FILE and --gpu-memory M, likewise. */
static char cli_tuning[1024]; /* copied: a config file's line does not outlive the file */
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

	return cli_tuning[0] ? cli_tuning : env && *env ? env : JD_TUNING_DEFAULT;
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

int jd_cli_boot_choices(struct jd_boot_choices *c)
{
	c->gpu_memory = cli_gpu_memory;
	c->tuning_path = jd_cli_tuning_path();
	return jd_cli_backend(&c->backend);
}

/* the options every matcher takes; each matcher's own follow from the table */
static const char shared_help[] =
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
    "  --tile-overlap N       rows of context each side of a strip (default: the\n"
    "                         matcher's, with its default prefilter: below)\n"
    "  --prefilter P          what SAD's and BP's costs compare. rank: the rank transform\n"
    "                         of both images; census (BP only): Hamming distance of 5x5\n"
    "                         census codes; both ignore brightness differences between\n"
    "                         the cameras. none: raw intensities (the seeds' costs).\n"
    "                         auto (default): each matcher's, below\n"
    "  --rank-window N        the rank transform's odd side, 3..15 (default: the\n"
    "                         matcher's, below)\n";

const char *jd_cli_matcher_help(void)
{
	static char s[sizeof(shared_help) + 4096];

	if (!s[0]) {
		size_t n = (size_t)snprintf(s, sizeof(s), "%s", shared_help);
		jd_cli_matcher_own_help(s + n, sizeof(s) - n);
	}
	return s;
}

static const struct option matcher_options[] = {
    {"algo", required_argument, NULL, OPT_ALGO},
    {"ndisp", required_argument, NULL, OPT_NDISP},
    {"min-disp", required_argument, NULL, OPT_MIN_DISP},
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
	int own = jd_cli_matcher_opts(c->opts + n, JD_CLI_MAX_OPTIONS - 1 - n);
	if (own < 0) {
		fprintf(stderr, "jetdepth: internal: the matchers' options do not fit\n");
		c->full = 1;
	}
	n += own > 0 ? (size_t)own : 0;
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
		if (opt >= OPT_ALGO && opt < OPT_CMD_BASE) {
			c->seen[opt - OPT_ALGO] = 1;
		}
	}
	return -1;
}

int jd_cli_confidence(const char *opt, const char *arg, int *out)
{
	if (jd_cli_int(opt, arg, out)) {
		return -EINVAL;
	}
	if (*out < 0 || *out > 255) {
		fprintf(stderr, "jetdepth: %s %s: must be a confidence level, 0 to 255\n", opt,
			arg);
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
			fprintf(stderr, "jetdepth: --algo %s: must be %s\n", arg,
				jd_cli_matcher_names());
			return -EINVAL;
		}
		return 1;
	case OPT_NDISP:
		return consumed(jd_cli_int("--ndisp", arg, &p->ndisp));
	case OPT_MIN_DISP:
		return consumed(jd_cli_int("--min-disp", arg, &p->min_disp));
	case OPT_RANK_WINDOW:
		return consumed(jd_cli_int("--rank-window", arg, &p->rank_window));
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
		if (!arg[0] || strlen(arg) >= sizeof(cli_tuning)) {
			fprintf(stderr, "jetdepth: --tuning: %zu characters: 1 to %zu\n",
				strlen(arg), sizeof(cli_tuning) - 1);
			return -EINVAL;
		}
		memcpy(cli_tuning, arg, strlen(arg) + 1);
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
			fprintf(stderr,
				"jetdepth: --prefilter %s: must be auto, census, rank or none\n",
				arg);
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
		return jd_cli_matcher_own_option(opt, arg, p);
	}
}

int jd_cli_validate(const struct jd_match_params *p, int w, int h)
{
	char err[256];

	if (jd_cli_matcher_options_fit(p)) {
		return JD_EXIT_USAGE;
	}
	if (jd_params_validate(p, w, h, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
		return JD_EXIT_USAGE;
	}
	return 0;
}

/*
 * The first a[i] and b[j] naming one file (NULL names skipped); with a and b one list, only
 * pairs j > i. @return 1 with *ia, *ib set, or 0
 */
static int first_same(const char *const *a, int na, const char *const *b, int nb, int *ia, int *ib)
{
	for (int i = 0; i < na; i++) {
		for (int j = a == b ? i + 1 : 0; j < nb && a[i]; j++) {
			if (b[j] && jd_out_same(a[i], b[j])) {
				*ia = i;
				*ib = j;
				return 1;
			}
		}
	}
	return 0;
}

int jd_cli_distinct_outputs(const char *const *names, const char *const *what, int n)
{
	int i, j;

	if (first_same(names, n, names, n, &i, &j)) {
		fprintf(stderr,
			"jetdepth: %s %s and %s %s name the same file: give each output its own "
			"name\n",
			what[i], names[i], what[j], names[j]);
		return JD_EXIT_USAGE;
	}
	return 0;
}

int jd_cli_outputs_not_inputs(const char *const *outs, const char *const *out_what, int nout,
			      const char *const *ins, const char *const *in_what, int nin)
{
	int i, j;

	if (first_same(outs, nout, ins, nin, &i, &j)) {
		fprintf(
		    stderr,
		    "jetdepth: %s %s is the input %s %s: refusing to replace an input; give the "
		    "output its own name\n",
		    out_what[i], outs[i], in_what[j], ins[j]);
		return JD_EXIT_USAGE;
	}
	return 0;
}
