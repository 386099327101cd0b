/* The worker pool runs every item exactly once, with worker ids in range. */
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
				JD_CHECK(atomic_load(&c.hits[i]) == 1, "n=%d item %d ran %d times", n,
					 i, atomic_load(&c.hits[i]));
			}
			JD_CHECK(atomic_load(&c.bad_worker) == 0, "worker id out of range");
		}
		jd_workers_deinit(&w);
	}
	JD_CHECK(jd_workers_init(&w, 0) != 0, "zero workers refused");
	JD_CHECK(jd_workers_init(&w, JD_WORKERS_MAX + 1) != 0, "too many refused");
	jd_workers_deinit(NULL);
	return jd_test_done("unit.workers");
}
