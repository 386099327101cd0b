/* Parameter validation names the option and the value. */
#include <string.h>

#include "jd_params.h"
#include "jd_test.h"

static void expect(const struct jd_match_params *p, int w, int h, const char *needle)
{
	char err[256] = "";

	JD_CHECK(jd_params_validate(p, w, h, err, sizeof(err)) == -EINVAL && strstr(err, needle),
		 "expected '%s', got '%s'", needle, err);
}

int main(void)
{
	struct jd_match_params p;
	char err[256];

	for (int a = JD_ALGO_SAD; a <= JD_ALGO_BP; a++) {
		jd_params_default(&p, (enum jd_algo)a, 64);
		JD_CHECK(jd_params_validate(&p, 450, 375, err, sizeof(err)) == 0, "%s: %s",
			 jd_algo_name((enum jd_algo)a), err);
	}
	jd_params_default(&p, JD_ALGO_SGM, 0);
	expect(&p, 450, 375, "--ndisp 0");
	jd_params_default(&p, JD_ALGO_SGM, 500);
	expect(&p, 450, 375, "exceeds the image width 450");
	jd_params_default(&p, JD_ALGO_SGM, 64);
	p.min_disp = -1;
	expect(&p, 450, 375, "--min-disp -1");
	jd_params_default(&p, JD_ALGO_SGM, 64);
	p.sgm.p2 = 5;
	expect(&p, 450, 375, "--p2 5: must be larger than --p1");
	p.sgm.p2 = 5000;
	expect(&p, 450, 375, "--p2 5000: too large");
	p.sgm.p2 = 256; /* path costs are bytes: 255 is the largest exact P2 */
	expect(&p, 450, 375,
	       "--p2 256: too large; path costs are bytes, so P2 must be at most 255");
	p.sgm.p2 = 255;
	JD_CHECK(jd_params_validate(&p, 450, 375, err, sizeof(err)) == 0, "--p2 255: %s", err);
	p.sgm.p2 = 200;
	p.sgm.paths = 6;
	expect(&p, 450, 375, "--paths 6");
	jd_params_default(&p, JD_ALGO_SAD, 64);
	p.sad.window = 0;
	expect(&p, 450, 375, "--window 0");
	jd_params_default(&p, JD_ALGO_BP, 64);
	p.bp.iters = 0;
	expect(&p, 450, 375, "--iters 0");
	jd_params_default(&p, JD_ALGO_BP, 64);
	p.bp.fp16 = 1;
	p.bp.levels = 8;
	p.bp.lambda = 10.0f;
	p.bp.data_k = 255.0f;
	expect(&p, 450, 375, "overflow fp16");
	enum jd_algo algo;
	JD_CHECK(jd_algo_parse("bp", &algo) == 0 && algo == JD_ALGO_BP, "parse bp");
	JD_CHECK(jd_algo_parse("nope", &algo) == -EINVAL, "unknown algo");
	return jd_test_done("unit.params");
}
