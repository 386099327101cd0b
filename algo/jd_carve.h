/*
 * Carving one caller-provided workspace into aligned buffers. The same code runs with
 * base == NULL to compute *_mem_required(), so the budget and the layout cannot disagree.
 */
#ifndef JD_ALGO_JD_CARVE_H
#define JD_ALGO_JD_CARVE_H

#include <stddef.h>
#include <stdint.h>

#define JD_ALIGN 64

struct jd_carve {
	uint8_t *base; /* NULL: only count bytes */
	size_t size;
	size_t used;
	int overflow;
};

static inline void jd_carve_init(struct jd_carve *c, void *base, size_t size)
{
	c->base = base;
	c->size = size;
	c->used = 0;
	c->overflow = 0;
}

static inline void *jd_carve(struct jd_carve *c, size_t bytes)
{
	size_t off = (c->used + JD_ALIGN - 1) & ~(size_t)(JD_ALIGN - 1);

	c->used = off + bytes;
	if (!c->base) {
		return NULL;
	}
	if (c->used > c->size) {
		c->overflow = 1;
		return NULL;
	}
	return c->base + off;
}

/* Bytes used, rounded up so that blocks laid end to end stay aligned. */
static inline size_t jd_carve_total(const struct jd_carve *c)
{
	return (c->used + JD_ALIGN - 1) & ~(size_t)(JD_ALIGN - 1);
}

#endif
