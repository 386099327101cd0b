/*
 * A fixed set of worker threads created at boot that runs algo/'s parallel loops (struct
 * jd_exec). Dispatch takes no memory: the frame loop can use it after the pools are sealed.
 */
#ifndef JD_HAL_WORKERS_H
#define JD_HAL_WORKERS_H

#include <pthread.h>

#include "../algo/jd_exec.h"

#define JD_WORKERS_MAX 64

struct jd_workers {
	struct jd_exec exec; /* hand &exec to algo/ */
	int nthreads;	     /* helper threads; the caller is worker 0 */
	pthread_t threads[JD_WORKERS_MAX];
	pthread_mutex_t lock;
	pthread_cond_t wake, done;
	unsigned long generation;
	int stop;
	int next_item, nitems;
	int tickets; /* helpers still wanted for this generation's items */
	int busy;    /* helpers working on them */
	jd_task_fn fn;
	void *ctx;
};

/** Number of CPUs online (at least 1). */
int jd_workers_cpu_count(void);

/**
 * Start n - 1 helper threads (n workers including the caller), 1 <= n <= JD_WORKERS_MAX.
 * @retval 0 success
 * @retval -EINVAL n out of range
 * @retval -EAGAIN a thread could not be created
 */
int jd_workers_init(struct jd_workers *w, int n);

/** Stop and join the threads; accepts NULL. */
void jd_workers_deinit(struct jd_workers *w);

#endif
