#include "daemon.h"

#include <string.h>

#include "../algo/eval.h"
#include "../algo/jd_status.h"
#include "../algo/matcher.h"
#include "../algo/synth.h"
#include "../hal/clock.h"

int jd_daemon_init(struct jd_daemon *d, const struct jd_match_params *p, int w, int h, int threads,
		   const struct jd_board *board, FILE *log)
{
	memset(d, 0, sizeof(*d));
	d->p = *p;
	return jd_boot_init(&d->boot, p, w, h, threads, 2, board, log);
}

/* Collect the oldest frame in flight and check it against its truth. */
static int collect(struct jd_daemon *d, struct jd_frame_stats *st)
{
	struct jd_boot *b = &d->boot;
	struct jd_eval_result res;
	int k = d->frame - d->inflight; /* the oldest in flight */

	d->inflight--;
	JD_TRY(jd_boot_collect(b, &d->p));
	jd_eval(&b->disp, &b->gt[k & 1], NULL, &res);
	st->frame = k;
	st->match_ns = jd_clock_ns() - d->t_submit[k & 1];
	st->bad1 = res.bad[1];
	st->invalid = res.invalid;
	return 1;
}

int jd_daemon_step(struct jd_daemon *d, struct jd_frame_stats *st)
{
	struct jd_boot *b = &d->boot;
	int k = d->frame;

	/* b->left/right are free again once submit returns (the GPU path staged them). */
	jd_synth_render(k, d->p.ndisp, &b->left, &b->right, &b->gt[k & 1]);
	d->t_submit[k & 1] = jd_clock_ns();
	JD_TRY(jd_boot_submit(b, &d->p));
	d->frame++;
	d->inflight++;
	if (d->inflight < jd_boot_depth(b)) {
		return 0;
	}
	return collect(d, st);
}

int jd_daemon_drain(struct jd_daemon *d, struct jd_frame_stats *st)
{
	return d->inflight > 0 ? collect(d, st) : 0;
}

void jd_daemon_deinit(struct jd_daemon *d)
{
	if (d) {
		jd_boot_deinit(&d->boot);
	}
}
