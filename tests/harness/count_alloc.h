/*
 * Counts every heap allocation in the process (glibc lets a program interpose malloc and
 * friends; the wrappers in count_alloc.c forward to glibc's own). Tests read jd_allocations
 * before and after the code that must not allocate.
 */
#ifndef JD_TESTS_COUNT_ALLOC_H
#define JD_TESTS_COUNT_ALLOC_H

extern volatile long jd_allocations;
extern volatile long jd_frees; /* free() of a non-NULL pointer, realloc() of one */
extern _Thread_local long jd_thread_allocations; /* the calling thread's alone */

/* Print the stack of the calling thread's next n allocations to stderr (finding one). */
void jd_alloc_trace(int n);

#endif
