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
	a->base = p;
	a->size = bytes;
	return 0;
}

void jd_arena_deinit(struct jd_arena *a)
{
	if (!a || !a->base) {
		return;
	}
	munlock(a->base, a->size);
	munmap(a->base, a->size);
	a->base = NULL;
	a->size = 0;
}

int jd_arena_take(struct jd_arena *a, size_t bytes, const char *tag, void **out)
{
	size_t need = round_up(bytes);

	*out = NULL;
	if (a->sealed) {
		snprintf(a->err, sizeof(a->err),
			 "arena %s: request for %s (%zu bytes) after boot sealed the pools",
			 a->name, tag, bytes);
		return -EPERM;
	}
	if (a->nregions >= JD_POOL_MAX_REGIONS || need > a->size - a->used) {
		snprintf(a->err, sizeof(a->err),
			 "arena %s: no room for %s: need %zu bytes, %zu free (short by %zu)",
			 a->name, tag, need, a->size - a->used,
			 need > a->size - a->used ? need - (a->size - a->used) : 0);
		return -ENOMEM;
	}
	struct jd_pool_region *r = &a->regions[a->nregions++];
	copy_tag(r->tag, tag);
	r->offset = a->used;
	r->bytes = bytes;
	*out = a->base + a->used;
	a->used += need;
	return 0;
}

void jd_arena_seal(struct jd_arena *a)
{
	a->sealed = 1;
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
