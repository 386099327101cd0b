#include "daemon.h"

#include <string.h>

#include "../algo/eval.h"
#include "../algo/matcher.h"
#include "../algo/synth.h"
#include "../hal/clock.h"

int jd_daemon_init(struct jd_daemon *d, const struct jd_match_params *p, int w, int h, int threads,
		   const struct jd_board *board, FILE *log)
{
	memset(d, 0, sizeof(*d));
	d->p = *p;
	return jd_boot_init(&d->boot, p, w, h, threads, 1, board, log);
}

int jd_daemon_step(struct jd_daemon *d, struct jd_frame_stats *st)
{
	struct jd_boot *b = &d->boot;
	struct jd_eval_result res;
	uint64_t t0, t1;
	int rc;

	jd_synth_render(d->frame, d->p.ndisp, &b->left, &b->right, &b->gt);
	t0 = jd_clock_ns();
	rc = jd_boot_match(b, &d->p);
	t1 = jd_clock_ns();
	if (rc) {
		return rc;
	}
	jd_eval(&b->disp, &b->gt, NULL, &res);
	st->frame = d->frame++;
	st->match_ns = t1 - t0;
	st->bad1 = res.bad[1];
	st->invalid = res.invalid;
	return 0;
}

void jd_daemon_deinit(struct jd_daemon *d)
{
	if (d) {
		jd_boot_deinit(&d->boot);
	}
}
