/* ROS 2 topics: each frame offered to the publishing thread, with what the GPU made for it. */
#include "../ros2/ros2_daemon.h"
#include "cli.h"
#include "run_outputs.h"

extern const struct jd_run_output jd_run_output_ros2; /* this file's row, at its end */

struct ros2_state {
	struct jd_ros2 ros2;
	void *mem;
	size_t bytes;
};

static struct ros2_state *own(const struct jd_run_outputs *r)
{
	return jd_run_output_state(r, &jd_run_output_ros2);
}

struct jd_ros2 *jd_run_output_ros2_of(const struct jd_run_outputs *r)
{
	struct ros2_state *s = own(r);

	return s ? &s->ros2 : NULL;
}

static int on(const struct jd_run_options *o)
{
	return o->ros2.enabled;
}

static void carve(struct jd_run_outputs *r, struct jd_carve *c)
{
	struct ros2_state *s = own(r);

	s->bytes = jd_ros2_mem_required(r->w, r->h);
	s->mem = jd_carve(c, s->bytes);
}

static int start(struct jd_run_outputs *r)
{
	const struct jd_ros2_config *rc = &r->o->ros2;
	struct jd_ros2_rig rig = jd_ros2_rig_of(r->d);
	struct ros2_state *s = own(r);

	if (jd_ros2_start(&s->ros2, rc, &rig, s->mem, s->bytes)) {
		fprintf(stderr, "jetdepth: %s\n", s->ros2.err);
		return JD_EXIT_RUNTIME;
	}
	fprintf(r->info, "ros2: publishing under /%s (frame %s)%s; discovery: %s\n", rc->ns,
		rc->frame_id,
		rig.have_model ? "" : "; no camera model: no depth, cloud, camera info or objects",
		s->ros2.discovery);
	return 0;
}

/* the GPU makes what it can of depth and the cloud; the rest comes back */
static unsigned want(struct jd_run_outputs *r, int feeding, uint64_t now_ns)
{
	(void)feeding;
	(void)now_ns;
	return jd_ros2_want_made(&own(r)->ros2, r->d);
}

static void frame(struct jd_run_outputs *r, const struct jd_run_frame *f)
{
	struct jd_ros2_frame rf = jd_ros2_frame_of(r->d, f->st);

	jd_ros2_offer(&own(r)->ros2, &rf);
}

static void stop(struct jd_run_outputs *r)
{
	struct jd_ros2_counters c;
	struct jd_ros2 *ros2 = &own(r)->ros2;

	jd_ros2_stop(ros2); /* publishes what is pending first */
	jd_ros2_counters(ros2, &c);
	fprintf(r->info,
		"ros2: %lu of %lu frame(s) published (%lu replaced by a newer one), %lu write "
		"error(s), %lu other writer(s) on these topics; mean ms: offer %.2f, compose %.2f, "
		"write %.2f\n",
		c.published, c.offered, c.replaced, c.write_errors, c.rivals,
		c.offered ? c.offer_ms / c.offered : 0.0,
		c.published ? c.compose_ms / c.published : 0.0,
		c.published ? c.write_ms / c.published : 0.0);
}

const struct jd_run_output jd_run_output_ros2 = {.name = "ros2",
						 .state_bytes = sizeof(struct ros2_state),
						 .on = on,
						 .carve = carve,
						 .start = start,
						 .want = want,
						 .frame = frame,
						 .stop = stop};
