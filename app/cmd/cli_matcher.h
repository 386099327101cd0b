/*
 * The matchers' own command-line options, read from their rows of the matcher table
 * (algo/match/matcher_table.h): the getopt entries, applying one, and their help.
 */
#ifndef JD_APP_CLI_MATCHER_H
#define JD_APP_CLI_MATCHER_H

#include <getopt.h>
#include <stddef.h>

#include "../../algo/match/jd_params.h"

/** Append the getopt entries to opts (room for max); @return how many, or -1 when full. */
int jd_cli_matcher_opts(struct option *opts, size_t max);

/**
 * Apply getopt code opt when it is a matcher's own option: every matcher's field of that
 * name is set. @retval 1 applied @retval 0 not one @retval -EINVAL bad value (printed)
 */
int jd_cli_matcher_own_option(int opt, const char *arg, struct jd_match_params *p);

/**
 * 0, or -EINVAL (said) where an option given belongs only to matchers other than p->algo's:
 * BP's --lambda with SGM would otherwise do nothing.
 */
int jd_cli_matcher_options_fit(const struct jd_match_params *p);

/** Each matcher's heading and options, with their defaults, into s (n bytes). */
void jd_cli_matcher_own_help(char *s, size_t n);

/** The matchers' names as "bp, sgm or sad". */
const char *jd_cli_matcher_names(void);

#endif
