/* BP: the message update by hand, reference == naive bit for bit, fp16 bounds. */
#include <math.h>

#include "bp.h"
#include "test_util.h"
#include "workers.h"

static void test_message_by_hand(void)
{
	/*
	 * h = [3 0 5 1], disc_k 1.5: forward [3 0 1 1], backward [1 0 1 1], min 0, cap 1.5 keeps
	 * all, mean 0.75 -> [0.25 -0.75 0.25 0.25].
	 */
	float h[4] = {3, 0, 5, 1};
	float want[4] = {0.25f, -0.75f, 0.25f, 0.25f};

	jd_bp_message_1d(h, 4, 1.5f);
	for (int d = 0; d < 4; d++) {
		JD_CHECK(h[d] == want[d], "d %d: %g, want %g", d, (double)h[d], (double)want[d]);
	}
	/* h = [10 0 10 10]: passes give [1 0 1 2], the cap 0 + 1.5 cuts d = 3, mean 0.875. */
	float g[4] = {10, 0, 10, 10};
	float want2[4] = {0.125f, -0.875f, 0.125f, 0.625f};

	jd_bp_message_1d(g, 4, 1.5f);
	for (int d = 0; d < 4; d++) {
		JD_CHECK(g[d] == want2[d], "d %d: %g, want %g", d, (double)g[d], (double)want2[d]);
	}
}

/* The vectorised reference and the plain implementation give identical maps. */
static void test_ref_equals_naive(int w, int h, int nd, int levels, const struct jd_exec *ex)
{
	struct jd_match_params p;
	struct pair pr;
	size_t n;
	void *ws;

	make_shifted_pair(&pr, w, h, nd / 3, (unsigned)(w * 31 + h));
	jd_params_default(&p, JD_ALGO_BP, nd);
	p.bp.levels = levels;
	p.prefilter = JD_PREFILTER_NONE; /* the seed matches raw intensities */
	JD_CHECK(run_matcher(&p, &pr, jd_exec_workers(ex), ex) == 0, "ref run");
	n = jd_bp_naive_mem_required(&p, w, h);
	ws = malloc(n);
	struct jd_disp naive = {malloc(sizeof(float) * w * h), w, h, w};
	JD_CHECK(jd_bp_naive(&p, &pr.l, &pr.r, &naive, ws, n) == 0, "naive run");
	JD_CHECK(memcmp(naive.data, pr.d.data, sizeof(float) * w * h) == 0,
		 "%dx%d ndisp %d levels %d: reference differs from naive", w, h, nd, levels);
	free(ws);
	free(naive.data);
	free_pair(&pr);
}

/* fp16 storage at large disparity counts: no overflow, the shift is still found. */
static void test_fp16_large(int nd, const struct jd_exec *ex)
{
	struct jd_match_params p;
	struct pair pr;
	int shift = nd * 3 / 5;

	make_shifted_pair(&pr, nd + 64, 32, shift, (unsigned)nd);
	jd_params_default(&p, JD_ALGO_BP, nd);
	p.bp.fp16 = 1;
	JD_CHECK(run_matcher(&p, &pr, jd_exec_workers(ex), ex) == 0, "fp16 run");
	double ok = share_equal(&pr.d, shift + 4, (float)shift);
	JD_CHECK(ok > 0.95, "fp16 ndisp %d finds the shift on %.3f of the pixels", nd, ok);
	free_pair(&pr);
}

int main(void)
{
	struct jd_workers w;
	struct jd_match_params p;
	char err[160];

	test_message_by_hand();
	jd_workers_init(&w, 2);
	test_ref_equals_naive(64, 48, 16, 5, NULL);
	test_ref_equals_naive(67, 45, 16, 3, &w.exec);
	test_ref_equals_naive(101, 77, 20, 5, &w.exec);
	test_ref_equals_naive(33, 17, 8, 5, NULL);
	test_ref_equals_naive(40, 9, 35, 1, &w.exec);
	test_fp16_large(256, &w.exec);
	test_fp16_large(512, &w.exec);

	jd_params_default(&p, JD_ALGO_BP, 16);
	p.bp.levels = 9;
	JD_CHECK(jd_params_validate(&p, 384, 288, err, sizeof(err)) == -EINVAL &&
			 strstr(err, "--levels 9"),
		 "%s", err);
	p.bp.levels = 5;
	p.bp.lambda = -1.0f;
	JD_CHECK(jd_params_validate(&p, 384, 288, err, sizeof(err)) == -EINVAL &&
			 strstr(err, "--lambda"),
		 "%s", err);
	jd_workers_deinit(&w);
	return jd_test_done("unit.bp");
}
