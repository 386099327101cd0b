/*
 * jd__sense_kth(), the objects' percentiles (algo/sense_objects.c): the value a sort puts at
 * the rank, for arrays below and above the size where the sampled band takes over (smooth
 * like a row-major disparity patch, random with ties, constant, sorted, reversed, and one
 * whose strided sample lies: every sample point an outlier), at ranks 0, 2, 50, 95, 98 % and
 * the last. The constant and lying arrays force the quickselect fallback (band overflow,
 * rank outside the band).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jd_test.h"
#include "sense_priv.h"

static int by_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

static float draw(int kind, long i, long n, unsigned *seed)
{
	unsigned v = jd_test_rand(seed);

	switch (kind) {
	case 0: /* a smooth patch, 150 wide, with noise */
		return 60.0f + 0.02f * (float)(i % 150) + 0.05f * (float)(i / 150) +
		       (float)(v % 100) * 0.002f;
	case 1:
		return (float)(v % 500) * 0.5f - 40.0f; /* ties, both signs */
	case 2:
		return 7.25f;
	case 3:
		return (float)i * 0.01f;
	case 4:
		return (float)(n - i) * 0.01f;
	default: /* the sample's points (multiples of n / 1024) far above the rest */
		return i % (n / 1024) == 0 ? 1e6f + (float)i : (float)(v % 1000);
	}
}

int main(void)
{
	static const long sizes[] = {1, 2, 17, 4095, 4096, 5000, 33023, 70001};
	float *a = malloc(sizeof(float) * 70001), *sorted = malloc(sizeof(float) * 70001);
	unsigned seed = 5;
	int bad = 0, checked = 0;

	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		long n = sizes[si];
		for (int kind = 0; kind < 6; kind++) {
			if (kind == 5 && n < 4096) {
				continue;
			}
			long ranks[] = {0, n * 2 / 100, n / 2, n * 95 / 100, n * 98 / 100, n - 1};
			for (size_t ri = 0; ri < sizeof(ranks) / sizeof(ranks[0]); ri++) {
				for (long i = 0; i < n; i++) {
					a[i] = draw(kind, i, n, &seed);
				}
				memcpy(sorted, a, sizeof(float) * (size_t)n);
				qsort(sorted, (size_t)n, sizeof(float), by_float);
				float got = jd__sense_kth(a, n, ranks[ri]);
				if (got != sorted[ranks[ri]]) {
					bad++;
					JD_CHECK(0, "n %ld kind %d rank %ld: %g, sorted %g", n, kind,
						 ranks[ri], (double)got, (double)sorted[ranks[ri]]);
				}
				checked++;
			}
		}
	}
	JD_CHECK(bad == 0, "%d of %d ranks differ from a sort's", bad, checked);
	free(a);
	free(sorted);
	return jd_test_done("unit.sense_kth");
}
