/*
 * The worker pool runs every item exactly once, with worker ids in range: many items, and
 * fewer items than workers (only that many helpers are woken; a late one must find nothing
 * left, and the next loop must not wait for it).
 */
#include <stdatomic.h>
#include <string.h>

#include "jd_test.h"
#include "workers.h"

#define NITEMS 1000

struct ctx {
	atomic_int hits[NITEMS];
	atomic_int bad_worker;
	int nworkers;
};

static void task(void *arg, int item, int worker)
{
	struct ctx *c = arg;

	atomic_fetch_add(&c->hits[item], 1);
	if (worker < 0 || worker >= c->nworkers) {
		atomic_fetch_add(&c->bad_worker, 1);
	}
}

int main(void)
{
	static struct ctx c;
	struct jd_workers w;

	for (int n = 1; n <= 4; n++) {
		JD_CHECK(jd_workers_init(&w, n) == 0, "init %d", n);
		for (int round = 0; round < 50; round++) {
			memset(&c, 0, sizeof(c));
			c.nworkers = n;
			jd_exec_run(&w.exec, NITEMS, task, &c);
			for (int i = 0; i < NITEMS; i++) {
				JD_CHECK(atomic_load(&c.hits[i]) == 1, "n=%d item %d ran %d times",
					 n, i, atomic_load(&c.hits[i]));
			}
			JD_CHECK(atomic_load(&c.bad_worker) == 0, "worker id out of range");
		}
		jd_workers_deinit(&w);
	}
	JD_CHECK(jd_workers_init(&w, 8) == 0, "init 8");
	for (int round = 0; round < 2000; round++) {
		int items = 2 + round % 6;
		memset(&c, 0, sizeof(c));
		c.nworkers = 8;
		jd_exec_run(&w.exec, items, task, &c);
		int once = 1;
		for (int i = 0; i < NITEMS; i++) {
			once &= atomic_load(&c.hits[i]) == (i < items);
		}
		JD_CHECK(once, "round %d, %d items: an item ran other than once", round, items);
		JD_CHECK(atomic_load(&c.bad_worker) == 0, "worker id out of range");
	}
	jd_workers_deinit(&w);
	JD_CHECK(jd_workers_init(&w, 0) != 0, "zero workers refused");
	JD_CHECK(jd_workers_init(&w, JD_WORKERS_MAX + 1) != 0, "too many refused");
	jd_workers_deinit(NULL);
	return jd_test_done("unit.workers");
}
