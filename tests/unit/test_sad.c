/* SAD recovers a known shift exactly; options and edge cases. */
#include "sad.h"
#include "test_util.h"
#include "workers.h"

int main(void)
{
	struct jd_match_params p;
	struct jd_workers w;
	struct pair pr;
	char err[128];

	jd_workers_init(&w, 3);
	make_shifted_pair(&pr, 131, 47, 9, 1u);
	jd_params_default(&p, JD_ALGO_SAD, 16);
	JD_CHECK(jd_params_validate(&p, 131, 47, err, sizeof(err)) == 0, "%s", err);

	/* Pure winner-takes-all: every pixel whose window lies on shifted content is exact. */
	p.sad.lr_check = p.sad.fill = p.sad.median = 0;
	JD_CHECK(run_matcher(&p, &pr, 3, &w.exec) == 0, "run");
	JD_CHECK(share_equal(&pr.d, 9 + 5, 9.0f) == 1.0, "interior recovers 9 exactly: %.4f",
		 share_equal(&pr.d, 14, 9.0f));

	/* The defaults (left-right check, fill, median) keep the interior exact too. */
	jd_params_default(&p, JD_ALGO_SAD, 16);
	JD_CHECK(run_matcher(&p, &pr, 3, &w.exec) == 0, "run");
	JD_CHECK(share_equal(&pr.d, 14, 9.0f) == 1.0, "defaults: %.4f", share_equal(&pr.d, 14, 9.0f));
	for (int i = 0; i < 131 * 47; i++) {
		JD_CHECK(jd_disp_is_valid(pr.d.data[i]), "fill leaves no invalid pixel (%d)", i);
	}

	/* Serial and threaded runs agree bit for bit; so does a 1x1 window. */
	struct jd_disp keep = {malloc(sizeof(float) * 131 * 47), 131, 47, 131};
	memcpy(keep.data, pr.d.data, sizeof(float) * 131 * 47);
	JD_CHECK(run_matcher(&p, &pr, 1, NULL) == 0, "serial run");
	JD_CHECK(memcmp(keep.data, pr.d.data, sizeof(float) * 131 * 47) == 0,
		 "serial == threaded");
	free(keep.data);

	/* Minimum disparity: searching 5..20 still finds 9; searching 10.. cannot. */
	p.min_disp = 5;
	JD_CHECK(run_matcher(&p, &pr, 3, &w.exec) == 0, "run");
	JD_CHECK(share_equal(&pr.d, 14, 9.0f) == 1.0, "min_disp 5");

	/* Too small a workspace is refused, not overrun. */
	void *tiny = malloc(64);
	JD_CHECK(jd_sad_ref(&p, &pr.l, &pr.r, &pr.d, tiny, 64, NULL) == -ENOMEM,
		 "small workspace");
	free(tiny);

	/* Even window refused by validation with the option named. */
	p.sad.window = 4;
	JD_CHECK(jd_params_validate(&p, 131, 47, err, sizeof(err)) == -EINVAL &&
			 strstr(err, "--window 4"),
		 "%s", err);
	free_pair(&pr);
	jd_workers_deinit(&w);
	return jd_test_done("unit.sad");
}
