/* The matchers' table: one row a matcher (matcher_table.h). */
#include "matcher_table.h"

extern const struct jd_matcher jd_sad_matcher, jd_sgm_matcher, jd_bp_matcher;

/* the order --algo lists them in and the help shows them */
const struct jd_matcher *const jd_matchers[] = {&jd_bp_matcher, &jd_sgm_matcher, &jd_sad_matcher};
const int jd_matcher_count = sizeof(jd_matchers) / sizeof(jd_matchers[0]);

const struct jd_matcher *jd_matcher_of(enum jd_algo algo)
{
	for (int i = 0; i < jd_matcher_count; i++) {
		if (jd_matchers[i]->algo == algo) {
			return jd_matchers[i];
		}
	}
	return NULL;
}
