/* Helpers shared by the matcher tests: shifted random pairs and workspace handling. */
#ifndef JD_TESTS_TEST_UTIL_H
#define JD_TESTS_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "jd_image.h"
#include "jd_test.h"
#include "matcher.h"

struct pair {
	struct jd_image l, r;
	struct jd_disp d;
};

/* Right = random texture; left(x) = right(x - shift), so the true disparity is shift. */
static inline void make_shifted_pair(struct pair *p, int w, int h, int shift, unsigned seed)
{
	p->l = (struct jd_image){malloc((size_t)w * h), w, h, w};
	p->r = (struct jd_image){malloc((size_t)w * h), w, h, w};
	p->d = (struct jd_disp){malloc(sizeof(float) * w * h), w, h, w};
	for (int i = 0; i < w * h; i++) {
		p->r.data[i] = (uint8_t)(jd_test_rand(&seed) >> 24);
	}
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			p->l.data[y * w + x] = x >= shift ? p->r.data[y * w + x - shift]
							  : (uint8_t)(jd_test_rand(&seed) >> 24);
		}
	}
}

static inline void free_pair(struct pair *p)
{
	free(p->l.data);
	free(p->r.data);
	free(p->d.data);
}

/* Run a matcher with a freshly allocated, poisoned workspace (0xff bytes are NaN floats). */
static inline int run_matcher(const struct jd_match_params *prm, struct pair *p, int nworkers,
			      const struct jd_exec *ex)
{
	size_t n = jd_match_mem_required(prm, p->l.width, p->l.height, nworkers);
	void *ws = aligned_alloc(64, (n + 63) / 64 * 64);
	int rc;

	memset(ws, 0xff, n);
	rc = jd_match_run(NULL, prm, &p->l, &p->r, &p->d, ws, n, ex);
	free(ws);
	return rc;
}

/* Share of pixels in [x0, w) whose disparity is exactly v. */
static inline double share_equal(const struct jd_disp *d, int x0, float v)
{
	long n = 0, ok = 0;

	for (int y = 0; y < d->height; y++) {
		for (int x = x0; x < d->width; x++) {
			n++;
			ok += jd_disp_row(d, y)[x] == v;
		}
	}
	return n ? (double)ok / n : 0.0;
}

#endif
