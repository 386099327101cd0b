/* Arena: carving, alignment, exhaustion and sealing, with the error texts. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "jd_test.h"
#include "pool.h"

/* The one carving rule the arenas, the GPU's memory and the workspaces share. */
static void carve_rule(void)
{
	static uint8_t buf[1000];
	struct jd_carve c;
	size_t off = 7;

	jd_carve_init_aligned(&c, NULL, 1000, 256);
	JD_CHECK(jd_carve_offset(&c, 10, &off) == 0 && off == 0, "first block at 0: %zu", off);
	JD_CHECK(jd_carve_offset(&c, 300, &off) == 0 && off == 256, "next boundary: %zu", off);
	JD_CHECK(jd_carve_offset(&c, 500, &off) == -ENOMEM && c.overflow && c.used == 556,
		 "past the size: refused, nothing taken (used %zu)", c.used);
	JD_CHECK(jd_carve_offset(&c, 232, &off) == 0 && off == 768 && jd_carve_total(&c) == 1024,
		 "what fits still fits: %zu", off);
	c.sealed = 1;
	JD_CHECK(jd_carve_offset(&c, 0, &off) == -EPERM, "sealed: refused");

	jd_carve_init(&c, NULL, 0); /* counting */
	JD_CHECK(jd_carve(&c, 1u << 30) == NULL && jd_carve(&c, 1) == NULL && !c.overflow &&
		     jd_carve_total(&c) == (1u << 30) + JD_ALIGN,
		 "counting counts: %zu", jd_carve_total(&c));
	jd_carve_init(&c, buf, sizeof(buf));
	JD_CHECK(jd_carve(&c, 100) == buf && jd_carve(&c, 1) == buf + 128 &&
		     jd_carve(&c, 900) == NULL && c.overflow,
		 "a workspace: pointers into it, NULL past its end");
}

int main(void)
{
	struct jd_arena a;
	struct jd_budget b;
	void *p1, *p2, *p3;

	carve_rule();
	JD_CHECK(jd_arena_init(&a, "host", 0) == -EINVAL, "zero size refused");
	JD_CHECK(jd_arena_init(&a, "host", 1000) == 0, "init");
	JD_CHECK(a.room.size == 1024, "size rounded to 64: %zu", a.room.size);
	JD_CHECK(jd_arena_take(&a, 100, "frames", &p1) == 0, "first take");
	JD_CHECK(jd_arena_take(&a, 1, "disp", &p2) == 0, "second take");
	JD_CHECK(((uintptr_t)p1 % JD_POOL_ALIGN) == 0 && ((uintptr_t)p2 % JD_POOL_ALIGN) == 0,
		 "64-byte aligned");
	JD_CHECK((char *)p2 - (char *)p1 == 128, "blocks do not overlap: %td",
		 (char *)p2 - (char *)p1);
	memset(p1, 0xab, 100); /* the memory is usable */
	JD_CHECK(jd_arena_take(&a, 4096, "matcher.sgm", &p3) == -ENOMEM, "too big");
	JD_CHECK(p3 == NULL, "no pointer on failure");
	JD_CHECK(strstr(jd_arena_last_error(&a), "matcher.sgm") &&
		     strstr(jd_arena_last_error(&a), "short by"),
		 "error names the tag and shortfall: %s", jd_arena_last_error(&a));
	jd_arena_seal(&a);
	JD_CHECK(jd_arena_take(&a, 1, "late", &p3) == -EPERM, "sealed arena refuses");
	JD_CHECK(strstr(jd_arena_last_error(&a), "late") &&
		     strstr(jd_arena_last_error(&a), "sealed"),
		 "error names the request: %s", jd_arena_last_error(&a));
	JD_CHECK(a.nregions == 2, "failed takes leave no region: %d", a.nregions);
	jd_arena_deinit(&a);
	jd_arena_deinit(&a); /* twice is harmless */
	jd_arena_deinit(NULL);

	jd_budget_init(&b);
	JD_CHECK(jd_budget_add(&b, "a", 10) == 0 && jd_budget_add(&b, "b", 70) == 0, "budget");
	JD_CHECK(b.total == 64 + 128, "budget rounds each item: %zu", b.total);
	JD_CHECK(jd_arena_init(&a, "host", b.total) == 0, "init from budget");
	void *out[2];
	JD_CHECK(jd_arena_take_budget(&a, &b, out) == 0, "budget fits exactly");
	JD_CHECK(jd_carve_total(&a.room) == a.room.size, "nothing left over: %zu of %zu",
		 jd_carve_total(&a.room), a.room.size);
	jd_arena_deinit(&a);
	for (int i = 0; i < JD_POOL_MAX_REGIONS; i++) {
		jd_budget_add(&b, "x", 1);
	}
	JD_CHECK(jd_budget_add(&b, "overflow", 1) == -ENOMEM, "budget item limit");
	return jd_test_done("unit.pool");
}
