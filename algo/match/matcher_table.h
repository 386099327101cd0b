/*
 * The CPU matchers as rows of one table: what each is called, its defaults, its validation,
 * its memory and run, the rows of context a strip needs, what the automatic prefilter gives
 * it, and the options the command line reads for it. A new matcher is its own files plus a
 * row in matcher_table.c (and its parameters in jd_params.h); nothing else switches on the
 * algorithm.
 */
#ifndef JD_ALGO_MATCHER_TABLE_H
#define JD_ALGO_MATCHER_TABLE_H

#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "jd_exec.h"
#include "jd_image.h"
#include "jd_params.h"

struct jd_kernels;

/* How an option's value reaches its field (an int unless said). */
enum jd_matcher_opt_kind {
	JD_MOPT_INT,	/* --name N */
	JD_MOPT_FLOAT,	/* --name F, a float field */
	JD_MOPT_ONOFF,	/* --name stores 1, --no-name 0 */
	JD_MOPT_CHOICE, /* --name WORD, the word's index in choices */
	JD_MOPT_SET,	/* --name alone stores value */
};

/*
 * One command-line option of a matcher. Matchers may share a name (--fill is SAD's and
 * SGM's): the command line then sets every matcher's field of that name at once.
 */
struct jd_matcher_opt {
	const char *name; /* without the dashes */
	enum jd_matcher_opt_kind kind;
	size_t offset;		    /* of the field in struct jd_match_params */
	int value;		    /* JD_MOPT_SET: what --name stores */
	const char *const *choices; /* JD_MOPT_CHOICE: the words, NULL-terminated */
	const char *arg;	    /* the value's name in the help ("N", "F") */
	const char *help;	    /* one line; the default is appended from the defaults */
};

struct jd_matcher {
	enum jd_algo algo;
	const char *name;  /* --algo NAME */
	const char *title; /* its heading in the help */
	/* this matcher's fields of p at their defaults (the shared fields are set already) */
	void (*defaults)(struct jd_match_params *p);
	/* this matcher's fields, after the shared ones passed; message in err (-EINVAL) */
	int (*validate)(const struct jd_match_params *p, int width, int height, char *err,
			size_t errlen);
	size_t (*mem_required)(const struct jd_match_params *p, int width, int height,
			       int nworkers);
	int (*run)(const struct jd_kernels *k, const struct jd_match_params *p,
		   const struct jd_image *left, const struct jd_image *right, struct jd_disp *out,
		   void *ws, size_t ws_bytes, const struct jd_exec *ex);
	/* rows of context each side of a strip, given the rows its prefilter needs */
	int (*overlap)(const struct jd_match_params *p, int prefilter_rows);
	/* what JD_PREFILTER_AUTO means for it: JD_PREFILTER_NONE, _RANK or _CENSUS */
	enum jd_prefilter auto_prefilter;
	/* it compares census codes of this radius when asked (--prefilter census); 0: it takes none
	 */
	int census_radius;
	int rank_window; /* the rank transform's side when --rank-window is 0 */
	/* the CPU kernel whose backend names the run (kernels.h's JD_K_*), for reports */
	int (*main_kernel)(const struct jd_match_params *p);
	/* a short name of the variant that runs ("sgm census/8"), for reports */
	void (*label)(const struct jd_match_params *p, char *s, size_t n);
	const struct jd_matcher_opt *opts;
	int nopts;
};

/*
 * Validation's one way to refuse: the message into the caller's err (errlen bytes), then
 * -EINVAL. For jd_params_validate() and each row's validate.
 */
#define JD_MATCHER_FAIL(...)                                                                       \
	do {                                                                                       \
		snprintf(err, errlen, __VA_ARGS__);                                                \
		return -EINVAL;                                                                    \
	} while (0)

/* The rows, one a matcher, in the order the help lists them. */
extern const struct jd_matcher *const jd_matchers[];
extern const int jd_matcher_count;

/** The row of algo, or NULL for a value that names none. */
const struct jd_matcher *jd_matcher_of(enum jd_algo algo);

#endif
