/*
 * jd_sort(), the frame loop's in-place sort: the order qsort() gives, for sizes 0 to 3000
 * (random, sorted, reversed, all equal), floats and 24-byte records sorted by two keys.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jd_sort.h"
#include "jd_test.h"

struct rec {
	int key, tie, pad[4];
};

static int by_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

static int by_keys(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;

	if (a->key != b->key) {
		return a->key > b->key ? -1 : 1;
	}
	return (a->tie > b->tie) - (a->tie < b->tie);
}

int main(void)
{
	static float f[3001], g[3001];
	static struct rec r[3001], q[3001];
	unsigned seed = 7;
	int bad = 0;

	for (int n = 0; n <= 3000; n += n < 40 ? 1 : 277) {
		for (int kind = 0; kind < 4; kind++) {
			for (int i = 0; i < n; i++) {
				unsigned v = jd_test_rand(&seed);
				f[i] = kind == 0   ? (float)(v % 1000)
				       : kind == 1 ? (float)i
				       : kind == 2 ? (float)(n - i)
						   : 1.0f;
				r[i] = (struct rec){(int)(v % 17), i, {0}};
			}
			memcpy(g, f, sizeof(float) * (size_t)n);
			memcpy(q, r, sizeof(struct rec) * (size_t)n);
			jd_sort(f, (size_t)n, sizeof(float), by_float);
			qsort(g, (size_t)n, sizeof(float), by_float);
			jd_sort(r, (size_t)n, sizeof(struct rec), by_keys);
			qsort(q, (size_t)n, sizeof(struct rec), by_keys);
			bad += memcmp(f, g, sizeof(float) * (size_t)n) != 0;
			bad += memcmp(r, q, sizeof(struct rec) * (size_t)n) != 0;
		}
	}
	JD_CHECK(bad == 0, "%d sorts differ from qsort's order", bad);
	return jd_test_done("unit.sort");
}
