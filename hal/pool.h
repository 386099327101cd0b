/*
 * Fixed memory: one arena per kind of memory, sized from a computed budget, taken from the OS
 * once at boot, carved into named regions, then sealed. After the seal every request fails
 * loudly: the frame loop never allocates.
 */
#ifndef JD_HAL_POOL_H
#define JD_HAL_POOL_H

#include <stddef.h>
#include <stdio.h>

#include "../algo/jd_carve.h"

#define JD_POOL_ALIGN 64
#define JD_POOL_MAX_REGIONS 32
#define JD_POOL_TAG_LEN 32

struct jd_pool_region {
	char tag[JD_POOL_TAG_LEN];
	size_t offset;
	size_t bytes;
};

struct jd_arena {
	char name[JD_POOL_TAG_LEN];
	struct jd_carve room; /* the mapping, carved by jd_carve_offset()'s rule */
	int nregions;
	struct jd_pool_region regions[JD_POOL_MAX_REGIONS];
	char err[192]; /* last error, names the tag and the numbers */
};

/** A budget: named requests summed before anything is allocated. */
struct jd_budget {
	int n;
	struct jd_pool_region items[JD_POOL_MAX_REGIONS];
	size_t total;
};

void jd_budget_init(struct jd_budget *b);
/** @retval 0, or -ENOMEM when more than JD_POOL_MAX_REGIONS items are added */
int jd_budget_add(struct jd_budget *b, const char *tag, size_t bytes);
/** Print one line per item and the total. */
void jd_budget_print(const struct jd_budget *b, FILE *f);

/**
 * Map @p bytes (64-byte aligned, locked in RAM where permitted) for the arena.
 * @retval 0 success
 * @retval -EINVAL zero size
 * @retval -ENOMEM the OS refused; a->err has the numbers
 */
int jd_arena_init(struct jd_arena *a, const char *name, size_t bytes);

/** Return the arena's memory to the OS; accepts NULL and an arena that never initialised. */
void jd_arena_deinit(struct jd_arena *a);

/**
 * Carve a tagged block.
 * @retval 0 success, *out set
 * @retval -EPERM the arena is sealed
 * @retval -ENOMEM not enough room; a->err names the tag and the shortfall
 */
int jd_arena_take(struct jd_arena *a, size_t bytes, const char *tag, void **out);

/** End of boot: every later jd_arena_take() fails. */
void jd_arena_seal(struct jd_arena *a);

/** Carve every item of a budget, in order; out[i] receives item i. */
int jd_arena_take_budget(struct jd_arena *a, const struct jd_budget *b, void **out);

const char *jd_arena_last_error(const struct jd_arena *a);

#endif
