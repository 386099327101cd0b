/* The frame dump: on SIGUSR1 the next frame with its map and pair on the host is written. */
#include "../formats/dump.h"
#include "cli.h"
#include "run_outputs.h"

extern const struct jd_run_output jd_run_output_dump; /* this file's row, at its end */

struct dump_state {
	float *mem; /* the depth a dump writes */
};

static struct dump_state *own(struct jd_run_outputs *r)
{
	return jd_run_output_state(r, &jd_run_output_dump);
}

static int on(const struct jd_run_options *o)
{
	return o->dump_dir[0] != '\0';
}

static void carve(struct jd_run_outputs *r, struct jd_carve *c)
{
	own(r)->mem = jd_carve(c, jd_dump_mem_required(r->w, r->h));
}

static int check(struct jd_run_outputs *r)
{
	char err[700];

	if (jd_dump_dir_check(r->o->dump_dir, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
		return JD_EXIT_RUNTIME;
	}
	return 0;
}

/* asked for since the signal: everything comes back to the host */
static unsigned want(struct jd_run_outputs *r, int feeding, uint64_t now_ns)
{
	(void)feeding;
	(void)now_ns;
	return *r->dump_requested ? JD_CUDA_BACK_ALL : 0;
}

static void frame(struct jd_run_outputs *r, const struct jd_run_frame *f)
{
	const struct jd_frame_stats *st = f->st;
	char err[700];

	if (!*r->dump_requested || !st->map || !st->left) {
		return; /* not asked for, or this frame was submitted before the signal */
	}
	*r->dump_requested = 0;
	int nd = jd_dump_frame(r->o->dump_dir, st->map, st->conf, st->left,
			       jd_daemon_info(r->d)->model, own(r)->mem, err, sizeof(err));
	if (nd < 0) {
		fprintf(stderr,
			"jetdepth: dump: %s; no file of this frame was kept (the loop goes "
			"on)\n",
			err);
	} else {
		fprintf(r->info, "dump: frame %lld, %d file(s) in %s\n", st->frame, nd,
			r->o->dump_dir);
	}
}

const struct jd_run_output jd_run_output_dump = {.name = "dump",
						 .state_bytes = sizeof(struct dump_state),
						 .on = on,
						 .carve = carve,
						 .check = check,
						 .want = want,
						 .frame = frame};
