/*
 * BP: the message update by hand, the census cost by hand, reference == naive bit for bit,
 * fp16 bounds.
 */
#include <math.h>

#include "bp.h"
#include "bp_priv.h"
#include "prefilter.h"
#include "test_util.h"
#include "workers.h"

static void test_message_by_hand(void)
{
	/*
	 * h = [3 2 5 3], disc_k 1.5: forward [3 2 3 3], backward [3 2 3 3], min 2, cap 3.5 keeps
	 * all, the minimum subtracted -> [1 0 1 1].
	 */
	float h[4] = {3, 2, 5, 3};
	float want[4] = {1.0f, 0.0f, 1.0f, 1.0f};

	jd_bp_message_1d(h, 4, 1.5f);
	for (int d = 0; d < 4; d++) {
		JD_CHECK(h[d] == want[d], "d %d: %g, want %g", d, (double)h[d], (double)want[d]);
	}
	/* h = [10 0 10 10]: passes give [1 0 1 2], the cap 0 + 1.5 cuts d = 3 to 1.5. */
	float g[4] = {10, 0, 10, 10};
	float want2[4] = {1.0f, 0.0f, 1.0f, 1.5f};

	jd_bp_message_1d(g, 4, 1.5f);
	for (int d = 0; d < 4; d++) {
		JD_CHECK(g[d] == want2[d], "d %d: %g, want %g", d, (double)g[d], (double)want2[d]);
	}
}

static uint32_t code_at(const float *codes, int i)
{
	uint32_t c;

	memcpy(&c, &codes[i], sizeof(c));
	return c;
}

/*
 * Census codes: a bit per 5x5 neighbour darker than the centre by more than the margin,
 * row-major from the top left, first neighbour in bit 23; edges replicated.
 */
static void test_census_by_hand(void)
{
	float im[25], codes[25];

	for (int i = 0; i < 25; i++) {
		im[i] = 100.0f;
	}
	im[0] = 97.0f;	/* (0,0): 3 darker than the centre: bit 23 */
	im[2] = 50.0f;	/* (2,0): bit 21 */
	im[24] = 98.0f; /* (4,4): only 2 darker, inside the margin: no bit */
	jd_bp_census(im, 5, 5, codes, NULL);
	JD_CHECK(code_at(codes, 12) == (1u << 23 | 1u << 21), "centre code %06x, want a00000",
		 code_at(codes, 12));
	/*
	 * (4,0) at the top right: replicated, its rows above are row 0; the 50 at (2,0) is
	 * dx = -2 in rows dy = -2, -1, 0 (bits 23, 18, 13), nothing else is darker than 98.
	 */
	JD_CHECK(code_at(codes, 4) == (1u << 23 | 1u << 18 | 1u << 13), "corner code %06x",
		 code_at(codes, 4));
	JD_CHECK(code_at(codes, 2) == 0, "the darkest pixel has no darker neighbour: %06x",
		 code_at(codes, 2));
}

/*
 * Level 0's data costs with the census cost: lambda * min(Hamming distance, data_k), on the
 * 1/16 grid (0.1 * 3 = 0.3 becomes 5/16).
 */
static void test_census_costs(void)
{
	int w = 40, h = 12, nd = 8;
	struct jd_match_params p;
	struct pair pr;
	struct jd_bp_level_view lv[JD_BP_LEVELS_MAX];
	float *lf = malloc(sizeof(float) * w * h), *rf = malloc(sizeof(float) * w * h);
	float *lc = malloc(sizeof(float) * w * h), *rc = malloc(sizeof(float) * w * h);
	long checked = 0, bad = 0;

	make_shifted_pair(&pr, w, h, 3, 77u);
	jd_params_default(&p, JD_ALGO_BP, nd);
	p.bp.levels = 2;
	JD_CHECK(jd_prefilter_census_on(&p), "census is BP's default");
	size_t n = jd_bp_mem_required(&p, w, h, 1);
	void *ws = malloc(n);
	JD_CHECK(jd_bp_ref(&p, &pr.l, &pr.r, &pr.d, ws, n, NULL) == 0, "census run");
	jd_bp_levels(&p, w, h, 1, ws, lv);
	jd_bp_prepare_image(&pr.l, 0.0f, lf, lc);
	jd_bp_prepare_image(&pr.r, 0.0f, rf, rc);
	jd_bp_census(lf, w, h, lc, NULL);
	jd_bp_census(rf, w, h, rc, NULL);
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			int c = (x + y) & 1, i = x / 2;

			for (int d = 0; d < nd; d++) {
				int hd = x - d >= 0 ? __builtin_popcount(code_at(lc, y * w + x) ^
									 code_at(rc, y * w + x - d))
						    : 15;
				float want =
				    rintf(16.0f * p.bp.lambda * (float)(hd < 15 ? hd : 15)) / 16.0f;
				size_t o = (size_t)(2 * y + c) * nd * lv[0].hp + 1 +
					   (size_t)d * lv[0].hp + i;

				bad += ((const float *)lv[0].data)[o] != want;
				checked++;
			}
		}
	}
	JD_CHECK(checked == (long)w * h * nd && bad == 0, "%ld of %ld level-0 costs differ", bad,
		 checked);
	JD_CHECK(share_equal(&pr.d, 8, 3.0f) > 0.9, "the census cost finds the shift");
	free(ws);
	free(lf);
	free(rf);
	free(lc);
	free(rc);
	free_pair(&pr);
}

/* The vectorised reference and the plain implementation give identical maps. */
static void test_ref_equals_naive(int w, int h, int nd, int levels, int subpixel,
				  const struct jd_exec *ex)
{
	struct jd_match_params p;
	struct pair pr;
	size_t n;
	void *ws;

	make_shifted_pair(&pr, w, h, nd / 3, (unsigned)(w * 31 + h));
	jd_params_default(&p, JD_ALGO_BP, nd);
	p.bp.levels = levels;
	p.bp.subpixel = subpixel;
	p.prefilter = JD_PREFILTER_NONE; /* the seed matches raw intensities */
	JD_CHECK(run_matcher(&p, &pr, jd_exec_workers(ex), ex) == 0, "ref run");
	n = jd_bp_naive_mem_required(&p, w, h);
	ws = malloc(n);
	struct jd_disp naive = {malloc(sizeof(float) * w * h), w, h, w};
	JD_CHECK(jd_bp_naive(&p, &pr.l, &pr.r, &naive, ws, n) == 0, "naive run");
	JD_CHECK(memcmp(naive.data, pr.d.data, sizeof(float) * w * h) == 0,
		 "%dx%d ndisp %d levels %d subpixel %d: reference differs from naive", w, h, nd,
		 levels, subpixel);
	free(ws);
	free(naive.data);
	free_pair(&pr);
}

/*
 * The sub-pixel refinement moves each winner by at most half a pixel, leaves the range's
 * ends whole, and moves some: the same frame with and without it.
 */
static void test_subpixel(int fp16, const struct jd_exec *ex)
{
	struct jd_match_params p;
	struct pair pr;
	int w = 96, h = 40, nd = 24;
	long moved = 0;

	make_shifted_pair(&pr, w, h, 7, 5u);
	jd_params_default(&p, JD_ALGO_BP, nd);
	p.bp.fp16 = fp16;
	JD_CHECK(run_matcher(&p, &pr, jd_exec_workers(ex), ex) == 0, "whole run");
	float *whole = malloc(sizeof(float) * w * h);
	memcpy(whole, pr.d.data, sizeof(float) * w * h);
	p.bp.subpixel = 1;
	JD_CHECK(run_matcher(&p, &pr, jd_exec_workers(ex), ex) == 0, "refined run");
	for (int i = 0; i < w * h; i++) {
		float d = whole[i], r = pr.d.data[i];
		int end = d == (float)p.min_disp || d == (float)(p.min_disp + nd - 1);

		JD_CHECK(fabsf(r - d) <= 0.5f && (!end || r == d),
			 "fp16 %d pixel %d: %g refined to %g", fp16, i, (double)d, (double)r);
		moved += r != d;
	}
	JD_CHECK(moved > w * h / 10, "fp16 %d: the refinement moved %ld of %d pixels", fp16, moved,
		 w * h);
	free(whole);
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
	test_census_by_hand();
	test_census_costs();
	jd_workers_init(&w, 2);
	test_ref_equals_naive(64, 48, 16, 5, 0, NULL);
	test_ref_equals_naive(67, 45, 16, 3, 1, &w.exec);
	test_ref_equals_naive(101, 77, 20, 5, 0, &w.exec);
	test_ref_equals_naive(33, 17, 8, 5, 1, NULL);
	test_ref_equals_naive(40, 9, 35, 1, 0, &w.exec);
	test_subpixel(0, &w.exec);
	test_subpixel(1, &w.exec);
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
