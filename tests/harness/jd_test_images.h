/* Test images and comparisons shared by the NEON and GPU equivalence tests. */
#ifndef JD_TESTS_JD_TEST_IMAGES_H
#define JD_TESTS_JD_TEST_IMAGES_H

#include <stdint.h>
#include <stdlib.h>

#include "jd_image.h"
#include "jd_test.h"

/* Random image of w x h with row stride (extra bytes filled too, to catch stride bugs). */
static inline struct jd_image jd_test_random_image(int w, int h, int stride, unsigned seed)
{
	struct jd_image im = {malloc((size_t)stride * h + 64), w, h, stride};

	for (size_t i = 0; i < (size_t)stride * h + 64; i++) {
		im.data[i] = (uint8_t)(jd_test_rand(&seed) >> 24);
	}
	return im;
}

/* Smooth random texture plus noise: the matchers find real structure in it. */
static inline struct jd_image jd_test_textured_image(int w, int h, int stride, unsigned seed)
{
	struct jd_image im = jd_test_random_image(w, h, stride, seed);

	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			int v = (x * 7 + y * 3) % 97 + (im.data[y * stride + x] >> 3);
			im.data[y * stride + x] = (uint8_t)(v * 2);
		}
	}
	return im;
}

/* First index where two byte arrays differ, or -1. */
static inline long jd_test_first_diff(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;

	for (size_t i = 0; i < n; i++) {
		if (x[i] != y[i]) {
			return (long)i;
		}
	}
	return -1;
}

#endif
