/*
 * How algo/ runs work in parallel without owning threads: the caller passes an executor
 * (hal/workers.c makes one from threads created at boot); NULL means run serially.
 */
#ifndef JD_ALGO_JD_EXEC_H
#define JD_ALGO_JD_EXEC_H

/** One work item; worker is in [0, nworkers) and indexes per-worker scratch. */
typedef void (*jd_task_fn)(void *ctx, int item, int worker);

struct jd_exec {
	int nworkers;
	/** Runs fn for every item in [0, nitems) and returns when all are done. */
	void (*parallel_for)(const struct jd_exec *ex, int nitems, jd_task_fn fn, void *ctx);
	void *impl;
};

static inline int jd_exec_workers(const struct jd_exec *ex)
{
	return ex && ex->nworkers > 0 ? ex->nworkers : 1;
}

static inline void jd_exec_run(const struct jd_exec *ex, int nitems, jd_task_fn fn, void *ctx)
{
	if (ex && ex->parallel_for) {
		ex->parallel_for(ex, nitems, fn, ctx);
		return;
	}
	for (int i = 0; i < nitems; i++) {
		fn(ctx, i, 0);
	}
}

#endif
