#include "jd_sort.h"

static void swap(unsigned char *a, unsigned char *b, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		unsigned char t = a[i];
		a[i] = b[i];
		b[i] = t;
	}
}

/* Move element i down the heap of n elements until both children are not larger. */
static void sift(unsigned char *base, size_t i, size_t n, size_t size,
		 int (*cmp)(const void *, const void *))
{
	for (;;) {
		size_t big = i, l = 2 * i + 1, r = l + 1;
		if (l < n && cmp(base + l * size, base + big * size) > 0) {
			big = l;
		}
		if (r < n && cmp(base + r * size, base + big * size) > 0) {
			big = r;
		}
		if (big == i) {
			return;
		}
		swap(base + i * size, base + big * size, size);
		i = big;
	}
}

void jd_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	unsigned char *b = base;

	for (size_t i = n / 2; i-- > 0;) {
		sift(b, i, n, size, cmp);
	}
	for (size_t end = n; end > 1; end--) {
		swap(b, b + (end - 1) * size, size);
		sift(b, 0, end - 1, size, cmp);
	}
}
