#include "daemon.h"

#include <string.h>

#include "../algo/eval.h"
#include "../algo/jd_status.h"
#include "../algo/matcher.h"
#include "../hal/clock.h"

int jd_daemon_init(struct jd_daemon *d, const struct jd_match_params *p, int w, int h, int threads,
		   const struct jd_capture_config *cam, const struct jd_board *board, FILE *log)
{
	struct jd_capture_config synth = {.kind = JD_CAPTURE_SYNTH};
	int rc;

	memset(d, 0, sizeof(*d));
	d->p = *p;
	synth = cam ? *cam : synth;
	synth.cam.width = w;
	synth.cam.height = h;
	synth.ndisp = p->ndisp;
	if (synth.cam.timeout_ms <= 0) {
		synth.cam.timeout_ms = 1000;
	}
	if (synth.cam.buffers <= 0) {
		synth.cam.buffers = 4;
	}
	JD_TRY(jd_boot_init(&d->boot, p, w, h, threads, 2, jd_capture_mem_required(&synth), board,
			    log));
	rc = jd_capture_init(&d->cap, &synth, d->boot.camera_mem, d->boot.camera_bytes, log);
	if (rc) {
		fprintf(stderr, "jetdepth: boot: %s\n", d->cap.err);
		jd_boot_deinit(&d->boot);
	}
	return rc;
}

/* Collect the oldest frame in flight and check it against its truth when there is one. */
static int collect(struct jd_daemon *d, struct jd_frame_stats *st)
{
	struct jd_boot *b = &d->boot;
	int k = d->frame - d->inflight; /* the oldest in flight */

	d->inflight--;
	JD_TRY(jd_boot_collect(b, &d->p));
	st->frame = k;
	st->match_ns = jd_clock_ns() - d->t_submit[k & 1];
	st->has_truth = d->truth[k & 1];
	st->bad1 = st->invalid = 0.0;
	if (st->has_truth) {
		struct jd_eval_result res;

		jd_eval(&b->disp, &b->gt[k & 1], NULL, &res);
		st->bad1 = res.bad[1];
		st->invalid = res.invalid;
	}
	return 1;
}

int jd_daemon_step(struct jd_daemon *d, struct jd_frame_stats *st)
{
	struct jd_boot *b = &d->boot;
	int k = d->frame;

	/* b->left/right are free again once submit returns (the GPU path staged them). */
	int rc = jd_capture_next(&d->cap, &b->left, &b->right, &b->gt[k & 1], &d->truth[k & 1]);
	d->camera_failed = rc != 0;
	JD_TRY(rc);
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
		jd_capture_deinit(&d->cap);
		jd_boot_deinit(&d->boot);
	}
}
