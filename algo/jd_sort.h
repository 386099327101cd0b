/*
 * An in-place sort for the frame loop: qsort() may allocate (glibc's merge sort takes a
 * buffer from malloc for arrays over a page or so), and the loop never allocates. Heap sort:
 * O(n log n), no memory, not stable (callers sort by a total order).
 */
#ifndef JD_ALGO_JD_SORT_H
#define JD_ALGO_JD_SORT_H

#include <stddef.h>

/** Sort n elements of size bytes at base by cmp (as qsort's), in place. */
void jd_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#endif
