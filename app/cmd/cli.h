/* Shared command-line plumbing: exit codes, strict number parsing, matcher options. */
#ifndef JD_APP_CLI_H
#define JD_APP_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "../../algo/match/jd_params.h"
#include "../../algo/kernels/kernels.h"
#include "../../hal/cuda/cuda.h"

enum { JD_EXIT_OK = 0, JD_EXIT_RUNTIME = 1, JD_EXIT_USAGE = 2 };

/*
 * Standard descriptors that were closed at start (bit 1 << fd), each then opened on
 * /dev/null so that no file or socket opened later takes its number (and receives what was
 * meant for stdout). Set once by jd_cli_guard_std_fds() in main().
 */
extern int jd_cli_closed_std_fds;
void jd_cli_guard_std_fds(void);

/*
 * getopt_long codes of the options every command with a matcher takes (above the
 * single-letter range). Each matcher's own options come from its row of the matcher table
 * (algo/match/matcher_table.h), numbered from JD_CLI_MATCHER_OPT_BASE.
 */
enum {
	OPT_ALGO = 1000,
	OPT_NDISP,
	OPT_MIN_DISP,
	OPT_BACKEND,
	OPT_THREADS,
	OPT_TILES,
	OPT_TUNING,
	OPT_TILE_OVERLAP,
	OPT_PREFILTER,
	OPT_RANK_WINDOW,
	OPT_GPU_MEMORY,
	OPT_CMD_BASE, /* commands number their own options from here */
};
#define JD_CLI_MATCHER_OPT_BASE 4000

/** Returned by jd_cli_next() for a matcher option with a bad value (message printed). */
#define JD_CLI_BAD (-2)
#define JD_CLI_MAX_OPTIONS 128

/* getopt_long over the matcher options plus one command's own (see jd_cli_next). */
struct jd_cli {
	int argc;
	char **argv;
	const char *shortopts;
	struct option opts[JD_CLI_MAX_OPTIONS];
	int full; /* the options did not fit: jd_cli_next() refuses */
	struct jd_match_params *p;
	int *threads;
	char seen[OPT_CMD_BASE - OPT_ALGO]; /* which matcher options were given */
};

/** Start parsing argv (argv[0] is the command name) with cmd_opts ({0}-terminated). */
void jd_cli_begin(struct jd_cli *c, int argc, char **argv, const char *shortopts,
		  const struct option *cmd_opts, struct jd_match_params *p, int *threads);

/**
 * Apply matcher options as they come and return the next command option (its value in
 * optarg), -1 at the end (operands start at optind), or JD_CLI_BAD.
 */
int jd_cli_next(struct jd_cli *c);

/** Help text for the matcher options: the shared ones, then each matcher's with its defaults. */
const char *jd_cli_matcher_help(void);

/**
 * Apply one matcher option.
 * @retval 1 consumed
 * @retval 0 not a matcher option
 * @retval -EINVAL bad value (message printed)
 */
int jd_cli_matcher_option(int opt, const char *arg, struct jd_match_params *p, int *threads);

/** Parse a whole decimal int; prints "OPTION VALUE: reason" and returns -EINVAL otherwise. */
/**
 * The end of a subcommand's option loop: asked for help (--help, -h), help goes to stdout and
 * the command ends well; any other option it did not know, to stderr as a usage error.
 * @return JD_EXIT_OK or JD_EXIT_USAGE
 */
int jd_cli_help_or_usage(int asked, void (*help)(FILE *));

int jd_cli_int(const char *opt, const char *arg, int *out);
int jd_cli_float(const char *opt, const char *arg, float *out);
/** A confidence level 0..255 (message printed on error). @retval 0 or -EINVAL */
int jd_cli_confidence(const char *opt, const char *arg, int *out);
/** Parse WIDTHxHEIGHT. */
int jd_cli_size(const char *opt, const char *arg, int *w, int *h);

/** The board's default.backend: used when neither --backend nor $JD_BACKEND says. */
void jd_cli_backend_default(enum jd_backend b);

/**
 * The backend asked for: --backend, else $JD_BACKEND, else the board's, else auto.
 * @retval 0, or -EINVAL for a bad $JD_BACKEND (message printed)
 */
int jd_cli_backend(enum jd_backend *out);

#define JD_TUNING_DEFAULT "/var/lib/jetdepth/tuning.txt"

/** The tuning file boot reads: --tuning, else $JD_TUNING, else JD_TUNING_DEFAULT. */
const char *jd_cli_tuning_path(void);

struct jd_boot_choices; /* app/loop/boot.h */
/**
 * What the command line (and the environment, and the board) chose for boot: the backend
 * (jd_cli_backend()), --gpu-memory and the tuning file. @retval 0 or -EINVAL (printed)
 */
int jd_cli_boot_choices(struct jd_boot_choices *c);

/** Validate p for a size; prints the error and returns JD_EXIT_USAGE, or 0. */
int jd_cli_validate(const struct jd_match_params *p, int w, int h);

/**
 * Outputs named on one command line must be distinct files (else the last one written wins
 * and the others are lost). names/what: n paths and the options that named them (NULL
 * paths are skipped). @retval 0, or JD_EXIT_USAGE after saying which two collide
 */
int jd_cli_distinct_outputs(const char *const *names, const char *const *what, int n);

/**
 * No output may be one of the command's inputs (the same file after links, "." and "..", or
 * a hard link): writing it would replace what is being read. outs/out_what and ins/in_what:
 * the paths and what named them (NULL paths are skipped). @retval 0, or JD_EXIT_USAGE after
 * naming both
 */
int jd_cli_outputs_not_inputs(const char *const *outs, const char *const *out_what, int nout,
			      const char *const *ins, const char *const *in_what, int nin);

#endif
