/*
 * Carving one caller-provided workspace into aligned buffers. The same code runs with
 * base == NULL to compute *_mem_required(), so the budget and the layout cannot disagree.
 */
#ifndef JD_ALGO_JD_CARVE_H
#define JD_ALGO_JD_CARVE_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#define JD_ALIGN 64

/*
 * One carving rule for the whole project: this workspace's jd_carve(), hal/pool.c's arenas and
 * hal/cuda/cuda.c's device and pinned memory all take their blocks through jd_carve_offset().
 */
struct jd_carve {
	uint8_t *base; /* what offsets point into (NULL: not a host pointer, or only counting) */
	size_t size;   /* SIZE_MAX: only count */
	size_t used;
	size_t align; /* every block starts on a multiple of it (a power of two) */
	int overflow; /* a take did not fit */
	int sealed;   /* boot is over: every take is refused */
};

/** Carving from base (size bytes) in blocks aligned to align; base NULL counts only. */
static inline void jd_carve_init_aligned(struct jd_carve *c, void *base, size_t size, size_t align)
{
	c->base = base;
	c->size = size;
	c->used = 0;
	c->align = align;
	c->overflow = 0;
	c->sealed = 0;
}

static inline void jd_carve_init(struct jd_carve *c, void *base, size_t size)
{
	jd_carve_init_aligned(c, base, base ? size : SIZE_MAX, JD_ALIGN);
}

/*
 * The rule: a block of bytes starts at the first multiple of align past what is used.
 * @retval 0 with *off its offset, -EPERM once sealed, -ENOMEM where it does not fit (nothing
 *         taken, overflow set)
 */
static inline int jd_carve_offset(struct jd_carve *c, size_t bytes, size_t *off)
{
	size_t start = (c->used + c->align - 1) & ~(c->align - 1);

	if (c->sealed) {
		return -EPERM;
	}
	if (start > c->size || bytes > c->size - start) {
		c->overflow = 1;
		return -ENOMEM;
	}
	*off = start;
	c->used = start + bytes;
	return 0;
}

/** The next block of bytes; NULL when only counting or out of room (overflow set). */
static inline void *jd_carve(struct jd_carve *c, size_t bytes)
{
	size_t off;

	return jd_carve_offset(c, bytes, &off) || !c->base ? NULL : c->base + off;
}

/* Bytes used, rounded up so that blocks laid end to end stay aligned. */
static inline size_t jd_carve_total(const struct jd_carve *c)
{
	return (c->used + c->align - 1) & ~(c->align - 1);
}

#endif
