/* The browser preview: the frame's picture (the GPU's where it composes it) and /status. */
#include "../../hal/clock.h"
#include "cli.h"
#include "run_outputs.h"
#include "run_status.h"

static int on(const struct jd_run_options *o)
{
	return o->preview.port != 0;
}

static void carve(struct jd_run_outputs *r, struct jd_carve *c)
{
	r->preview_bytes = jd_preview_mem_required(r->w, r->h);
	r->preview_mem = jd_carve(c, r->preview_bytes);
}

static int start(struct jd_run_outputs *r)
{
	const struct jd_preview_config *pc = &r->o->preview;

	if (jd_preview_start(&r->preview, pc, r->w, r->h, r->preview_mem, r->preview_bytes)) {
		fprintf(stderr, "jetdepth: %s\n", r->preview.err);
		return JD_EXIT_RUNTIME;
	}
	fprintf(r->info, "preview: http://%s:%d/ (at most %d streams, /status always)\n", pc->bind,
		pc->port, pc->max_clients);
	return 0;
}

/* someone watches and a picture is due: the GPU composes the next one (if it can) */
static unsigned want(struct jd_run_outputs *r, int feeding, uint64_t now_ns)
{
	int due = feeding && jd_preview_wants(&r->preview, now_ns);

	r->gpu_picture = due && jd_daemon_picture_want(r->d, r->colour_far);
	return due && !r->gpu_picture ? JD_CUDA_BACK_ALL : 0;
}

static const struct jd_ros2 *ros2_of(const struct jd_run_outputs *r)
{
	return r->o->ros2.enabled ? &r->ros2 : NULL;
}

static void frame(struct jd_run_outputs *r, const struct jd_run_frame *f)
{
	static char status[JD_PREVIEW_STATUS_MAX];
	const struct jd_frame_stats *st = f->st;

	jd_run_status_json(r->d, st, f->tally.done, f->tally.wall_ns, f->tally.outages,
			   r->preview.watchers, "running", ros2_of(r), f->skew,
			   f->len > 0 ? f->line : NULL, status, sizeof(status));
	struct jd_preview_frame pf = {st->left,
				      st->map,
				      r->colour_far,
				      st->sense,
				      st->sense ? st->tracks : NULL,
				      st->conf,
				      jd_daemon_info(r->d)->min_conf,
				      jd_daemon_picture(r->d)};
	if (r->gpu_picture && !pf.rgb) {
		/* the GPU composes it: wait for the frame that has it */
		jd_preview_set_status(&r->preview, status);
	} else {
		jd_preview_publish(&r->preview, &pf, status, jd_clock_ns());
	}
}

static void idle(struct jd_run_outputs *r, const char *state, const struct jd_run_tally *t)
{
	static char status[2048];

	jd_run_status_json(r->d, NULL, t->done, t->wall_ns, t->outages, r->preview.watchers, state,
			   ros2_of(r), NULL, NULL, status, sizeof(status));
	jd_preview_set_status(&r->preview, status);
}

static void stop(struct jd_run_outputs *r)
{
	jd_preview_stop(&r->preview);
}

const struct jd_run_output jd_run_output_preview = {.name = "preview",
						    .on = on,
						    .carve = carve,
						    .start = start,
						    .want = want,
						    .frame = frame,
						    .idle = idle,
						    .stop = stop};
