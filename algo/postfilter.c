#include "postfilter.h"

struct median_job {
	const struct jd_disp *in;
	struct jd_disp *out;
};

static void median_row(void *ctx, int y, int worker)
{
	const struct median_job *job = ctx;
	const struct jd_disp *in = job->in;
	float *out = jd_disp_row(job->out, y);
	const float *c = jd_disp_row(in, y);

	(void)worker;
	for (int x = 0; x < in->width; x++) {
		float v[9];
		int n = 0;

		if (!jd_disp_is_valid(c[x])) {
			out[x] = c[x];
			continue;
		}
		for (int yy = y - 1; yy <= y + 1; yy++) {
			if (yy < 0 || yy >= in->height) {
				continue;
			}
			const float *r = jd_disp_row(in, yy);
			for (int xx = x - 1; xx <= x + 1; xx++) {
				if (xx < 0 || xx >= in->width || !jd_disp_is_valid(r[xx])) {
					continue;
				}
				/* Insertion keeps v sorted; at most 9 values. */
				int i = n++;
				while (i > 0 && v[i - 1] > r[xx]) {
					v[i] = v[i - 1];
					i--;
				}
				v[i] = r[xx];
			}
		}
		out[x] = v[(n - 1) / 2];
	}
}

void jd_median3x3_ref(const struct jd_disp *in, struct jd_disp *out, const struct jd_exec *ex)
{
	struct median_job job = {in, out};

	jd_exec_run(ex, in->height, median_row, &job);
}

static void fill_row(void *ctx, int y, int worker)
{
	struct jd_disp *d = ctx;
	float *row = jd_disp_row(d, y);
	int x = 0;

	(void)worker;
	while (x < d->width) {
		if (jd_disp_is_valid(row[x])) {
			x++;
			continue;
		}
		int start = x;
		while (x < d->width && !jd_disp_is_valid(row[x])) {
			x++;
		}
		float left = start > 0 ? row[start - 1] : JD_DISP_INVALID;
		float right = x < d->width ? row[x] : JD_DISP_INVALID;
		float v = left < right ? left : right; /* +inf marks a missing side */
		for (int i = start; i < x; i++) {
			row[i] = v;
		}
	}
}

void jd_fill_invalid_ref(struct jd_disp *d, const struct jd_exec *ex)
{
	jd_exec_run(ex, d->height, fill_row, d);
}
