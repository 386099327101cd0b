#include "cli_matcher.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../algo/match/matcher_table.h"
#include "../../algo/match/tiling.h"
#include "cli.h"

/* A name a few matchers may share: two getopt codes each (--name, --no-name). */
#define NAMES_MAX 48 /* at most 64: a bit each in the names given */

struct names {
	int n;
	const struct jd_matcher_opt *first[NAMES_MAX]; /* the first row of each name */
	char no[NAMES_MAX][40];			       /* "no-NAME" for on/off options */
};

/* The distinct option names over the table, in its order; built once. */
static const struct names *names(void)
{
	static struct names t;

	if (t.n) {
		return &t;
	}
	for (int i = 0; i < jd_matcher_count; i++) {
		for (int k = 0; k < jd_matchers[i]->nopts; k++) {
			const struct jd_matcher_opt *o = &jd_matchers[i]->opts[k];
			int j = 0;
			while (j < t.n && strcmp(t.first[j]->name, o->name)) {
				j++;
			}
			if (j == t.n && t.n < NAMES_MAX) {
				t.first[t.n] = o;
				snprintf(t.no[t.n], sizeof(t.no[0]), "no-%s", o->name);
				t.n++;
			}
		}
	}
	return &t;
}

int jd_cli_matcher_opts(struct option *opts, size_t max)
{
	const struct names *t = names();
	size_t n = 0;

	for (int j = 0; j < t->n; j++) {
		const struct jd_matcher_opt *o = t->first[j];
		int valued =
		    o->kind == JD_MOPT_INT || o->kind == JD_MOPT_FLOAT || o->kind == JD_MOPT_CHOICE;
		int code = JD_CLI_MATCHER_OPT_BASE + 2 * j;

		if (n + 2 > max) {
			return -1;
		}
		opts[n++] =
		    (struct option){o->name, valued ? required_argument : no_argument, NULL, code};
		if (o->kind == JD_MOPT_ONOFF) {
			opts[n++] = (struct option){t->no[j], no_argument, NULL, code + 1};
		}
	}
	return (int)n;
}

/* The value --name ARG (or --name, --no-name) gives, as the field's type wants it. */
static int parse(const struct jd_matcher_opt *o, int off, const char *arg, int *iv, float *fv)
{
	char flag[48];

	snprintf(flag, sizeof(flag), "--%s", o->name);
	switch (o->kind) {
	case JD_MOPT_INT:
		return jd_cli_int(flag, arg, iv);
	case JD_MOPT_FLOAT:
		return jd_cli_float(flag, arg, fv);
	case JD_MOPT_ONOFF:
		*iv = !off;
		return 0;
	case JD_MOPT_SET:
		*iv = o->value;
		return 0;
	case JD_MOPT_CHOICE:
		for (int c = 0; o->choices[c]; c++) {
			if (strcmp(arg, o->choices[c]) == 0) {
				*iv = c;
				return 0;
			}
		}
		fprintf(stderr, "jetdepth: %s %s: must be", flag, arg);
		for (int c = 0; o->choices[c]; c++) {
			fprintf(stderr, "%s %s",
				c == 0		    ? ""
				: o->choices[c + 1] ? ","
						    : " or",
				o->choices[c]);
		}
		fprintf(stderr, "\n");
		return -EINVAL;
	}
	return -EINVAL;
}

/* The names given on the command line or in a configuration, a bit each (checked at the end,
 * when --algo is known): one process parses one command. */
static uint64_t given;

int jd_cli_matcher_own_option(int opt, const char *arg, struct jd_match_params *p)
{
	const struct names *t = names();
	int j = (opt - JD_CLI_MATCHER_OPT_BASE) / 2, off = (opt - JD_CLI_MATCHER_OPT_BASE) % 2;
	int iv = 0;
	float fv = 0.0f;

	if (opt < JD_CLI_MATCHER_OPT_BASE || j >= t->n) {
		return 0;
	}
	if (parse(t->first[j], off, arg, &iv, &fv)) {
		return -EINVAL;
	}
	given |= 1ull << j;
	for (int i = 0; i < jd_matcher_count; i++) {
		for (int k = 0; k < jd_matchers[i]->nopts; k++) {
			const struct jd_matcher_opt *o = &jd_matchers[i]->opts[k];
			if (strcmp(o->name, t->first[j]->name) == 0) {
				void *field = (char *)p + o->offset;
				if (o->kind == JD_MOPT_FLOAT) {
					memcpy(field, &fv, sizeof(fv));
				} else {
					memcpy(field, &iv, sizeof(iv));
				}
			}
		}
	}
	return 1;
}

/* Whether matcher m has an option of this name. */
static int has_option(const struct jd_matcher *m, const char *name)
{
	for (int k = 0; k < m->nopts; k++) {
		if (!strcmp(m->opts[k].name, name)) {
			return 1;
		}
	}
	return 0;
}

int jd_cli_matcher_options_fit(const struct jd_match_params *p)
{
	const struct names *t = names();
	const struct jd_matcher *m = jd_matcher_of(p->algo);

	for (int j = 0; j < t->n && m; j++) {
		if (!(given >> j & 1)) {
			continue;
		}
		if (!has_option(m, t->first[j]->name)) { /* another's: it would do nothing */
			const char *owner = "another matcher";
			for (int i = 0; i < jd_matcher_count; i++) {
				if (has_option(jd_matchers[i], t->first[j]->name)) {
					owner = jd_matchers[i]->name;
				}
			}
			fprintf(stderr,
				"jetdepth: --%s: an option of %s, and the matcher is %s (--algo %s "
				"to use it)\n",
				t->first[j]->name, owner, m->name, owner);
			return -EINVAL;
		}
	}
	return 0;
}

/* "(default X)" from the defaults' field, or "" where a switch does not say it. */
static void default_of(const struct jd_matcher_opt *o, const struct jd_match_params *def, char *s,
		       size_t n)
{
	const char *field = (const char *)def + o->offset;
	int iv;
	float fv;

	memcpy(&iv, field, sizeof(iv));
	memcpy(&fv, field, sizeof(fv));
	switch (o->kind) {
	case JD_MOPT_INT:
		snprintf(s, n, " (default %d)", iv);
		return;
	case JD_MOPT_FLOAT:
		snprintf(s, n, " (default %g)", (double)fv);
		return;
	case JD_MOPT_ONOFF:
		snprintf(s, n, " (default %s)", iv ? "on" : "off");
		return;
	case JD_MOPT_CHOICE:
		snprintf(s, n, " (default %s)", o->choices[iv]);
		return;
	case JD_MOPT_SET:
		snprintf(s, n, "%s", iv == o->value ? " (default)" : "");
		return;
	}
	s[0] = '\0';
}

void jd_cli_matcher_own_help(char *s, size_t n)
{
	size_t used = 0;

	s[0] = '\0';
	for (int i = 0; i < jd_matcher_count && used < n; i++) {
		const struct jd_matcher *m = jd_matchers[i];
		struct jd_match_params def;

		jd_params_default(&def, m->algo, 64);
		used += (size_t)snprintf(s + used, n - used,
					 " %s: prefilter %s, rank window %d, tile overlap %d\n",
					 m->title, jd_prefilter_name(m->auto_prefilter),
					 m->rank_window, jd_tiling_default_overlap(&def));
		for (int k = 0; k < m->nopts && used < n; k++) {
			const struct jd_matcher_opt *o = &m->opts[k];
			char left[48], dflt[48];
			if (o->kind == JD_MOPT_ONOFF) {
				snprintf(left, sizeof(left), "--[no-]%s", o->name);
			} else {
				snprintf(left, sizeof(left), "--%s%s%s", o->name, o->arg ? " " : "",
					 o->arg ? o->arg : "");
			}
			default_of(o, &def, dflt, sizeof(dflt));
			used += (size_t)snprintf(s + used, n - used, "  %-22s %s%s\n", left,
						 o->help, dflt);
		}
	}
}

const char *jd_cli_matcher_names(void)
{
	static char s[128];
	size_t used = 0;

	for (int i = 0; i < jd_matcher_count && used < sizeof(s); i++) {
		const char *sep = i == 0 ? "" : i == jd_matcher_count - 1 ? " or " : ", ";
		used +=
		    (size_t)snprintf(s + used, sizeof(s) - used, "%s%s", sep, jd_matchers[i]->name);
	}
	return s;
}
