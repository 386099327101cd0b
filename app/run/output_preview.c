/* The browser preview: the frame's picture (the GPU's where it composes it) and /status. */
#include "../../hal/clock.h"
#include "../net/preview.h"
#include "cli.h"
#include "run_outputs.h"
#include "run_status.h"

extern const struct jd_run_output jd_run_output_preview; /* this file's row, at its end */

struct preview_state {
	struct jd_preview preview;
	void *mem;
	size_t bytes;
	int gpu_picture; /* the GPU composes the next frame's picture */
};

static struct preview_state *own(struct jd_run_outputs *r)
{
	return jd_run_output_state(r, &jd_run_output_preview);
}

static int on(const struct jd_run_options *o)
{
	return o->preview.port != 0;
}

static void carve(struct jd_run_outputs *r, struct jd_carve *c)
{
	struct preview_state *s = own(r);

	s->bytes = jd_preview_mem_required(r->w, r->h);
	s->mem = jd_carve(c, s->bytes);
}

static int start(struct jd_run_outputs *r)
{
	const struct jd_preview_config *pc = &r->o->preview;
	struct preview_state *s = own(r);

	if (jd_preview_start(&s->preview, pc, r->w, r->h, s->mem, s->bytes)) {
		fprintf(stderr, "jetdepth: %s\n", s->preview.err);
		return JD_EXIT_RUNTIME;
	}
	fprintf(r->info, "preview: http://%s:%d/ (at most %d streams, /status always)\n", pc->bind,
		pc->port, pc->max_clients);
	return 0;
}

/* someone watches and a picture is due: the GPU composes the next one (if it can) */
static unsigned want(struct jd_run_outputs *r, int feeding, uint64_t now_ns)
{
	struct preview_state *s = own(r);
	int due = feeding && jd_preview_wants(&s->preview, now_ns);

	s->gpu_picture = due && jd_daemon_picture_want(r->d, r->colour_far);
	return due && !s->gpu_picture ? JD_CUDA_BACK_ALL : 0;
}

static void frame(struct jd_run_outputs *r, const struct jd_run_frame *f)
{
	static char status[JD_PREVIEW_STATUS_MAX];
	const struct jd_frame_stats *st = f->st;
	struct preview_state *s = own(r);

	jd_run_status_json(r->d, st, f->tally.done, f->tally.wall_ns, f->tally.outages,
			   s->preview.watchers, "running", jd_run_output_ros2_of(r), f->skew,
			   f->len > 0 ? f->line : NULL, status, sizeof(status));
	struct jd_preview_frame pf = {st->left,
				      st->map,
				      r->colour_far,
				      st->sense,
				      st->sense ? st->tracks : NULL,
				      st->conf,
				      jd_daemon_info(r->d)->min_conf,
				      jd_daemon_picture(r->d)};
	if (s->gpu_picture && !pf.rgb) {
		/* the GPU composes it: wait for the frame that has it */
		jd_preview_set_status(&s->preview, status);
	} else {
		jd_preview_publish(&s->preview, &pf, status, jd_clock_ns());
	}
}

static void idle(struct jd_run_outputs *r, const char *state, const struct jd_run_tally *t)
{
	static char status[2048];
	struct preview_state *s = own(r);

	jd_run_status_json(r->d, NULL, t->done, t->wall_ns, t->outages, s->preview.watchers, state,
			   jd_run_output_ros2_of(r), NULL, NULL, status, sizeof(status));
	jd_preview_set_status(&s->preview, status);
}

static void stop(struct jd_run_outputs *r)
{
	jd_preview_stop(&own(r)->preview);
}

const struct jd_run_output jd_run_output_preview = {.name = "preview",
						    .state_bytes = sizeof(struct preview_state),
						    .on = on,
						    .carve = carve,
						    .start = start,
						    .want = want,
						    .frame = frame,
						    .idle = idle,
						    .stop = stop};
