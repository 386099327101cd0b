/*
 * Every NEON kernel against its reference twin on awkward sizes (odd widths, a row stride
 * wider than the row, widths below one vector) and random data: integer and float kernels
 * must agree bit for bit (memcmp). On x86 the NEON code runs through SIMDe; the cross build
 * runs this same file under qemu-aarch64.
 */
#include <stdio.h>

#include "convert.h"
#include "neon_util.h"
#include "rectify.h"
#include "sad_kernels.h"
#include "sgm.h"

static const int sizes[][3] = {
    /* width, height, stride */
    {311, 239, 320}, {1, 1, 1}, {5, 3, 8}, {17, 9, 17}, {33, 20, 48}, {64, 16, 64}, {100, 7, 101},
};
#define NSIZES (int)(sizeof(sizes) / sizeof(sizes[0]))

static void test_gray(const struct jd_kernels *k)
{
	static const int ns[] = {0, 1, 15, 16, 17, 31, 1001};
	unsigned seed = 7;

	for (size_t t = 0; t < sizeof(ns) / sizeof(ns[0]); t++) {
		int n = ns[t];
		uint8_t *in = malloc(3 * (size_t)n + 1), *a = malloc((size_t)n + 1),
			*b = malloc((size_t)n + 1);

		for (int i = 0; i < 3 * n; i++) {
			in[i] = (uint8_t)(jd_test_rand(&seed) >> 24);
		}
		if (n > 0) {
			in[0] = in[1] = in[2] = 255; /* white stays 255 */
		}
		jd_gray_from_rgb_ref(in, n, a);
		k->gray_from_rgb(in, n, b);
		JD_CHECK(jd_test_first_diff(a, b, n) < 0, "gray_rgb n=%d differs at %ld", n,
			 jd_test_first_diff(a, b, n));
		JD_CHECK(n == 0 || a[0] == 255, "white gives %d", a[0]);
		jd_gray_from_yuyv_ref(in, n & ~1, a);
		k->gray_from_yuyv(in, n & ~1, b);
		JD_CHECK(jd_test_first_diff(a, b, n & ~1) < 0, "gray_yuyv n=%d", n);
		jd_gray_from_uyvy_ref(in, n & ~1, a);
		k->gray_from_uyvy(in, n & ~1, b);
		JD_CHECK(jd_test_first_diff(a, b, n & ~1) < 0, "gray_uyvy n=%d", n);
		JD_CHECK(n < 2 || a[0] == in[1], "uyvy: the first luma is byte 1");
		free(in);
		free(a);
		free(b);
	}
}

/* Deep mono and raw Bayer: random samples, most past the depth (they must clamp alike). */
static void test_gray_deep(const struct jd_kernels *k)
{
	static const int ns[] = {2, 3, 8, 9, 10, 11, 17, 18, 19, 33, 1001};
	static const int bits[] = {8, 10, 12, 16};
	unsigned seed = 11;

	for (size_t t = 0; t < sizeof(ns) / sizeof(ns[0]); t++) {
		int n = ns[t];
		uint8_t *r[3], *a = malloc((size_t)n), *b = malloc((size_t)n);

		for (int j = 0; j < 3; j++) {
			r[j] = malloc(2 * (size_t)n);
			for (int i = 0; i < 2 * n; i++) {
				r[j][i] = (uint8_t)(jd_test_rand(&seed) >> 24);
			}
		}
		for (size_t j = 0; j < sizeof(bits) / sizeof(bits[0]); j++) {
			int d = bits[j];
			if (d > 8) {
				jd_gray_from_mono16_ref(r[0], n, d, a);
				k->gray_from_mono16(r[0], n, d, b);
				JD_CHECK(jd_test_first_diff(a, b, n) < 0,
					 "gray_mono16 n=%d bits %d", n, d);
			}
			for (int phase = 0; d <= 12 && phase < 4; phase++) {
				jd_gray_from_bayer_ref(r[0], r[1], r[2], n, d, phase & 1,
						       phase >> 1, a);
				k->gray_from_bayer(r[0], r[1], r[2], n, d, phase & 1, phase >> 1,
						   b);
				JD_CHECK(jd_test_first_diff(a, b, n) < 0,
					 "gray_bayer n=%d bits %d phase %d", n, d, phase);
			}
		}
		for (int j = 0; j < 3; j++) {
			free(r[j]);
		}
		free(a);
		free(b);
	}
}

static void test_remap(const struct jd_kernels *k)
{
	for (int s = 0; s < NSIZES; s++) {
		int w = sizes[s][0], h = sizes[s][1];
		struct jd_image src = jd_test_random_image(w, h, sizes[s][2], 11u + s);
		struct jd_image a = jd_test_random_image(w, h, sizes[s][2], 1),
				b = jd_test_random_image(w, h, sizes[s][2], 1);
		struct jd_remap map = {w, h, malloc(sizeof(int32_t) * w * h),
				       malloc(sizeof(int32_t) * w * h)};
		unsigned seed = 99;

		/* A distortion-like field, plus random positions reaching outside on every side. */
		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++) {
				int i = y * w + x;
				if ((x + y) % 3) {
					map.sx[i] = x * 32 + (x * y) % 29 - 14;
					map.sy[i] = y * 32 + (x - y) % 23 - 11;
				} else {
					map.sx[i] = (int32_t)(jd_test_rand(&seed) %
							      (unsigned)((w + 8) * 32)) -
						    128;
					map.sy[i] = (int32_t)(jd_test_rand(&seed) %
							      (unsigned)((h + 8) * 32)) -
						    128;
				}
			}
		}
		jd_remap_ref(&map, &src, &a, NULL);
		k->remap(&map, &src, &b, NULL);
		for (int y = 0; y < h; y++) {
			JD_CHECK(
			    jd_test_first_diff(a.data + y * a.stride, b.data + y * b.stride, w) < 0,
			    "remap %dx%d row %d", w, h, y);
		}
		free(src.data);
		free(a.data);
		free(b.data);
		free(map.sx);
		free(map.sy);
	}
}

static void test_census_cost(const struct jd_kernels *k)
{
	static const int nds[] = {2, 7, 16, 33, 64};

	for (int s = 0; s < NSIZES; s++) {
		int w = sizes[s][0], h = sizes[s][1];
		struct jd_image l = jd_test_random_image(w, h, sizes[s][2], 3u + s);
		struct jd_image r = jd_test_random_image(w, h, sizes[s][2], 5u + s);
		size_t npx = (size_t)w * h;
		uint64_t *cl = malloc(8 * npx), *cr = malloc(8 * npx), *c2 = malloc(8 * npx);

		jd_census_ref(&l, cl, NULL);
		k->census(&l, c2, NULL);
		JD_CHECK(memcmp(cl, c2, 8 * npx) == 0, "census %dx%d", w, h);
		jd_census_ref(&r, cr, NULL);
		for (size_t t = 0; t < sizeof(nds) / sizeof(nds[0]); t++) {
			for (int cost = 0; cost < 2; cost++) {
				for (int md = 0; md <= 3; md += 3) {
					struct jd_match_params p;
					size_t n = npx * nds[t];
					uint8_t *a = malloc(n), *b = malloc(n);

					jd_params_default(&p, JD_ALGO_SGM, nds[t]);
					p.sgm.cost = cost ? JD_SGM_COST_AD : JD_SGM_COST_CENSUS;
					p.min_disp = md;
					jd_sgm_cost_ref(&p, &l, &r, cl, cr, a, NULL);
					k->sgm_cost(&p, &l, &r, cl, cr, b, NULL);
					JD_CHECK(memcmp(a, b, n) == 0,
						 "sgm_cost %dx%d nd %d cost %d min %d at %ld", w, h,
						 nds[t], cost, md, jd_test_first_diff(a, b, n));
					free(a);
					free(b);
				}
			}
		}
		free(l.data);
		free(r.data);
		free(cl);
		free(cr);
		free(c2);
	}
}

/*
 * Aggregation and selection on one random cost volume; both stages compared. ad: AD's costs
 * (0..255, so path costs reach the byte's saturation) instead of census's (0..62).
 */
static void agg_select_case(const struct jd_kernels *k, int w, int h, int nd, int paths, int adapt,
			    int uniq, int subpix, int lr, int md, unsigned seed, int ad)
{
	struct jd_match_params p;
	struct jd_image g = jd_test_random_image(w, h, w, seed);
	size_t vol = (size_t)w * h * nd;
	uint8_t *cost = malloc(vol);
	uint16_t *f[2], *bw[2];
	size_t sw = 2 * jd_sgm_sweep_mem_required(w, nd), sel = jd_sgm_select_mem_required(w);
	void *ws = malloc(sw), *scr = malloc(sel);
	struct jd_disp out[2];

	jd_params_default(&p, JD_ALGO_SGM, nd);
	p.sgm.paths = paths;
	p.sgm.p2_adapt = adapt;
	p.sgm.uniqueness = uniq;
	p.sgm.subpixel = subpix;
	p.sgm.lr_check = lr;
	p.min_disp = md;
	p.sgm.cost = ad ? JD_SGM_COST_AD : JD_SGM_COST_CENSUS;
	for (size_t i = 0; i < vol; i++) {
		/* A valley around a smooth disparity, plus noise: realistic minima and ties. */
		size_t pix = i / nd;
		int d = (int)(i % nd), want = (int)((pix % w) * nd / (w + 1));
		int v = (d > want ? d - want : want - d) * 3 + (int)(jd_test_rand(&seed) % 12);
		v = ad ? 4 * v : v;
		cost[i] = (uint8_t)(v > (ad ? 255 : 62) ? (ad ? 255 : 62) : v);
	}
	for (int b = 0; b < 2; b++) {
		const struct jd_kernels *kk = b ? k : &jd_kernels_ref;

		f[b] = malloc(2 * vol);
		bw[b] = malloc(2 * vol);
		out[b] = (struct jd_disp){malloc(sizeof(float) * w * h), w, h, w};
		kk->sgm_aggregate(&p, &g, cost, f[b], bw[b], ws, NULL);
	}
	JD_CHECK(memcmp(f[0], f[1], 2 * vol) == 0 && memcmp(bw[0], bw[1], 2 * vol) == 0,
		 "sgm_aggregate %dx%d nd %d paths %d adapt %d ad %d", w, h, nd, paths, adapt, ad);
	for (int b = 0; b < 2; b++) {
		(b ? k : &jd_kernels_ref)->sgm_select(&p, f[b], bw[b], &out[b], scr, NULL);
	}
	JD_CHECK(memcmp(out[0].data, out[1].data, sizeof(float) * w * h) == 0,
		 "sgm_select %dx%d nd %d uniq %d subpix %d lr %d min %d", w, h, nd, uniq, subpix,
		 lr, md);
	for (int b = 0; b < 2; b++) {
		free(f[b]);
		free(bw[b]);
		free(out[b].data);
	}
	free(g.data);
	free(cost);
	free(ws);
	free(scr);
}

static void test_sgm(const struct jd_kernels *k)
{
	agg_select_case(k, 311, 23, 33, 8, 4, 5, 1, 1, 0, 1, 0);
	agg_select_case(k, 31, 17, 64, 8, 0, 0, 0, 1, 2, 2, 0);
	agg_select_case(k, 17, 9, 7, 4, 4, 15, 1, 0, 0, 3, 0);
	agg_select_case(k, 5, 3, 2, 8, 4, 5, 1, 1, 0, 4, 0);
	agg_select_case(k, 40, 12, 128, 4, 4, 5, 1, 1, 5, 5, 0);
	agg_select_case(k, 9, 40, 16, 8, 2, 50, 1, 1, 1, 6, 0);
	agg_select_case(k, 311, 23, 33, 8, 4, 5, 1, 1, 0, 7, 1);
	agg_select_case(k, 40, 12, 128, 4, 4, 5, 1, 1, 5, 8, 1);
}

static void test_sad(const struct jd_kernels *k)
{
	struct sad_case {
		int padw, nd, min_disp, win, w;
	};
	static const struct sad_case cases[] = {
	    {.padw = 321, .nd = 33, .min_disp = 0, .win = 11, .w = 311},
	    {.padw = 7, .nd = 2, .min_disp = 0, .win = 3, .w = 5},
	    {.padw = 20, .nd = 16, .min_disp = 4, .win = 5, .w = 16},
	    {.padw = 130, .nd = 64, .min_disp = 1, .win = 3, .w = 128},
	    {.padw = 31, .nd = 9, .min_disp = 0, .win = 31, .w = 1},
	};
	unsigned seed = 77;

	for (size_t t = 0; t < sizeof(cases) / sizeof(cases[0]); t++) {
		int padw = cases[t].padw, nd = cases[t].nd, md = cases[t].min_disp;
		int win = cases[t].win, w = cases[t].w, dmax = md + nd - 1;
		size_t n = (size_t)nd * padw;
		uint16_t *a = malloc(2 * n), *b = malloc(2 * n);
		uint8_t *l = malloc((size_t)padw), *r = malloc((size_t)padw + dmax);
		uint32_t best[2][400], bestr[2][400];
		int bd[2][400], bdr[2][400];

		for (size_t i = 0; i < n; i++) {
			a[i] = b[i] = (uint16_t)(jd_test_rand(&seed) >> 20);
		}
		for (int i = 0; i < padw; i++) {
			l[i] = (uint8_t)(jd_test_rand(&seed) >> 24);
		}
		for (int i = 0; i < padw + dmax; i++) {
			r[i] = (uint8_t)(jd_test_rand(&seed) >> 24);
		}
		for (int sign = 1; sign >= -1; sign -= 2) {
			jd_sad_accumulate_ref(a, l, r, padw, nd, md, dmax, sign);
			k->sad_accumulate(b, l, r, padw, nd, md, dmax, sign);
			JD_CHECK(memcmp(a, b, 2 * n) == 0, "sad_accumulate padw %d nd %d sign %d",
				 padw, nd, sign);
		}
		for (int v = 0; v < 2; v++) {
			for (int x = 0; x < w; x++) {
				best[v][x] = bestr[v][x] = UINT32_MAX;
				bd[v][x] = 0;
				bdr[v][x] = -1;
			}
		}
		/* w + win - 1 column sums per disparity: take them from the accumulated rows. */
		for (int d = 0; d < nd && w + win - 1 <= padw; d++) {
			jd_sad_wta_ref(a + (size_t)d * padw, w, win, d, md + d, best[0], bd[0],
				       bestr[0], bdr[0]);
			k->sad_wta(a + (size_t)d * padw, w, win, d, md + d, best[1], bd[1],
				   bestr[1], bdr[1]);
		}
		JD_CHECK(memcmp(best[0], best[1], 4 * w) == 0 && memcmp(bd[0], bd[1], 4 * w) == 0 &&
			     memcmp(bestr[0], bestr[1], 4 * w) == 0 &&
			     memcmp(bdr[0], bdr[1], 4 * w) == 0,
			 "sad_wta w %d win %d nd %d", w, win, nd);
		free(a);
		free(b);
		free(l);
		free(r);
	}
}

int main(void)
{
	struct jd_kernels k;

	neon_table_exact(&k);
	test_gray(&k);
	test_gray_deep(&k);
	test_remap(&k);
	test_census_cost(&k);
	test_sgm(&k);
	test_sad(&k);
	return jd_test_done("neon.kernels");
}
