#include "jd_params.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "matcher_table.h"

void jd_params_default(struct jd_match_params *p, enum jd_algo algo, int ndisp)
{
	memset(p, 0, sizeof(*p));
	p->algo = algo;
	p->ndisp = ndisp;
	p->min_disp = 0;
	/* every matcher's fields: a later --algo keeps the others' defaults */
	for (int i = 0; i < jd_matcher_count; i++) {
		jd_matchers[i]->defaults(p);
	}
}

const char *jd_algo_name(enum jd_algo algo)
{
	const struct jd_matcher *m = jd_matcher_of(algo);

	return m ? m->name : "?";
}

int jd_algo_parse(const char *name, enum jd_algo *out)
{
	for (int i = 0; i < jd_matcher_count; i++) {
		if (strcmp(name, jd_matchers[i]->name) == 0) {
			*out = jd_matchers[i]->algo;
			return 0;
		}
	}
	return -EINVAL;
}

const char *jd_prefilter_name(enum jd_prefilter f)
{
	switch (f) {
	case JD_PREFILTER_AUTO:
		return "auto";
	case JD_PREFILTER_NONE:
		return "none";
	case JD_PREFILTER_RANK:
		return "rank";
	case JD_PREFILTER_CENSUS:
		return "census";
	}
	return "?";
}

int jd_prefilter_parse(const char *name, enum jd_prefilter *out)
{
	static const enum jd_prefilter all[] = {JD_PREFILTER_AUTO, JD_PREFILTER_NONE,
						JD_PREFILTER_RANK, JD_PREFILTER_CENSUS};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (strcmp(name, jd_prefilter_name(all[i])) == 0) {
			*out = all[i];
			return 0;
		}
	}
	return -EINVAL;
}

int jd_params_validate(const struct jd_match_params *p, int width, int height, char *err,
		       size_t errlen)
{
	if (width < 1 || height < 1) {
		JD_MATCHER_FAIL("image size %dx%d: must be at least 1x1", width, height);
	}
	if (p->ndisp < 2 || p->ndisp > JD_NDISP_MAX) {
		JD_MATCHER_FAIL("--ndisp %d: must be between 2 and %d", p->ndisp, JD_NDISP_MAX);
	}
	if (p->min_disp < 0) {
		JD_MATCHER_FAIL("--min-disp %d: must be 0 or more", p->min_disp);
	}
	if (p->tiles < 0 || p->tiles > height) {
		JD_MATCHER_FAIL("--tiles %d: must be 0 (automatic) to %d (the image's rows)",
				p->tiles, height);
	}
	if (p->tile_overlap < 0 || p->tile_overlap > height) {
		JD_MATCHER_FAIL("--tile-overlap %d: must be 0 (the matcher's default) to %d",
				p->tile_overlap, height);
	}
	if (p->rank_window && (p->rank_window < 3 || p->rank_window % 2 == 0 ||
			       p->rank_window > JD_RANK_WINDOW_MAX)) {
		JD_MATCHER_FAIL(
		    "--rank-window %d: must be 0 (the matcher's default) or odd, 3 to %d",
		    p->rank_window, JD_RANK_WINDOW_MAX);
	}
	if ((unsigned)p->prefilter > JD_PREFILTER_CENSUS) {
		JD_MATCHER_FAIL("--prefilter %d: unknown prefilter", (int)p->prefilter);
	}
	const struct jd_matcher *m = jd_matcher_of(p->algo);
	if (!m) {
		JD_MATCHER_FAIL("--algo %d: unknown matcher", (int)p->algo);
	}
	if (p->prefilter == JD_PREFILTER_CENSUS && m->census_radius == 0) {
		JD_MATCHER_FAIL("--prefilter census: BP's cost only (%s takes none or rank)",
				m->title);
	}
	if (p->min_disp > width - p->ndisp) { /* written so that no sum can wrap */
		if (p->min_disp >= width) {
			JD_MATCHER_FAIL("--min-disp %d: must be less than the image width %d",
					p->min_disp, width);
		}
		JD_MATCHER_FAIL("--ndisp %d: with --min-disp %d it exceeds the image width %d",
				p->ndisp, p->min_disp, width);
	}
	return m->validate(p, width, height, err, errlen);
}
