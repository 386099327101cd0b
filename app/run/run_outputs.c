#include "run_outputs.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../hal/camera/capture.h"
#include "../formats/report.h"
#include "../ros2/ros2.h"
#include "cli.h"

/* The rows, each defined in its own output_<name>.c. */
extern const struct jd_run_output jd_run_output_dump, jd_run_output_preview, jd_run_output_ros2,
    jd_run_output_json, jd_run_output_console;

/* In the order a frame meets them: a dump before the preview reuses its pair, the JSON line
 * last but the console's, which --json silences. Stopped the other way round. */
static const struct jd_run_output *const outputs[] = {&jd_run_output_dump, &jd_run_output_preview,
						      &jd_run_output_ros2, &jd_run_output_json,
						      &jd_run_output_console};

#define NOUTPUTS (int)(sizeof(outputs) / sizeof(outputs[0]))
_Static_assert(NOUTPUTS <= JD_RUN_OUTPUTS_MAX, "JD_RUN_OUTPUTS_MAX: too small for the table");

static int is_on(const struct jd_run_outputs *r, int i)
{
	return !outputs[i]->on || outputs[i]->on(r->o);
}

void *jd_run_output_state(const struct jd_run_outputs *r, const struct jd_run_output *row)
{
	for (int i = 0; i < NOUTPUTS; i++) {
		if (outputs[i] == row) {
			return r->state[i];
		}
	}
	return NULL;
}

/* Each on row's own block, in table order (c counts first: no base). */
static void carve_states(struct jd_run_outputs *r, struct jd_carve *c)
{
	for (int i = 0; i < NOUTPUTS; i++) {
		if (is_on(r, i) && outputs[i]->state_bytes) {
			r->state[i] = jd_carve(c, outputs[i]->state_bytes);
		}
	}
}

/* The rows' own state, counted, then carved from one zeroed allocation at boot. @retval 0, -ENOMEM
 */
static int take_states(struct jd_run_outputs *r)
{
	struct jd_carve c;

	jd_carve_init(&c, NULL, 0);
	carve_states(r, &c);
	size_t total = jd_carve_total(&c);
	if (total == 0) {
		return 0;
	}
	r->state_mem = calloc(1, total);
	if (!r->state_mem) {
		return -ENOMEM;
	}
	jd_carve_init(&c, r->state_mem, total);
	carve_states(r, &c);
	return 0;
}

static void carve_all(struct jd_run_outputs *r, struct jd_carve *c)
{
	for (int i = 0; i < NOUTPUTS; i++) {
		if (is_on(r, i) && outputs[i]->carve) {
			outputs[i]->carve(r, c);
		}
	}
}

int jd_run_outputs_check(struct jd_run_outputs *r, const struct jd_run_options *o, FILE *info,
			 size_t *app_bytes)
{
	struct jd_carve c;

	memset(r, 0, sizeof(*r));
	r->o = o;
	r->info = info;
	r->w = o->w;
	r->h = o->h;
	r->colour_far = (float)(o->p.min_disp + o->p.ndisp);
	if (take_states(r)) {
		fprintf(stderr, "jetdepth: boot: no memory for the outputs' state\n");
		return JD_EXIT_RUNTIME;
	}
	for (int i = 0; i < NOUTPUTS; i++) {
		int rc = is_on(r, i) && outputs[i]->check ? outputs[i]->check(r) : 0;
		if (rc) {
			jd_run_outputs_stop(r);
			return rc;
		}
		r->open |= is_on(r, i) && !outputs[i]->start ? 1u << i : 0;
	}
	jd_carve_init(&c, NULL, 0);
	carve_all(r, &c);
	*app_bytes = r->app_bytes = jd_carve_total(&c);
	return 0;
}

int jd_run_outputs_start(struct jd_run_outputs *r, struct jd_daemon *d)
{
	struct jd_carve c;

	jd_carve_init(&c, jd_daemon_info(d)->app_mem, r->app_bytes);
	carve_all(r, &c);
	r->d = d;
	for (int i = 0; i < NOUTPUTS; i++) {
		if (!is_on(r, i) || !outputs[i]->start) {
			continue;
		}
		int rc = outputs[i]->start(r);
		if (rc) {
			jd_run_outputs_stop(r);
			return rc;
		}
		r->open |= 1u << i;
	}
	return 0;
}

unsigned jd_run_outputs_want(struct jd_run_outputs *r, int feeding, uint64_t now_ns)
{
	unsigned want = 0;

	for (int i = 0; i < NOUTPUTS; i++) {
		if ((r->open & 1u << i) && outputs[i]->want) {
			want |= outputs[i]->want(r, feeding, now_ns);
		}
	}
	return want;
}

/* The frame's JSON line, for the JSON outputs and the preview's /status. @return its length */
static int report(struct jd_run_outputs *r, const struct jd_frame_stats *st, const char *suspect,
		  const double *skew, char *line, size_t len)
{
	const struct jd_run_options *o = r->o;
	const struct jd_capture *cap = jd_daemon_cameras(r->d);
	struct jd_ros2 *ros2 = jd_run_output_ros2_of(r);
	struct jd_daemon_progress pr;

	jd_daemon_progress(r->d, &pr);
	struct jd_frame_report rep = {jd_capture_source(o->cam.kind),
				      suspect,
				      st->frame,
				      st->ts_ns,
				      st->capture_ms,
				      st->rectify_ms,
				      (double)st->match_ns / 1e6,
				      st->sense_ms,
				      st->cpu_ms,
				      st->sense,
				      st->sense ? st->tracks : NULL,
				      o->sense.have_extrinsics ? o->sense.base_from_camera : NULL,
				      pr.calib_dy_px,
				      ros2 ? jd_ros2_stamp_ns(ros2, st->ts_ns) : 0,
				      o->id,
				      (long)getpid(),
				      {cap->cam[0].device, cap->cam[1].device},
				      skew};
	return jd_report_json(&rep, line, len);
}

void jd_run_outputs_frame(struct jd_run_outputs *r, const struct jd_frame_stats *st,
			  const char *suspect, const struct jd_run_tally *t)
{
	static char line[65536];
	double skew[3];
	int has_skew = jd_daemon_skew(r->d, skew) == 0;
	struct jd_run_frame f = {st, suspect, NULL, -1, has_skew ? skew : NULL, *t};

	r->frames = t->done;
	if (r->o->json || r->o->udp[0] || r->o->preview.port) {
		f.len = report(r, st, suspect, f.skew, line, sizeof(line));
		f.line = line;
	}
	for (int i = 0; i < NOUTPUTS; i++) {
		if ((r->open & 1u << i) && outputs[i]->frame) {
			outputs[i]->frame(r, &f);
		}
	}
}

void jd_run_outputs_idle(struct jd_run_outputs *r, const char *state, const struct jd_run_tally *t)
{
	for (int i = 0; i < NOUTPUTS; i++) {
		if ((r->open & 1u << i) && outputs[i]->idle) {
			outputs[i]->idle(r, state, t);
		}
	}
}

void jd_run_outputs_stop(struct jd_run_outputs *r)
{
	for (int i = NOUTPUTS - 1; i >= 0; i--) {
		if ((r->open & 1u << i) && outputs[i]->stop) {
			outputs[i]->stop(r);
		}
	}
	r->open = 0;
	free(r->state_mem);
	r->state_mem = NULL;
	memset(r->state, 0, sizeof(r->state));
}
