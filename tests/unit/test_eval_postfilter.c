/* Evaluation counts, median and fill on hand-made maps. */
#include <math.h>

#include "eval.h"
#include "jd_test.h"
#include "postfilter.h"

int main(void)
{
	/* 4 pixels with truth 10: errors 0.25, 0.75, 1.5 and one invalid; one unknown truth. */
	float d[5] = {10.25f, 9.25f, 11.5f, JD_DISP_INVALID, 3.0f};
	float g[5] = {10, 10, 10, 10, INFINITY};
	uint8_t m[5] = {255, 255, 255, 255, 255};
	struct jd_disp dm = {d, 5, 1, 5}, gm = {g, 5, 1, 5};
	struct jd_image mask = {m, 5, 1, 5};
	struct jd_eval_result r;

	jd_eval(&dm, &gm, &mask, &r);
	JD_CHECK(r.evaluated == 4, "unknown truth skipped: %ld", r.evaluated);
	JD_CHECK(fabs(r.bad[0] - 75.0) < 1e-9, "bad0.5 %g", r.bad[0]); /* 0.75, 1.5, invalid */
	JD_CHECK(fabs(r.bad[1] - 50.0) < 1e-9, "bad1 %g", r.bad[1]);   /* 1.5, invalid */
	JD_CHECK(fabs(r.bad[3] - 25.0) < 1e-9, "bad4 %g", r.bad[3]);   /* invalid only */
	JD_CHECK(fabs(r.mae - 2.5 / 3) < 1e-9, "mae %g", r.mae);
	JD_CHECK(fabs(r.invalid - 25.0) < 1e-9, "invalid %g", r.invalid);
	m[1] = 0;
	jd_eval(&dm, &gm, &mask, &r);
	JD_CHECK(r.evaluated == 3, "mask respected: %ld", r.evaluated);

	/* Median: the outlier in the middle of a flat 3x3 goes; invalid stays invalid. */
	float in[9] = {1, 1, 1, 1, 50, 1, 1, 1, JD_DISP_INVALID}, out[9];
	struct jd_disp a = {in, 3, 3, 3}, b = {out, 3, 3, 3};
	jd_median3x3_ref(&a, &b, NULL);
	JD_CHECK(out[4] == 1.0f, "median removes the outlier: %g", (double)out[4]);
	JD_CHECK(!jd_disp_is_valid(out[8]), "invalid stays invalid");

	/* Fill takes the farther (smaller) of the two neighbours; an empty row stays empty. */
	float row[7] = {8, JD_DISP_INVALID, JD_DISP_INVALID, 3, JD_DISP_INVALID,
			5, JD_DISP_INVALID};
	struct jd_disp f = {row, 7, 1, 7};
	jd_fill_invalid_ref(&f, NULL);
	JD_CHECK(row[1] == 3 && row[2] == 3, "between 8 and 3: 3 (%g %g)", (double)row[1],
		 (double)row[2]);
	JD_CHECK(row[4] == 3, "between 3 and 5: 3 (%g)", (double)row[4]);
	JD_CHECK(row[6] == 5, "edge: the one neighbour (%g)", (double)row[6]);
	float empty[3] = {JD_DISP_INVALID, JD_DISP_INVALID, JD_DISP_INVALID};
	struct jd_disp e = {empty, 3, 1, 3};
	jd_fill_invalid_ref(&e, NULL);
	JD_CHECK(!jd_disp_is_valid(empty[1]), "nothing to fill from");
	return jd_test_done("unit.eval_postfilter");
}
