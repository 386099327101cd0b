#include "workers.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

int jd_workers_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : (n > JD_WORKERS_MAX ? JD_WORKERS_MAX : (int)n);
}

/* Take items until none are left; called with the lock held, returns with it held. */
static void drain(struct jd_workers *w, int worker)
{
	while (w->next_item < w->nitems) {
		int item = w->next_item++;
		jd_task_fn fn = w->fn;
		void *ctx = w->ctx;

		pthread_mutex_unlock(&w->lock);
		fn(ctx, item, worker);
		pthread_mutex_lock(&w->lock);
	}
}

struct start {
	struct jd_workers *w;
	int index;
};

static void *thread_main(void *arg)
{
	struct jd_workers *w = ((struct start *)arg)->w;
	int index = ((struct start *)arg)->index;
	unsigned long seen = 0;

	pthread_mutex_lock(&w->lock);
	/* The start block lives on the creator's stack: tell it we have read it. */
	w->busy--;
	pthread_cond_signal(&w->done);
	for (;;) {
		/* a new generation with a ticket left: the dispatcher wants one more helper */
		while (!w->stop && (w->generation == seen || w->tickets == 0)) {
			pthread_cond_wait(&w->wake, &w->lock);
		}
		if (w->stop) {
			break;
		}
		seen = w->generation;
		w->tickets--;
		w->busy++;
		drain(w, index);
		if (--w->busy == 0) {
			pthread_cond_signal(&w->done);
		}
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/*
 * Only as many helpers as there are items beyond the caller's first are woken: a frame's
 * handful of objects need not wake every thread (each wake is a futex round and a turn on
 * the lock, for a thread that then finds nothing to take).
 */
static void parallel_for(const struct jd_exec *ex, int nitems, jd_task_fn fn, void *ctx)
{
	struct jd_workers *w = ex->impl;

	if (w->nthreads == 0 || nitems <= 1) {
		for (int i = 0; i < nitems; i++) {
			fn(ctx, i, 0);
		}
		return;
	}
	int helpers = nitems - 1 < w->nthreads ? nitems - 1 : w->nthreads;
	pthread_mutex_lock(&w->lock);
	w->fn = fn;
	w->ctx = ctx;
	w->next_item = 0;
	w->nitems = nitems;
	w->tickets = helpers;
	w->generation++;
	for (int i = 0; i < helpers; i++) {
		pthread_cond_signal(&w->wake);
	}
	drain(w, 0);
	/* every item is taken: a helper not yet awake has nothing left to do */
	w->tickets = 0;
	while (w->busy > 0) {
		pthread_cond_wait(&w->done, &w->lock);
	}
	pthread_mutex_unlock(&w->lock);
}

int jd_workers_init(struct jd_workers *w, int n)
{
	memset(w, 0, sizeof(*w));
	if (n < 1 || n > JD_WORKERS_MAX) {
		return -EINVAL;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	pthread_cond_init(&w->done, NULL);
	w->exec.nworkers = n;
	w->exec.parallel_for = parallel_for;
	w->exec.impl = w;
	for (int i = 1; i < n; i++) {
		struct start s = {w, i};

		pthread_mutex_lock(&w->lock);
		w->busy = 1;
		if (pthread_create(&w->threads[i - 1], NULL, thread_main, &s) != 0) {
			pthread_mutex_unlock(&w->lock);
			jd_workers_deinit(w);
			return -EAGAIN;
		}
		while (w->busy > 0) {
			pthread_cond_wait(&w->done, &w->lock);
		}
		w->nthreads = i;
		pthread_mutex_unlock(&w->lock);
	}
	return 0;
}

void jd_workers_deinit(struct jd_workers *w)
{
	if (!w || !w->exec.impl) {
		return;
	}
	pthread_mutex_lock(&w->lock);
	w->stop = 1;
	pthread_cond_broadcast(&w->wake);
	pthread_mutex_unlock(&w->lock);
	for (int i = 0; i < w->nthreads; i++) {
		pthread_join(w->threads[i], NULL);
	}
	pthread_cond_destroy(&w->wake);
	pthread_cond_destroy(&w->done);
	pthread_mutex_destroy(&w->lock);
	w->exec.impl = NULL;
}
