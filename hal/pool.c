#include "pool.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

static size_t round_up(size_t v)
{
	return (v + JD_POOL_ALIGN - 1) & ~(size_t)(JD_POOL_ALIGN - 1);
}

static void copy_tag(char *dst, const char *src)
{
	strncpy(dst, src ? src : "?", JD_POOL_TAG_LEN - 1);
	dst[JD_POOL_TAG_LEN - 1] = '\0';
}

void jd_budget_init(struct jd_budget *b)
{
	memset(b, 0, sizeof(*b));
}

int jd_budget_add(struct jd_budget *b, const char *tag, size_t bytes)
{
	if (b->n >= JD_POOL_MAX_REGIONS) {
		return -ENOMEM;
	}
	copy_tag(b->items[b->n].tag, tag);
	b->items[b->n].offset = b->total;
	b->items[b->n].bytes = bytes;
	b->total += round_up(bytes);
	b->n++;
	return 0;
}

static void print_bytes(FILE *f, size_t bytes)
{
	if (bytes >= (size_t)10 << 20) {
		fprintf(f, "%10.1f MiB", (double)bytes / (1 << 20));
	} else {
		fprintf(f, "%10.1f KiB", (double)bytes / 1024);
	}
}

void jd_budget_print(const struct jd_budget *b, FILE *f)
{
	fprintf(f, "memory budget:\n");
	for (int i = 0; i < b->n; i++) {
		if (b->items[i].bytes == 0) {
			continue; /* an unused slot (boot books its items in a fixed order) */
		}
		fprintf(f, "  %-24s", b->items[i].tag);
		print_bytes(f, b->items[i].bytes);
		fputc('\n', f);
	}
	fprintf(f, "  %-24s", "total");
	print_bytes(f, b->total);
	fputc('\n', f);
}

int jd_arena_init(struct jd_arena *a, const char *name, size_t bytes)
{
	memset(a, 0, sizeof(*a));
	jd_carve_init_aligned(&a->room, NULL, 0, JD_POOL_ALIGN);
	copy_tag(a->name, name);
	if (bytes == 0) {
		snprintf(a->err, sizeof(a->err), "arena %s: size 0", a->name);
		return -EINVAL;
	}
	bytes = round_up(bytes);
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		snprintf(a->err, sizeof(a->err), "arena %s: cannot map %zu bytes: %s", a->name,
			 bytes, strerror(errno));
		return -ENOMEM;
	}
	/* Best effort: without the privilege the memory still works, it may just page. */
	(void)mlock(p, bytes);
	jd_carve_init_aligned(&a->room, p, bytes, JD_POOL_ALIGN);
	return 0;
}

void jd_arena_deinit(struct jd_arena *a)
{
	if (!a || !a->room.base) {
		return;
	}
	munlock(a->room.base, a->room.size);
	munmap(a->room.base, a->room.size);
	jd_carve_init_aligned(&a->room, NULL, 0, JD_POOL_ALIGN);
}

int jd_arena_take(struct jd_arena *a, size_t bytes, const char *tag, void **out)
{
	size_t need = round_up(bytes), total = jd_carve_total(&a->room), off;
	size_t avail = a->room.size > total ? a->room.size - total : 0;
	int rc =
	    a->nregions < JD_POOL_MAX_REGIONS ? jd_carve_offset(&a->room, bytes, &off) : -ENOMEM;

	*out = NULL;
	if (rc == -EPERM) {
		snprintf(a->err, sizeof(a->err),
			 "arena %s: request for %s (%zu bytes) after boot sealed the pools",
			 a->name, tag, bytes);
		return rc;
	}
	if (rc) {
		snprintf(a->err, sizeof(a->err),
			 "arena %s: no room for %s: need %zu bytes, %zu free (short by %zu)",
			 a->name, tag, need, avail, need > avail ? need - avail : 0);
		return rc;
	}
	struct jd_pool_region *r = &a->regions[a->nregions++];
	copy_tag(r->tag, tag);
	r->offset = off;
	r->bytes = bytes;
	*out = a->room.base + off;
	return 0;
}

void jd_arena_seal(struct jd_arena *a)
{
	a->room.sealed = 1;
}

int jd_arena_take_budget(struct jd_arena *a, const struct jd_budget *b, void **out)
{
	for (int i = 0; i < b->n; i++) {
		int rc = jd_arena_take(a, b->items[i].bytes, b->items[i].tag, &out[i]);
		if (rc) {
			return rc;
		}
	}
	return 0;
}

const char *jd_arena_last_error(const struct jd_arena *a)
{
	return a->err;
}
