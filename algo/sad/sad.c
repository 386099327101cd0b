#include "sad.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "jd_carve.h"
#include "kernels.h"
#include "sad_kernels.h"
#include "postfilter.h"
#include "subpixel.h"

/*
 * Running sums (the thesis's own advice): column sums over the window height are updated
 * by one entering and one leaving row, then a sliding sum across x gives each window's SAD,
 * so the cost per pixel and disparity does not depend on the window size.
 * Column sums fit uint16: 31 rows * 255 = 7905.
 */

struct sad_scratch {
	uint16_t *colsum; /* [ndisp][padw] */
	uint8_t *lrow;	  /* [padw] */
	uint8_t *rrow;	  /* [padw + dmax] */
	uint32_t *best;	  /* [width] */
	int *bestd;	  /* [width] */
	uint32_t *best_r; /* [width] right-view winner cost, for the left-right check */
	int *bestd_r;	  /* [width] */
};

struct sad_job {
	const struct jd_match_params *p;
	const struct jd_image *l, *r;
	const struct jd_disp *out;
	const struct jd_kernels *k;
	struct sad_scratch *scratch;
	int band;
};

static void layout(struct jd_carve *c, const struct jd_match_params *p, int w, int nworkers,
		   struct sad_scratch *s)
{
	int rad = p->sad.window / 2;
	int padw = w + 2 * rad;
	int dmax = p->min_disp + p->ndisp - 1;

	for (int i = 0; i < nworkers; i++) {
		struct sad_scratch t;

		t.colsum = jd_carve(c, sizeof(uint16_t) * (size_t)p->ndisp * padw);
		t.lrow = jd_carve(c, (size_t)padw * 2);
		t.rrow = jd_carve(c, (size_t)(padw + dmax) * 2);
		t.best = jd_carve(c, sizeof(uint32_t) * w);
		t.bestd = jd_carve(c, sizeof(int) * w);
		t.best_r = jd_carve(c, sizeof(uint32_t) * w);
		t.bestd_r = jd_carve(c, sizeof(int) * w);
		if (s) {
			s[i] = t;
		}
	}
}

size_t jd_sad_mem_required(const struct jd_match_params *p, int width, int height, int nworkers)
{
	struct jd_carve c;

	jd_carve_init(&c, NULL, 0);
	jd_carve(&c, sizeof(struct sad_scratch) * nworkers);
	jd_carve(&c, sizeof(float) * width * height);
	layout(&c, p, width, nworkers, NULL);
	return jd_carve_total(&c);
}

/* Edge-replicated copies of one left and one right row (row index clamped too). */
static void pad_rows(const struct jd_image *l, const struct jd_image *r, int y, int rad, int dmax,
		     uint8_t *lrow, uint8_t *rrow)
{
	int w = l->width;
	int yy = jd_clampi(y, 0, l->height - 1);
	const uint8_t *ls = jd_image_row(l, yy);
	const uint8_t *rs = jd_image_row(r, yy);

	for (int i = 0; i < w + 2 * rad; i++) {
		lrow[i] = ls[jd_clampi(i - rad, 0, w - 1)];
	}
	for (int i = 0; i < w + 2 * rad + dmax; i++) {
		rrow[i] = rs[jd_clampi(i - rad - dmax, 0, w - 1)];
	}
}

/* colsum[d][i] += sign * |L(i) - R(i - d)| for one padded row pair. */
void jd_sad_accumulate_ref(uint16_t *colsum, const uint8_t *lrow, const uint8_t *rrow, int padw,
			   int ndisp, int min_disp, int dmax, int sign)
{
	for (int d = 0; d < ndisp; d++) {
		uint16_t *cs = colsum + (size_t)d * padw;
		const uint8_t *rr = rrow + dmax - (min_disp + d);

		if (sign > 0) {
			for (int i = 0; i < padw; i++) {
				int diff = lrow[i] - rr[i];
				cs[i] = (uint16_t)(cs[i] + (diff < 0 ? -diff : diff));
			}
		} else {
			for (int i = 0; i < padw; i++) {
				int diff = lrow[i] - rr[i];
				cs[i] = (uint16_t)(cs[i] - (diff < 0 ? -diff : diff));
			}
		}
	}
}

/* The window sum of win column sums from cs: a row's first, and a winner's neighbours. */
static uint32_t window_sum(const uint16_t *cs, int win)
{
	uint32_t sum = 0;

	for (int i = 0; i < win; i++) {
		sum += cs[i];
	}
	return sum;
}

void jd_sad_wta_ref(const uint16_t *cs, int w, int win, int d, int shift, uint32_t *best,
		    int *bestd, uint32_t *best_r, int *bestd_r)
{
	uint32_t sum = window_sum(cs, win);

	for (int x = 0; x < w; x++) {
		if (sum < best[x]) {
			best[x] = sum;
			bestd[x] = d;
		}
		/* The same window is the right view's candidate at x - shift. */
		if (x >= shift && sum < best_r[x - shift]) {
			best_r[x - shift] = sum;
			bestd_r[x - shift] = d;
		}
		if (x + 1 < w) {
			sum += (uint32_t)cs[x + win] - cs[x];
		}
	}
}

static void select_row(const struct sad_scratch *s, const struct jd_match_params *p, int w,
		       int padw, jd_sad_wta_fn wta, float *out)
{
	int win = p->sad.window;

	for (int x = 0; x < w; x++) {
		s->best[x] = UINT32_MAX;
		s->bestd[x] = 0;
		s->best_r[x] = UINT32_MAX;
		s->bestd_r[x] = -1;
	}
	for (int d = 0; d < p->ndisp; d++) {
		wta(s->colsum + (size_t)d * padw, w, win, d, p->min_disp + d, s->best, s->bestd,
		    s->best_r, s->bestd_r);
	}
	for (int x = 0; x < w; x++) {
		int d = s->bestd[x];
		int xr = x - p->min_disp - d;
		float off = 0.0f;

		if (p->sad.subpixel && d > 0 && d < p->ndisp - 1) {
			off = jd_subpixel_equiangular(
			    (float)window_sum(s->colsum + (size_t)(d - 1) * padw + x, win),
			    (float)s->best[x],
			    (float)window_sum(s->colsum + (size_t)(d + 1) * padw + x, win));
		}
		out[x] = (float)(p->min_disp + d) + off;
		if (p->sad.lr_check &&
		    (xr < 0 || s->bestd_r[xr] < 0 ||
		     (s->bestd_r[xr] > d ? s->bestd_r[xr] - d : d - s->bestd_r[xr]) > 1)) {
			out[x] = JD_DISP_INVALID;
		}
	}
}

static int band_rows(int height, int nworkers)
{
	int rows = height / (nworkers * 4);

	return rows < 16 ? 16 : rows;
}

static void sad_band(void *ctx, int item, int worker)
{
	const struct sad_job *job = ctx;
	const struct jd_match_params *p = job->p;
	const struct sad_scratch *s = &job->scratch[worker];
	int w = job->l->width;
	int h = job->l->height;
	int rad = p->sad.window / 2;
	int padw = w + 2 * rad;
	int dmax = p->min_disp + p->ndisp - 1;
	int y0 = item * job->band;
	int y1 = y0 + job->band < h ? y0 + job->band : h;

	memset(s->colsum, 0, sizeof(uint16_t) * (size_t)p->ndisp * padw);
	for (int y = y0 - rad; y <= y0 + rad; y++) {
		pad_rows(job->l, job->r, y, rad, dmax, s->lrow, s->rrow);
		job->k->sad_accumulate(s->colsum, s->lrow, s->rrow, padw, p->ndisp, p->min_disp,
				       dmax, 1);
	}
	for (int y = y0; y < y1; y++) {
		if (y > y0) {
			pad_rows(job->l, job->r, y + rad, rad, dmax, s->lrow, s->rrow);
			job->k->sad_accumulate(s->colsum, s->lrow, s->rrow, padw, p->ndisp,
					       p->min_disp, dmax, 1);
			pad_rows(job->l, job->r, y - rad - 1, rad, dmax, s->lrow, s->rrow);
			job->k->sad_accumulate(s->colsum, s->lrow, s->rrow, padw, p->ndisp,
					       p->min_disp, dmax, -1);
		}
		select_row(s, p, w, padw, job->k->sad_wta, jd_disp_row(job->out, y));
	}
}

int jd_sad_run(const struct jd_kernels *k, const struct jd_match_params *p,
	       const struct jd_image *left, const struct jd_image *right, struct jd_disp *out,
	       void *ws, size_t ws_bytes, const struct jd_exec *ex)
{
	int nworkers = jd_exec_workers(ex);
	struct jd_carve c;
	struct sad_job job;

	jd_carve_init(&c, ws, ws_bytes);
	job.scratch = jd_carve(&c, sizeof(struct sad_scratch) * nworkers);
	float *median_in = jd_carve(&c, sizeof(float) * left->width * left->height);
	if (!job.scratch || !median_in) {
		return -ENOMEM;
	}
	layout(&c, p, left->width, nworkers, job.scratch);
	if (c.overflow) {
		return -ENOMEM;
	}
	/* With the median on, winners go to its input and the median writes out. */
	struct jd_disp raw = {median_in, left->width, left->height, left->width};
	struct jd_disp *sel = p->sad.median ? &raw : out;

	job.p = p;
	job.k = k;
	job.l = left;
	job.r = right;
	job.out = sel;
	job.band = band_rows(left->height, nworkers);
	jd_exec_run(ex, (left->height + job.band - 1) / job.band, sad_band, &job);
	if (p->sad.lr_check && p->sad.fill) {
		jd_fill_invalid_ref(sel, ex);
	}
	if (p->sad.median) {
		jd_median3x3_ref(&raw, out, ex);
	}
	return 0;
}

int jd_sad_ref(const struct jd_match_params *p, const struct jd_image *left,
	       const struct jd_image *right, struct jd_disp *out, void *ws, size_t ws_bytes,
	       const struct jd_exec *ex)
{
	return jd_sad_run(&jd_kernels_ref, p, left, right, out, ws, ws_bytes, ex);
}
