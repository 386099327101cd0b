/* A line a frame on stdout for a person watching (not with --json: stdout is the frames'). */
#include "run_outputs.h"

static int on(const struct jd_run_options *o)
{
	return !o->json;
}

static void frame(struct jd_run_outputs *r, const struct jd_run_frame *f)
{
	const struct jd_frame_stats *st = f->st;

	(void)r;
	printf("frame %4lld  %8.1f ms", st->frame, (double)st->match_ns / 1e6);
	if (st->sense) {
		printf("  objects %d  table %s", st->sense->nobjects,
		       st->sense->plane.valid ? "found" : "not found");
	}
	if (st->has_truth) {
		printf("  bad>1px %5.2f%%", st->bad1);
	}
	if (st->has_truth && !st->sense) {
		printf("  invalid %5.2f%%", st->invalid);
	}
	printf("%s\n", f->suspect ? "  SUSPECT" : "");
}

const struct jd_run_output jd_run_output_console = {.name = "console", .on = on, .frame = frame};
