#include "count_alloc.h"

#include <execinfo.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

volatile long jd_allocations, jd_frees;
_Thread_local long jd_thread_allocations;
static _Thread_local int tracing, in_trace;

void jd_alloc_trace(int n)
{
	void *pc[1];

	backtrace(pc, 1); /* its first call loads libgcc_s (allocating): not inside malloc */
	tracing = n;
}

/* Where the calling thread allocates, while jd_alloc_trace() asks (to stderr, raw frames). */
static void trace(void)
{
	void *pc[20];

	if (tracing <= 0 || in_trace) {
		return;
	}
	in_trace = 1;
	tracing--;
	backtrace_symbols_fd(pc, backtrace(pc, 20), 2);
	(void)!write(2, "--\n", 3);
	in_trace = 0;
}

void *malloc(size_t n)
{
	trace();
	jd_allocations++;
	jd_thread_allocations++;
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t m)
{
	trace();
	jd_allocations++;
	jd_thread_allocations++;
	return __libc_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
	trace();
	jd_allocations++;
	jd_thread_allocations++;
	jd_frees += p != NULL; /* the old block is gone: live blocks stay counted right */
	return __libc_realloc(p, n);
}

void *aligned_alloc(size_t a, size_t n)
{
	trace();
	jd_allocations++;
	jd_thread_allocations++;
	return __libc_memalign(a, n);
}

int posix_memalign(void **out, size_t a, size_t n)
{
	trace();
	jd_allocations++;
	jd_thread_allocations++;
	*out = __libc_memalign(a, n);
	return *out ? 0 : 12;
}

void free(void *p)
{
	jd_frees += p != NULL;
	__libc_free(p);
}
