/*
 * The matchers' table and what the command line reads from it: every row is complete and
 * named as --algo names it, its defaults validate, every option of every row reaches its field
 * through the command line, a name two matchers share sets both, a bad value is refused by
 * name, and the help lists each option with the default the defaults hold.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "cli_matcher.h"
#include "jd_test.h"
#include "matcher_table.h"
#include "prefilter.h"
#include "tiling.h"

/* The getopt code of --name (off: --no-name), or -1. */
static int code_of(const char *name, int off)
{
	static struct option opts[JD_CLI_MAX_OPTIONS];
	char want[48];
	int n = jd_cli_matcher_opts(opts, JD_CLI_MAX_OPTIONS);

	snprintf(want, sizeof(want), "%s%s", off ? "no-" : "", name);
	for (int i = 0; i < n; i++) {
		if (strcmp(opts[i].name, want) == 0) {
			return opts[i].val;
		}
	}
	return -1;
}

static void rows(void)
{
	struct jd_match_params p;
	char err[256];

	JD_CHECK(jd_matcher_count == 3, "%d rows", jd_matcher_count);
	for (int i = 0; i < jd_matcher_count; i++) {
		const struct jd_matcher *m = jd_matchers[i];
		enum jd_algo a;
		JD_CHECK(m->defaults && m->validate && m->mem_required && m->run && m->overlap &&
			     m->main_kernel && m->label && m->opts && m->nopts > 0,
			 "row %s incomplete", m->name);
		JD_CHECK(jd_algo_parse(m->name, &a) == 0 && a == m->algo && jd_matcher_of(a) == m,
			 "row %s: --algo does not find it", m->name);
		jd_params_default(&p, m->algo, 64);
		JD_CHECK(jd_params_validate(&p, 450, 375, err, sizeof(err)) == 0, "%s: %s", m->name,
			 err);
		JD_CHECK(jd_tiling_default_overlap(&p) > 0, "%s: no overlap", m->name);
	}
	JD_CHECK(jd_matcher_of((enum jd_algo)99) == NULL, "an unknown algo has a row");
	/* what auto means, as the help says: census for BP, rank for SAD, none for SGM */
	jd_params_default(&p, JD_ALGO_BP, 64);
	JD_CHECK(jd_prefilter_census_on(&p) && !jd_prefilter_rank_on(&p), "bp auto");
	jd_params_default(&p, JD_ALGO_SAD, 64);
	JD_CHECK(jd_prefilter_rank_on(&p) && jd_rank_window(&p) == 9, "sad auto");
	jd_params_default(&p, JD_ALGO_SGM, 64);
	JD_CHECK(!jd_prefilter_rank_on(&p) && !jd_prefilter_census_on(&p), "sgm auto");
	p.prefilter = JD_PREFILTER_CENSUS;
	JD_CHECK(jd_params_validate(&p, 450, 375, err, sizeof(err)) == -EINVAL &&
		     strstr(err, "--prefilter census"),
		 "sgm took census: '%s'", err);
}

/* Every option of every row, given a value other than its default, lands in its field. */
static void every_option(void)
{
	for (int i = 0; i < jd_matcher_count; i++) {
		const struct jd_matcher *m = jd_matchers[i];
		for (int k = 0; k < m->nopts; k++) {
			const struct jd_matcher_opt *o = &m->opts[k];
			struct jd_match_params p, def;
			const char *arg = NULL;
			int off = 0, iv;
			float fv;
			jd_params_default(&def, m->algo, 64);
			p = def;
			memcpy(&iv, (char *)&def + o->offset, sizeof(iv));
			switch (o->kind) {
			case JD_MOPT_INT:
				arg = "3";
				break;
			case JD_MOPT_FLOAT:
				arg = "0.375";
				break;
			case JD_MOPT_ONOFF:
				off = iv != 0; /* the other state */
				break;
			case JD_MOPT_CHOICE:
				arg = o->choices[iv == 0 ? 1 : 0];
				break;
			case JD_MOPT_SET:
				break;
			}
			int code = code_of(o->name, off);
			JD_CHECK(code >= JD_CLI_MATCHER_OPT_BASE, "--%s%s has no code",
				 off ? "no-" : "", o->name);
			JD_CHECK(jd_cli_matcher_own_option(code, arg, &p) == 1, "--%s refused",
				 o->name);
			memcpy(&iv, (char *)&p + o->offset, sizeof(iv));
			memcpy(&fv, (char *)&p + o->offset, sizeof(fv));
			int ok = o->kind == JD_MOPT_INT	     ? iv == 3
				 : o->kind == JD_MOPT_FLOAT  ? fv == 0.375f
				 : o->kind == JD_MOPT_ONOFF  ? iv == !off
				 : o->kind == JD_MOPT_CHOICE ? strcmp(o->choices[iv], arg) == 0
							     : iv == o->value;
			JD_CHECK(ok, "%s --%s%s did not reach its field", m->name, off ? "no-" : "",
				 o->name);
		}
	}
}

static void shared_and_bad(void)
{
	struct jd_match_params p;

	jd_params_default(&p, JD_ALGO_SGM, 64);
	JD_CHECK(jd_cli_matcher_own_option(code_of("fill", 1), NULL, &p) == 1 && !p.sgm.fill &&
		     !p.sad.fill,
		 "--no-fill set one matcher only");
	JD_CHECK(jd_cli_matcher_own_option(code_of("subpixel", 0), NULL, &p) == 1 &&
		     p.sgm.subpixel && p.bp.subpixel && p.sad.subpixel,
		 "--subpixel set one matcher only");
	JD_CHECK(jd_cli_matcher_own_option(code_of("p1", 0), "x", &p) == -EINVAL, "--p1 x");
	JD_CHECK(jd_cli_matcher_own_option(code_of("cost", 0), "sad", &p) == -EINVAL, "--cost sad");
	JD_CHECK(p.sgm.p1 == 25 && p.sgm.cost == JD_SGM_COST_CENSUS, "a refused value landed");
	JD_CHECK(jd_cli_matcher_own_option(OPT_ALGO, "bp", &p) == 0, "--algo taken as own");
	JD_CHECK(strcmp(jd_cli_matcher_names(), "bp, sgm or sad") == 0, "names '%s'",
		 jd_cli_matcher_names());
}

static void help(void)
{
	const char *h = jd_cli_matcher_help();

	JD_CHECK(strstr(h, "--p1 N") && strstr(h, "small-change penalty (default 25)"), "p1");
	JD_CHECK(strstr(h, "--window N") && strstr(h, "(default 11)"), "window");
	JD_CHECK(strstr(h, "--float ") && strstr(h, "as float (default)"), "float");
	JD_CHECK(strstr(h, "--[no-]subpixel        equiangular sub-pixel fit (default on)"),
		 "SGM's subpixel on");
	/* each matcher's defaults beside its heading, from its row: what auto and 0 mean */
	JD_CHECK(strstr(h, " SAD: prefilter rank, rank window 9, tile overlap 10\n") &&
		     strstr(h, " SGM: prefilter none, rank window 7, tile overlap 128\n") &&
		     strstr(h, " BP: prefilter census, rank window 7, tile overlap 22\n"),
		 "headings with the defaults");
}

int main(void)
{
	rows();
	every_option();
	shared_and_bad();
	help();
	return jd_test_done("unit.matcher_table");
}
