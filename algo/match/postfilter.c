#include "postfilter.h"

#include <stdint.h>
#include <string.h>

struct median_job {
	const struct jd_disp *in;
	struct jd_disp *out;
};

/*
 * The (n - 1) / 2-th smallest of the n valid values among the 3x3 neighbours: missing and
 * invalid neighbours enter as +inf and sort last, so the order statistic of all nine is the
 * same value. Sorted by an odd-even transposition network (10 phases, 40 compare-exchanges)
 * on integer keys that order like the floats: the insertion sort this replaces, and a float
 * network (compiled to branches: a < b ? a : b is not minss without -ffast-math), both
 * mispredicted their way to 140 ms at 1280x720 on one core; this takes 21 ms. The keys
 * order -0 below +0, which no matcher produces. algo/cuda/postfilter_cuda.cu runs the same.
 */
static inline int32_t sort_key(float f)
{
	int32_t b;

	memcpy(&b, &f, sizeof(b));
	return b ^ ((b >> 31) & 0x7fffffff);
}

static inline float from_key(int32_t k)
{
	int32_t b = k ^ ((k >> 31) & 0x7fffffff);
	float f;

	memcpy(&f, &b, sizeof(f));
	return f;
}

#define JD_CX(a, b)                                                                                \
	do {                                                                                       \
		int32_t lo_ = (a) < (b) ? (a) : (b), hi_ = (a) < (b) ? (b) : (a);                  \
		(a) = lo_;                                                                         \
		(b) = hi_;                                                                         \
	} while (0)

static float median_of_valid(const float in[9], int n)
{
	int32_t v0 = sort_key(in[0]), v1 = sort_key(in[1]), v2 = sort_key(in[2]);
	int32_t v3 = sort_key(in[3]), v4 = sort_key(in[4]), v5 = sort_key(in[5]);
	int32_t v6 = sort_key(in[6]), v7 = sort_key(in[7]), v8 = sort_key(in[8]);

	for (int phase = 0; phase < 5; phase++) {
		JD_CX(v0, v1);
		JD_CX(v2, v3);
		JD_CX(v4, v5);
		JD_CX(v6, v7);
		JD_CX(v1, v2);
		JD_CX(v3, v4);
		JD_CX(v5, v6);
		JD_CX(v7, v8);
	}
	int32_t sorted[9] = {v0, v1, v2, v3, v4, v5, v6, v7, v8};

	return from_key(sorted[(n - 1) / 2]);
}

static void median_row(void *ctx, int y, int worker)
{
	const struct median_job *job = ctx;
	const struct jd_disp *in = job->in;
	float *out = jd_disp_row(job->out, y);
	const float *c = jd_disp_row(in, y);

	(void)worker;
	for (int x = 0; x < in->width; x++) {
		float v[9];
		int n = 0, k = 0;

		if (!jd_disp_is_valid(c[x])) {
			out[x] = c[x];
			continue;
		}
		for (int yy = y - 1; yy <= y + 1; yy++) {
			int row_in = yy >= 0 && yy < in->height;
			const float *r = row_in ? jd_disp_row(in, yy) : c;

			for (int xx = x - 1; xx <= x + 1; xx++) {
				int ok =
				    row_in && xx >= 0 && xx < in->width && jd_disp_is_valid(r[xx]);

				v[k++] = ok ? r[xx] : JD_DISP_INVALID;
				n += ok;
			}
		}
		out[x] = median_of_valid(v, n);
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
