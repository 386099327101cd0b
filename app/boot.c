#include "boot.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "../algo/matcher.h"
#include "cli.h"

enum { R_LEFT, R_RIGHT, R_DISP, R_WS, R_GT, R_COUNT };

/* The kernel table, once: the board may forbid FP16 arithmetic (neon_fp16 no). */
static int select_kernels(struct jd_boot *b, const struct jd_board *board, FILE *log)
{
	enum jd_backend want;
	char err[160], line[400];
	int rc = jd_cli_backend(&want);

	if (rc) {
		return rc;
	}
	rc = jd_kernels_select(want, board ? board->neon_fp16 : 1, &b->kernels, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "jetdepth: boot: %s\n", err);
		return rc;
	}
	if (log) {
		jd_kernels_describe(&b->kernels, line, sizeof(line));
		fprintf(log, "kernels (%s, cpu fp16 %s): %s\n", jd_backend_name(want),
			jd_cpu_has_fp16() ? "yes" : "no", line);
	}
	return 0;
}

int jd_boot_init(struct jd_boot *b, const struct jd_match_params *p, int w, int h, int threads,
		 int with_gt, const struct jd_board *board, FILE *log)
{
	size_t npix = (size_t)w * h;
	void *r[R_COUNT] = {0};
	char tag[32];
	int rc;

	memset(b, 0, sizeof(*b));
	rc = select_kernels(b, board, log);
	if (rc) {
		return rc;
	}
	b->ws_bytes = jd_match_mem_required(p, w, h, threads);
	snprintf(tag, sizeof(tag), "matcher.%s", jd_algo_name(p->algo));
	jd_budget_init(&b->budget);
	jd_budget_add(&b->budget, "frame.left", npix);
	jd_budget_add(&b->budget, "frame.right", npix);
	jd_budget_add(&b->budget, "disparity", sizeof(float) * npix);
	jd_budget_add(&b->budget, tag, b->ws_bytes);
	if (with_gt) {
		jd_budget_add(&b->budget, "ground-truth", sizeof(float) * npix);
	}
	if (log) {
		jd_budget_print(&b->budget, log);
	}
	/* Refuse at boot, with the numbers, what the machine cannot hold (not an OOM later). */
	size_t ram = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
	if (ram > 0 && b->budget.total > ram) {
		fprintf(
		    stderr,
		    "jetdepth: boot: memory budget %.1f MiB for %dx%d with ndisp %d (%s) exceeds "
		    "this machine's %.1f MiB; use a smaller --size or --ndisp\n",
		    (double)b->budget.total / (1 << 20), w, h, p->ndisp, jd_algo_name(p->algo),
		    (double)ram / (1 << 20));
		return -ENOMEM;
	}
	if (board && b->budget.total > (size_t)board->memory_ceiling_mb << 20) {
		fprintf(
		    stderr,
		    "jetdepth: boot: memory budget %.1f MiB exceeds the board's ceiling of %ld MiB "
		    "(%s:%d); use a smaller --size or --ndisp\n",
		    (double)b->budget.total / (1 << 20), board->memory_ceiling_mb,
		    board->origin_ceiling.file, board->origin_ceiling.line);
		return -ENOMEM;
	}
	rc = jd_arena_init(&b->arena, "host", b->budget.total);
	if (!rc) {
		rc = jd_arena_take_budget(&b->arena, &b->budget, r);
	}
	if (rc) {
		fprintf(stderr, "jetdepth: boot: %s\n", jd_arena_last_error(&b->arena));
		jd_arena_deinit(&b->arena);
		return rc;
	}
	jd_arena_seal(&b->arena);
	b->left = (struct jd_image){r[R_LEFT], w, h, w};
	b->right = (struct jd_image){r[R_RIGHT], w, h, w};
	b->disp = (struct jd_disp){r[R_DISP], w, h, w};
	b->gt = (struct jd_disp){with_gt ? r[R_GT] : NULL, w, h, w};
	b->ws = r[R_WS];
	rc = jd_workers_init(&b->workers, threads);
	if (rc) {
		fprintf(stderr, "jetdepth: boot: cannot start %d worker threads\n", threads);
		jd_arena_deinit(&b->arena);
		return rc;
	}
	return 0;
}

void jd_boot_deinit(struct jd_boot *b)
{
	if (!b) {
		return;
	}
	jd_workers_deinit(&b->workers);
	jd_arena_deinit(&b->arena);
}
