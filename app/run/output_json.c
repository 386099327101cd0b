/* The frame's JSON line to stdout (--json) and as a UDP datagram (--udp). */
#include <errno.h>
#include <unistd.h>

#include "../net/publish.h"
#include "cli.h"
#include "run_outputs.h"

extern const struct jd_run_output jd_run_output_json; /* this file's row, at its end */

struct json_state {
	struct jd_publisher pub;
	int publish_errors;
};

static struct json_state *own(struct jd_run_outputs *r)
{
	return jd_run_output_state(r, &jd_run_output_json);
}

static int on(const struct jd_run_options *o)
{
	return o->json || o->udp[0];
}

static int check(struct jd_run_outputs *r)
{
	if (r->o->json && (jd_cli_closed_std_fds & 2)) {
		fprintf(stderr, "jetdepth: --json: stdout is closed, so every frame would be lost "
				"(redirect it to a file or a pipe, or use --udp)\n");
		return JD_EXIT_USAGE;
	}
	struct jd_publisher *p = &own(r)->pub;

	if (jd_publish_init(p, r->o->json ? STDOUT_FILENO : -1, r->o->udp[0] ? r->o->udp : NULL)) {
		fprintf(stderr, "jetdepth: %s\n", p->err);
		return JD_EXIT_USAGE;
	}
	return 0;
}

static void frame(struct jd_run_outputs *r, const struct jd_run_frame *f)
{
	struct json_state *s = own(r);
	int rc = f->len > 0 ? jd_publish(&s->pub, f->line, (size_t)f->len) : 0;

	if (rc == -EAGAIN) {
		/* a reader that stopped reading: it loses frames, the robot's other outputs none */
		if (s->pub.out_dropped == 1) {
			fprintf(stderr, "jetdepth: --json: %s (said once, then counted)\n",
				s->pub.err);
		}
		return;
	}
	if (rc && !s->publish_errors++) {
		fprintf(stderr, "jetdepth: publish: %s (said once, then counted)\n", s->pub.err);
	}
	if (rc == -EPIPE) {
		/* the reader of --json left: nobody reads what follows; stop */
		fprintf(stderr, "jetdepth: --json: stdout cannot be written any more: stopping\n");
		r->stop = 1;
		r->rc = JD_EXIT_RUNTIME;
	}
}

static void stop(struct jd_run_outputs *r)
{
	struct json_state *s = own(r);
	struct jd_publisher *p = &s->pub;

	if (jd_publish_drain(p, 500)) {
		fprintf(stderr, "jetdepth: --json: %s\n", p->err);
	}
	if (p->out_dropped) {
		fprintf(stderr,
			"jetdepth: --json: %lu line(s) dropped while the reader was not "
			"reading\n",
			p->out_dropped);
	}
	if (s->publish_errors) {
		fprintf(stderr,
			"jetdepth: publish: %lu of %lld frame(s) reached every output; stdout: %lu "
			"line(s) written, %lu lost; udp: %lu datagram(s) sent, %lu send error(s)\n",
			p->sent, r->frames, p->out_sent, p->out_errors, p->udp_sent,
			p->send_errors);
		if (p->out_errors) {
			/* frames the caller asked for on stdout were lost */
			r->rc = JD_EXIT_RUNTIME;
		}
	}
	jd_publish_deinit(p);
}

const struct jd_run_output jd_run_output_json = {.name = "json",
						 .state_bytes = sizeof(struct json_state),
						 .on = on,
						 .check = check,
						 .frame = frame,
						 .stop = stop};
