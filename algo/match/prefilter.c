#include "prefilter.h"

#include "jd_params.h"
#include "matcher_table.h"

/* What the prefilter is for p: its own choice, or what "auto" means for its matcher. */
static enum jd_prefilter chosen(const struct jd_match_params *p)
{
	const struct jd_matcher *m = jd_matcher_of(p->algo);

	return p->prefilter == JD_PREFILTER_AUTO && m ? m->auto_prefilter : p->prefilter;
}

int jd_prefilter_rank_on(const struct jd_match_params *p)
{
	return chosen(p) == JD_PREFILTER_RANK;
}

int jd_prefilter_census_on(const struct jd_match_params *p)
{
	const struct jd_matcher *m = jd_matcher_of(p->algo);

	return m && m->census_radius > 0 && chosen(p) == JD_PREFILTER_CENSUS;
}

int jd_rank_window(const struct jd_match_params *p)
{
	const struct jd_matcher *m = jd_matcher_of(p->algo);

	if (p->rank_window > 0) {
		return p->rank_window;
	}
	return m ? m->rank_window : 7;
}

struct rank_job {
	const struct jd_image *in;
	struct jd_image *out;
	int window;
};

/* Darker pixels of x's window, the columns clamped to the image (the edges repeat). */
static int rank_at_edge(const uint8_t *const *rows, int n_rows, int x, int r, int w, int c)
{
	int n = 0;

	for (int i = 0; i < n_rows; i++) {
		for (int dx = -r; dx <= r; dx++) {
			n += rows[i][jd_clampi(x + dx, 0, w - 1)] < c;
		}
	}
	return n;
}

static void rank_row(void *ctx, int y, int worker)
{
	const struct rank_job *job = ctx;
	const struct jd_image *in = job->in;
	int r = job->window / 2, w = in->width, side = job->window;
	int scale = JD_RANK_RANGE / (job->window * job->window - 1);
	uint8_t *o = job->out->data + (long)y * job->out->stride;
	const uint8_t *centre = jd_image_row(in, y);
	const uint8_t *rows[JD_RANK_WINDOW_MAX];

	(void)worker;
	/* the window's rows once a row, edges repeated; then no clamping inside the image */
	for (int i = 0; i < side; i++) {
		rows[i] = jd_image_row(in, jd_clampi(y - r + i, 0, in->height - 1));
	}
	for (int x = 0; x < w; x++) {
		int c = centre[x], n = 0;

		if (x < r || x >= w - r) {
			n = rank_at_edge(rows, side, x, r, w, c);
		} else {
			for (int i = 0; i < side; i++) {
				const uint8_t *p = rows[i] + x - r;

				for (int k = 0; k < side; k++) {
					n += p[k] < c;
				}
			}
		}
		o[x] = (uint8_t)(n * scale);
	}
}

void jd_rank_ref(const struct jd_image *in, int window, struct jd_image *out,
		 const struct jd_exec *ex)
{
	struct rank_job job = {in, out, window};

	jd_exec_run(ex, in->height, rank_row, &job);
}
