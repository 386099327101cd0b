/* SGM: the path recurrence by hand on one row, each direction against the sweeps, census, and
 * whole-matcher properties. */
#include "sgm.h"
#include "test_util.h"
#include "workers.h"

static void test_recurrence_by_hand(void)
{
	/* Costs C(x, d) for a 3x1 image, 4 disparities; P1 = 2, P2 = 5, constant P2. */
	static const uint8_t cost[3 * 4] = {1, 4, 0, 3, 5, 0, 2, 6, 2, 3, 7, 1};
	/*
	 * Left to right:  L(x0) = C = [1 4 0 3] (min 0)
	 *   L(x1) = C + min(L, L(d+-1) + 2, 0 + 5) - 0 = [5+1, 0+2, 2+0, 6+2] = [6 2 2 8] (min 2)
	 *   L(x2) = [2+4-2, 3+2-2, 7+2-2, 1+4-2] = [4 3 7 3]
	 * Right to left:  L(x2) = [2 3 7 1] (min 1)
	 *   L(x1) = [5+2-1, 0+3-1, 2+3-1, 6+1-1] = [6 2 4 6] (min 2)
	 *   L(x0) = [1+4-2, 4+2-2, 0+4-2, 3+6-2] = [3 4 2 7]
	 * On one row the vertical (and diagonal) paths start at every pixel: L = C.
	 */
	static const uint16_t fwd4[12] = {2, 8, 0, 6, 11, 2, 4, 14, 6, 6, 14, 4};
	static const uint16_t bwd4[12] = {4, 8, 2, 10, 11, 2, 6, 12, 4, 6, 14, 2};
	uint8_t img[3] = {10, 20, 30};
	struct jd_image guide = {img, 3, 1, 3};
	struct jd_match_params p;
	uint16_t sf[12], sb[12];

	jd_params_default(&p, JD_ALGO_SGM, 4);
	p.sgm.p1 = 2;
	p.sgm.p2 = 5;
	p.sgm.p2_adapt = 0;
	for (int paths = 4; paths <= 8; paths += 4) {
		void *ws = malloc(2 * jd_sgm_sweep_mem_required(3, 4));

		p.sgm.paths = paths;
		jd_sgm_aggregate_ref(&p, &guide, cost, sf, sb, ws, NULL);
		for (int i = 0; i < 12; i++) {
			/* 8 paths add the two diagonals, each = C on a single row. */
			int extra = paths == 8 ? 2 * cost[i] : 0;
			JD_CHECK(sf[i] == fwd4[i] + extra, "paths %d fwd[%d] = %d, want %d", paths,
				 i, sf[i], fwd4[i] + extra);
			JD_CHECK(sb[i] == bwd4[i] + extra, "paths %d bwd[%d] = %d, want %d", paths,
				 i, sb[i], bwd4[i] + extra);
		}
		free(ws);
	}
}

/*
 * The per-direction reference (what the GPU's direction kernels are checked against): its
 * eight directions add up to the two sweeps' sums, with adaptive P2 and odd sizes.
 */
/*
 * The vertical paths' levels (census, 8 paths): on a single pixel every path starts there, so
 * each adds t = C, except the vertical ones, which add min C + q(C - min C): q exact below 8,
 * then the middle of each step of 16 (20 -> 24, 40 -> 40), 120 at the top (200 -> 120).
 */
static void test_vertical_levels(void)
{
	static const uint8_t cost[5] = {3, 23, 43, 203, 10};
	static const int q[5] = {0, 24, 40, 120, 7}; /* q(C - 3) */
	uint8_t img[1] = {50};
	struct jd_image guide = {img, 1, 1, 1};
	struct jd_match_params p;
	uint16_t sf[5], sb[5];
	void *ws = malloc(2 * jd_sgm_sweep_mem_required(1, 5));

	for (int ad = 0; ad < 2; ad++) {
		for (int paths = 4; paths <= 8; paths += 4) {
			jd_params_default(&p, JD_ALGO_SGM, 5);
			p.sgm.cost = ad ? JD_SGM_COST_AD : JD_SGM_COST_CENSUS;
			p.sgm.paths = paths;
			jd_sgm_aggregate_ref(&p, &guide, cost, sf, sb, ws, NULL);
			for (int d = 0; d < 5; d++) {
				int levels = !ad && paths == 8;
				int want = (paths / 2 - levels) * cost[d] + (levels ? 3 + q[d] : 0);
				JD_CHECK(sf[d] == want && sb[d] == want,
					 "ad %d paths %d d %d: sums %d %d, want %d", ad, paths, d,
					 sf[d], sb[d], want);
			}
		}
	}
	free(ws);
}

static void test_paths_add_up_to_sweeps(void)
{
	static const int dirs[8][2] = {{1, 0},	{0, 1},	 {1, 1},   {-1, 1},
				       {-1, 0}, {0, -1}, {-1, -1}, {1, -1}};
	const int w = 23, h = 17, nd = 9;
	size_t n = (size_t)w * h * nd;
	uint8_t *img = malloc((size_t)w * h), *cost = malloc(n);
	uint16_t *sf = malloc(2 * n), *sb = malloc(2 * n), *paths = malloc(2 * n);
	void *sweep = malloc(2 * jd_sgm_sweep_mem_required(w, nd));
	void *ws = malloc(jd_sgm_path_mem_required(w, nd));
	struct jd_image guide = {img, w, h, w};
	struct jd_match_params p;
	uint32_t s = 7u;

	for (int i = 0; i < w * h; i++) {
		s = s * 1103515245u + 12345u;
		img[i] = (uint8_t)(s >> 24);
	}
	for (size_t i = 0; i < n; i++) {
		s = s * 1103515245u + 12345u;
		cost[i] = (uint8_t)((s >> 20) % 63);
	}
	jd_params_default(&p, JD_ALGO_SGM, nd);
	for (int np = 4; np <= 8; np += 4) {
		long bad = 0, first = -1;

		p.sgm.paths = np;
		jd_sgm_aggregate_ref(&p, &guide, cost, sf, sb, sweep, NULL);
		memset(paths, 0, 2 * n);
		for (int k = 0; k < 8; k++) {
			if (np == 4 && dirs[k][0] && dirs[k][1]) {
				continue; /* 4 paths: no diagonals */
			}
			jd_sgm_path_ref(&p, &guide, cost, dirs[k][0], dirs[k][1], paths, ws);
		}
		for (size_t i = 0; i < n; i++) {
			if ((uint16_t)(sf[i] + sb[i]) != paths[i]) {
				first = first < 0 ? (long)i : first;
				bad++;
			}
		}
		JD_CHECK(bad == 0, "%d paths: %ld sums differ, first at %ld", np, bad, first);
	}
	free(img);
	free(cost);
	free(sf);
	free(sb);
	free(paths);
	free(sweep);
	free(ws);
}

static void test_census(void)
{
	/* A single bright pixel: its own census is all zeros, a dark neighbour sees one bit. */
	uint8_t img[9 * 7] = {0};
	struct jd_image im = {img, 9, 7, 9};
	uint64_t c[9 * 7];

	img[3 * 9 + 4] = 200;
	jd_census_ref(&im, c, NULL);
	JD_CHECK(c[3 * 9 + 4] == ((1ull << JD_CENSUS_BITS) - 1), "centre: every neighbour darker");
	JD_CHECK(__builtin_popcountll(c[3 * 9 + 5]) == 0, "right neighbour: none darker");
	JD_CHECK(c[0] == 0, "flat corner");
}

int main(void)
{
	struct jd_match_params p;
	struct jd_workers w;
	struct pair pr;

	test_recurrence_by_hand();
	test_vertical_levels();
	test_paths_add_up_to_sweeps();
	test_census();
	jd_workers_init(&w, 2);
	make_shifted_pair(&pr, 97, 61, 7, 5u);
	for (int cost = 0; cost < 2; cost++) {
		for (int paths = 4; paths <= 8; paths += 4) {
			jd_params_default(&p, JD_ALGO_SGM, 16);
			p.sgm.cost = cost ? JD_SGM_COST_AD : JD_SGM_COST_CENSUS;
			p.sgm.paths = paths;
			p.sgm.subpixel = 0; /* exact integer shift: compare exactly */
			JD_CHECK(run_matcher(&p, &pr, 2, &w.exec) == 0, "run");
			/* Random texture: away from the left band and the census border, exact. */
			JD_CHECK(share_equal(&pr.d, 7 + 5, 7.0f) > 0.995, "cost %d paths %d: %.4f",
				 cost, paths, share_equal(&pr.d, 12, 7.0f));
		}
	}
	/* Threaded and serial agree exactly; the left band without a match gets filled. */
	struct jd_disp keep = {malloc(sizeof(float) * 97 * 61), 97, 61, 97};
	memcpy(keep.data, pr.d.data, sizeof(float) * 97 * 61);
	JD_CHECK(run_matcher(&p, &pr, 1, NULL) == 0, "serial");
	JD_CHECK(memcmp(keep.data, pr.d.data, sizeof(float) * 97 * 61) == 0, "serial == threaded");

	/* Without fill, the left-right check marks the occluded left band invalid. */
	p.sgm.fill = 0;
	p.sgm.median = 0;
	JD_CHECK(run_matcher(&p, &pr, 2, &w.exec) == 0, "run");
	long invalid = 0;
	for (int y = 0; y < 61; y++) {
		for (int x = 0; x < 7; x++) {
			invalid += !jd_disp_is_valid(jd_disp_row(&pr.d, y)[x]);
		}
	}
	JD_CHECK(invalid > 61 * 7 / 2, "occluded band mostly invalid: %ld of %d", invalid, 61 * 7);

	/* ndisp 512 works (peers stop at 256). */
	struct pair big;
	make_shifted_pair(&big, 600, 24, 300, 9u);
	jd_params_default(&p, JD_ALGO_SGM, 512);
	p.sgm.subpixel = 0;
	JD_CHECK(run_matcher(&p, &big, 2, &w.exec) == 0, "ndisp 512 run");
	JD_CHECK(share_equal(&big.d, 310, 300.0f) > 0.99, "ndisp 512 finds 300: %.4f",
		 share_equal(&big.d, 310, 300.0f));
	free_pair(&big);
	free(keep.data);
	free_pair(&pr);
	jd_workers_deinit(&w);
	return jd_test_done("unit.sgm");
}
