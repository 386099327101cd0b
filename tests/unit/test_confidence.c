/*
 * The rank prefilter (algo/match/prefilter.h) and the confidence map (algo/match/confidence.h) on
 * hand-made pairs and maps, the confidence tally of algo/eval.h, and the preview's picture
 * (algo/preview_compose.h) that shows them.
 */
#include <stdlib.h>
#include <string.h>

#include "confidence.h"
#include "eval.h"
#include "jd_test.h"
#include "prefilter.h"
#include "preview_compose.h"
#include "test_util.h"

static void test_rank(void)
{
	enum { W = 23, H = 11 };
	uint8_t a[W * H], b[W * H], ra[W * H], rb[W * H];
	struct jd_image ia = {a, W, H, W}, ib = {b, W, H, W}, oa = {ra, W, H, W},
			ob = {rb, W, H, W};
	unsigned seed = 7;

	memset(a, 90, sizeof(a));
	jd_rank_ref(&ia, 7, &oa, NULL);
	JD_CHECK(ra[0] == 0 && ra[W * H / 2] == 0, "a flat image ranks 0");
	a[5 * W + 11] = 200; /* brighter than its whole window */
	jd_rank_ref(&ia, 7, &oa, NULL);
	JD_CHECK(ra[5 * W + 11] == 48 * (JD_RANK_RANGE / 48), "the brightest ranks top: %d",
		 ra[5 * W + 11]);
	JD_CHECK(ra[5 * W + 12] == 0, "its darker neighbours rank 0: %d", ra[5 * W + 12]);

	/* Any gain > 1 with an offset, without clipping, keeps every rank. */
	for (int i = 0; i < W * H; i++) {
		a[i] = (uint8_t)(20 + (jd_test_rand(&seed) >> 24) % 180);
		double v = 1.1 * a[i] - 10.0 + 0.5;
		b[i] = (uint8_t)v;
	}
	for (int win = 3; win <= JD_RANK_WINDOW_MAX; win += 2) {
		jd_rank_ref(&ia, win, &oa, NULL);
		jd_rank_ref(&ib, win, &ob, NULL);
		JD_CHECK(memcmp(ra, rb, sizeof(ra)) == 0,
			 "window %d: gain and offset change a rank", win);
	}
}

/* The rank by its definition, every sample clamped: what jd_rank_ref() must equal. */
static int rank_by_definition(const uint8_t *im, int w, int h, int x, int y, int win)
{
	int r = win / 2, c = im[y * w + x], n = 0;

	for (int dy = -r; dy <= r; dy++) {
		for (int dx = -r; dx <= r; dx++) {
			int yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy;
			int xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;

			n += im[yy * w + xx] < c;
		}
	}
	return n * (JD_RANK_RANGE / (win * win - 1));
}

/* Random images, windows 3..15, widths and heights below, at and above the window. */
static void test_rank_definition(void)
{
	static const int sizes[][2] = {{1, 1}, {5, 3}, {7, 9}, {16, 15}, {37, 21}};
	unsigned seed = 11;
	long bad = 0, total = 0;

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		int w = sizes[s][0], h = sizes[s][1];
		uint8_t *im = malloc((size_t)w * h), *out = malloc((size_t)w * h);
		struct jd_image in = {im, w, h, w}, o = {out, w, h, w};

		for (int i = 0; i < w * h; i++) {
			im[i] = (uint8_t)((jd_test_rand(&seed) >> 24) % 7 * 40); /* ties too */
		}
		for (int win = 3; win <= JD_RANK_WINDOW_MAX; win += 2) {
			jd_rank_ref(&in, win, &o, NULL);
			for (int y = 0; y < h; y++) {
				for (int x = 0; x < w; x++) {
					bad += out[y * w + x] !=
					       rank_by_definition(im, w, h, x, y, win);
					total++;
				}
			}
		}
		free(im);
		free(out);
	}
	JD_CHECK(bad == 0, "%ld of %ld ranks differ from the definition", bad, total);
}

/* A textured pair with true disparity 6 everywhere, matched by a map of value v. */
static void confidence_of(struct pair *pr, float v, uint8_t *conf)
{
	int w = pr->l.width, h = pr->l.height;
	size_t n = jd_confidence_mem_required(w, h, 1);
	void *ws = malloc(n);

	for (int i = 0; i < w * h; i++) {
		pr->d.data[i] = v;
	}
	JD_CHECK(jd_confidence_ref(&pr->l, &pr->r, &pr->d, NULL, conf, ws, n, NULL) == 0, "runs");
	JD_CHECK(jd_confidence_ref(&pr->l, &pr->r, &pr->d, NULL, conf, ws, n / 2, NULL) == -ENOMEM,
		 "a short workspace is refused");
	free(ws);
}

static void test_confidence(void)
{
	enum { W = 64, H = 16, D = 6 };
	struct pair pr;
	uint8_t right[W * H], wrong[W * H];

	make_shifted_pair(&pr, W, H, D, 3);
	confidence_of(&pr, (float)D, right);
	confidence_of(&pr, (float)D + 5, wrong);
	long band = 0, high = 0, sum_right = 0, sum_wrong = 0;
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			uint8_t c = right[y * W + x];
			band += x < D + JD_CONF_EDGE_COLS && c == 0;
			/* interior: full support, census agreement except where x - D clamps */
			high += x >= D + JD_CONF_EDGE_COLS && y >= 2 && y < H - 2 && x < W - 2 &&
				c == 255;
			sum_right += x >= D + 5 + 2 ? c : 0;
			sum_wrong += x >= D + 5 + 2 ? wrong[y * W + x] : 0;
		}
	}
	JD_CHECK(band == (D + JD_CONF_EDGE_COLS) * H,
		 "the band x < d and matches into the right image's first columns are 0: %ld of %d",
		 band, (D + JD_CONF_EDGE_COLS) * H);
	JD_CHECK(high == (long)(W - D - JD_CONF_EDGE_COLS - 2) * (H - 4),
		 "a true match is fully trusted: %ld", high);
	JD_CHECK(sum_wrong * 4 < sum_right, "a wrong disparity is trusted less: %ld vs %ld",
		 sum_wrong, sum_right);

	/* Invalid is 0; a background pixel whose right-image column a nearer one covers is 0. */
	for (int i = 0; i < W * H; i++) {
		pr.d.data[i] = (float)D;
	}
	int y = 8;
	for (int yy = y - 2; yy <= y + 2; yy++) {
		for (int x = 30; x < 40; x++) {
			pr.d.data[yy * W + x] = 16.0f; /* nearer: columns 14..23 of the right */
		}
	}
	pr.d.data[y * W + 50] = JD_DISP_INVALID;
	size_t n = jd_confidence_mem_required(W, H, 1);
	void *ws = malloc(n);
	JD_CHECK(jd_confidence_ref(&pr.l, &pr.r, &pr.d, NULL, right, ws, n, NULL) == 0, "runs");
	JD_CHECK(right[y * W + 50] == 0, "invalid is 0");
	JD_CHECK(right[y * W + 22] == 0 && right[y * W + 27] == 0, "covered columns are 0: %d %d",
		 right[y * W + 22], right[y * W + 27]);
	JD_CHECK(right[y * W + 12] > 0, "an uncovered background pixel is not: %d",
		 right[y * W + 12]);

	/*
	 * A search cut short (a 32-disparity search: every pixel at x < 31 missed candidates).
	 * Rows y - 2 .. y + 2 hold the nearer block at 16 in columns 30..39, within the reach
	 * (columns x .. 63, rows 5 up and down) of every pixel of rows y - 7 .. y + 7: the rule
	 * of confidence.h makes x < 16 there 0, since such a pixel may belong to that surface.
	 * Row 0 sees only the surface at 6 in its reach: nothing changes.
	 */
	uint8_t cut[W * H];
	struct jd_conf_search search = {0, 32};
	JD_CHECK(jd_confidence_ref(&pr.l, &pr.r, &pr.d, &search, cut, ws, n, NULL) == 0, "runs");
	long rule = 0, kept = 0, calm = 0, far = 0;
	for (int x = 0; x < W; x++) {
		uint8_t c = right[y * W + x];
		rule += cut[y * W + x] == (x < 16 ? 0 : c);
		kept += x >= 16 && cut[y * W + x] == c;
		far += x < 16 && cut[(y - 7) * W + x] == 0 && cut[(y + 7) * W + x] == 0;
		calm += cut[x] == right[x];
	}
	JD_CHECK(rule == W, "%ld of %d columns follow the cut-short rule", rule, W);
	JD_CHECK(kept == W - 16, "columns with nothing beyond their reach unchanged: %ld of %d",
		 kept, W - 16);
	JD_CHECK(far == 16, "the reach spans 5 rows up and down: %ld of 16", far);
	JD_CHECK(calm == W, "a row whose surfaces fit the search: %ld of %d columns unchanged",
		 calm, W);
	long lit = 0;
	for (int x = 0; x < 16; x++) {
		lit += right[(y - 7) * W + x] > 0 || right[(y + 7) * W + x] > 0;
	}
	JD_CHECK(lit > 0, "the rows 7 away had confidence to lose: %ld columns", lit);
	free(ws);

	/* The mask drops what is below the level, keeps the rest. */
	jd_confidence_mask(&pr.d, right, 1);
	JD_CHECK(!jd_disp_is_valid(pr.d.data[y * W + 22]) && pr.d.data[y * W + 12] == (float)D,
		 "mask");
	free_pair(&pr);
}

static void test_tally(void)
{
	static struct jd_eval_conf t;
	double top, rest;

	memset(&t, 0, sizeof(t));
	t.n[200] = 50; /* the confident half: 1 bad in 50 */
	t.bad[200] = 1;
	t.n[10] = 100; /* 30 bad in 100, split by the half */
	t.bad[10] = 30;
	jd_eval_conf_split(&t, 0.5, &top, &rest);
	/* top: 50 at level 200 (1 bad) + 25 at level 10 (7.5 bad) = 8.5 / 75 */
	JD_CHECK(top > 11.33 && top < 11.34, "top %g", top);
	JD_CHECK(rest > 29.99 && rest < 30.01, "rest %g", rest);
}

/* The picture: left gray beside the colour map; distrusted tinted red with no colour. */
static void test_preview_picture(void)
{
	uint8_t left[6] = {100, 200, 30, 100, 200, 30}, conf[6] = {50, 50, 50, 10, 10, 50};
	float d[6] = {64, 32, JD_DISP_INVALID, 64, 32, 16};
	struct jd_image l = {left, 3, 2, 3};
	struct jd_disp disp = {d, 3, 2, 3};
	uint8_t rgb[36];
	static const uint8_t want[36] = {
	    /* row 0: trusted; far end red-ish (t 1), mid green (t 0.5), none black */
	    100, 100, 100, 200, 200, 200, 30, 30, 30, 127, 0, 0, 127, 255, 127, 0, 0, 0,
	    /* row 1: two distrusted (red tint, black), one trusted at t 0.25 */
	    100, 50, 50, 200, 100, 100, 30, 30, 30, 0, 0, 0, 0, 0, 0, 0, 127, 255};

	jd_preview_compose_ref(&l, &disp, conf, 20, 64.0f, 1, rgb);
	int first = -1;
	for (int i = 0; i < 36 && first < 0; i++) {
		first = rgb[i] != want[i] ? i : -1;
	}
	JD_CHECK(first < 0, "picture byte %d: %d, want %d", first, first >= 0 ? rgb[first] : 0,
		 first >= 0 ? want[first] : 0);
	jd_preview_compose_ref(&l, &disp, NULL, 20, 0.0f, 1, rgb);
	JD_CHECK(rgb[3 * 3] == 0 && rgb[3 * 4 + 1] == 0 && rgb[3 + 1] == 200,
		 "no confidence, dmax 0: nothing tinted, the colour map black");
}

/* Downscaled: every step-th pixel of every step-th row, the last partial block included. */
static void test_preview_step(void)
{
	enum { W = 5, H = 3 };
	uint8_t left[W * H], conf[W * H];
	float d[W * H];
	struct jd_image l = {left, W, H, W};
	struct jd_disp disp = {d, W, H, W};
	uint8_t rgb[6 * 3 * 2], one[6 * W * H];

	for (int i = 0; i < W * H; i++) {
		left[i] = (uint8_t)(10 * i);
		conf[i] = (uint8_t)(i % 3 ? 50 : 5);
		d[i] = (float)i;
	}
	JD_CHECK(jd_preview_step(640) == 1 && jd_preview_step(641) == 2 &&
		     jd_preview_step(1280) == 2 && jd_preview_step(1920) == 3,
		 "steps %d %d %d %d", jd_preview_step(640), jd_preview_step(641),
		 jd_preview_step(1280), jd_preview_step(1920));
	JD_CHECK(jd_preview_scaled(W, 2) == 3 && jd_preview_scaled(H, 2) == 2, "5x3 at step 2");
	jd_preview_compose_ref(&l, &disp, conf, 20, 16.0f, 2, rgb);
	jd_preview_compose_ref(&l, &disp, conf, 20, 16.0f, 1, one);
	int bad = -1;
	for (int py = 0; py < 2; py++) {
		for (int px = 0; px < 3; px++) {
			for (int side = 0; side < 2; side++) {
				const uint8_t *got = rgb + (py * 6 * 3) + 3 * (side * 3 + px);
				const uint8_t *want =
				    one + (2 * py * 6 * W) + 3 * (side * W + 2 * px);
				bad = bad < 0 && memcmp(got, want, 3) ? py * 3 + px : bad;
			}
		}
	}
	JD_CHECK(bad < 0, "step 2: picture pixel %d is not the full picture's (2x, 2y)", bad);
}

int main(void)
{
	test_rank();
	test_rank_definition();
	test_confidence();
	test_tally();
	test_preview_picture();
	test_preview_step();
	return jd_test_done("unit.confidence");
}
