#include "boot.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "../algo/jd_status.h"
#include "../algo/matcher.h"
#include "cli.h"

enum { R_LEFT, R_RIGHT, R_DISP, R_WS, R_GT0, R_GT1, R_CAMERA, R_COUNT };

/*
 * The GPU, once: with --backend cuda it must work (or boot stops, saying why); with auto it
 * is used where the matcher has CUDA kernels and a GPU answers, else the CPU, saying why.
 */
static int select_gpu(struct jd_boot *b, enum jd_backend want, const struct jd_match_params *p,
		      int w, int h, FILE *log)
{
	int rc;

	if (want != JD_BACKEND_CUDA && want != JD_BACKEND_AUTO) {
		return 0;
	}
	if (p->algo == JD_ALGO_SAD) {
		rc = jd_cuda_init(&b->cuda, jd_cuda_sad_device_bytes(w, h),
				  jd_cuda_sad_pinned_bytes(w, h));
	} else if (p->algo == JD_ALGO_SGM) {
		rc = jd_cuda_init(&b->cuda, jd_cuda_sgm_device_bytes(p, w, h),
				  jd_cuda_sgm_pinned_bytes(w, h));
	} else {
		rc = jd_cuda_init(&b->cuda, jd_cuda_bp_device_bytes(p, w, h),
				  jd_cuda_bp_pinned_bytes(p, w, h));
	}
	if (rc) {
		if (want == JD_BACKEND_CUDA) {
			fprintf(stderr, "jetdepth: boot: --backend cuda: %s\n", b->cuda.err);
			jd_cuda_deinit(&b->cuda);
			return rc;
		}
		if (log) {
			fprintf(log, "gpu: not used (%s)\n", b->cuda.err);
		}
		jd_cuda_deinit(&b->cuda);
		return 0;
	}
	b->gpu = 1;
	if (log) {
		fprintf(log, "gpu: %s (sm_%d%d, %d SMs), driver %d.%d: %s on the GPU\n",
			b->cuda.name, b->cuda.cc_major, b->cuda.cc_minor, b->cuda.sm_count,
			b->cuda.driver_version / 1000, b->cuda.driver_version % 1000 / 10,
			jd_algo_name(p->algo));
	}
	return 0;
}

/* The kernel table, once: the board may forbid FP16 arithmetic (neon_fp16 no). */
static int select_kernels(struct jd_boot *b, enum jd_backend want, const struct jd_board *board,
			  FILE *log)
{
	char err[160], line[400];
	int rc;

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
		 int gt_maps, size_t camera_bytes, const struct jd_board *board, FILE *log)
{
	size_t npix = (size_t)w * h;
	void *r[R_COUNT] = {0};
	char tag[32];
	int rc;

	enum jd_backend want;

	memset(b, 0, sizeof(*b));
	JD_TRY(jd_cli_backend(&want));
	JD_TRY(select_kernels(b, want, board, log));
	JD_TRY(select_gpu(b, want, p, w, h, log));
	b->ws_bytes = jd_match_mem_required(p, w, h, threads);
	snprintf(tag, sizeof(tag), "matcher.%s", jd_algo_name(p->algo));
	jd_budget_init(&b->budget);
	jd_budget_add(&b->budget, "frame.left", npix);
	jd_budget_add(&b->budget, "frame.right", npix);
	jd_budget_add(&b->budget, "disparity", sizeof(float) * npix);
	jd_budget_add(&b->budget, tag, b->ws_bytes);
	for (int i = 0; i < 2; i++) {
		/* always two items, so that the camera's is R_CAMERA (an empty one takes nothing) */
		jd_budget_add(&b->budget, i ? "ground-truth.1" : "ground-truth.0",
			      i < gt_maps ? sizeof(float) * npix : 0);
	}
	jd_budget_add(&b->budget, "camera", camera_bytes);
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
		jd_cuda_deinit(&b->cuda);
		return -ENOMEM;
	}
	if (board && b->budget.total > (size_t)board->memory_ceiling_mb << 20) {
		fprintf(
		    stderr,
		    "jetdepth: boot: memory budget %.1f MiB exceeds the board's ceiling of %ld MiB "
		    "(%s:%d); use a smaller --size or --ndisp\n",
		    (double)b->budget.total / (1 << 20), board->memory_ceiling_mb,
		    board->origin_ceiling.file, board->origin_ceiling.line);
		jd_cuda_deinit(&b->cuda);
		return -ENOMEM;
	}
	rc = jd_arena_init(&b->arena, "host", b->budget.total);
	if (!rc) {
		rc = jd_arena_take_budget(&b->arena, &b->budget, r);
	}
	if (rc) {
		fprintf(stderr, "jetdepth: boot: %s\n", jd_arena_last_error(&b->arena));
		jd_arena_deinit(&b->arena);
		jd_cuda_deinit(&b->cuda);
		return rc;
	}
	jd_arena_seal(&b->arena);
	if (b->gpu) {
		if (p->algo == JD_ALGO_SAD) {
			rc = jd_cuda_sad_init(&b->sad_gpu, &b->cuda, p, w, h);
		} else if (p->algo == JD_ALGO_SGM) {
			rc = jd_cuda_sgm_init(&b->sgm_gpu, &b->cuda, p, w, h);
		} else {
			rc = jd_cuda_bp_init(&b->bp_gpu, &b->cuda, p, w, h);
		}
		if (rc) {
			fprintf(stderr, "jetdepth: boot: gpu: %s\n", b->cuda.err);
			jd_arena_deinit(&b->arena);
			jd_cuda_deinit(&b->cuda);
			return rc;
		}
		jd_cuda_seal(&b->cuda);
	}
	b->left = (struct jd_image){r[R_LEFT], w, h, w};
	b->right = (struct jd_image){r[R_RIGHT], w, h, w};
	b->disp = (struct jd_disp){r[R_DISP], w, h, w};
	for (int i = 0; i < 2; i++) {
		b->gt[i] = (struct jd_disp){i < gt_maps ? r[R_GT0 + i] : NULL, w, h, w};
	}
	b->ws = r[R_WS];
	b->camera_mem = camera_bytes ? r[R_CAMERA] : NULL;
	b->camera_bytes = camera_bytes;
	rc = jd_workers_init(&b->workers, threads);
	if (rc) {
		fprintf(stderr, "jetdepth: boot: cannot start %d worker threads\n", threads);
		jd_arena_deinit(&b->arena);
		jd_cuda_deinit(&b->cuda);
		return rc;
	}
	if (b->gpu) {
		/* Warm-up frame: whatever the driver still sets up on first use happens in boot. */
		rc = jd_boot_match(b, p);
		if (rc) {
			jd_boot_deinit(b);
			return rc;
		}
	}
	return 0;
}

void jd_boot_deinit(struct jd_boot *b)
{
	if (!b) {
		return;
	}
	jd_workers_deinit(&b->workers);
	jd_cuda_deinit(&b->cuda);
	jd_arena_deinit(&b->arena);
}

static int gpu_failed(struct jd_boot *b, int rc)
{
	if (rc) {
		fprintf(stderr, "jetdepth: gpu: %s\n", b->cuda.err);
	}
	return rc;
}

int jd_boot_submit(struct jd_boot *b, const struct jd_match_params *p)
{
	int rc;

	if (!b->gpu) {
		if (b->cpu_pending) {
			return -EBUSY;
		}
		rc = jd_match_run(&b->kernels, p, &b->left, &b->right, &b->disp, b->ws,
				  b->ws_bytes, &b->workers.exec);
		b->cpu_pending = rc == 0;
		return rc;
	}
	if (p->algo == JD_ALGO_SAD) {
		rc = jd_cuda_sad_submit(&b->sad_gpu, p, &b->left, &b->right);
	} else if (p->algo == JD_ALGO_SGM) {
		rc = jd_cuda_sgm_submit(&b->sgm_gpu, p, &b->left, &b->right);
	} else {
		rc = jd_cuda_bp_submit(&b->bp_gpu, p, &b->left, &b->right);
	}
	return gpu_failed(b, rc);
}

int jd_boot_collect(struct jd_boot *b, const struct jd_match_params *p)
{
	if (!b->gpu) {
		if (!b->cpu_pending) {
			return -ENOENT;
		}
		b->cpu_pending = 0;
		return 0;
	}
	if (p->algo == JD_ALGO_SAD) {
		return gpu_failed(b, jd_cuda_sad_collect(&b->sad_gpu, &b->disp));
	} else if (p->algo == JD_ALGO_SGM) {
		return gpu_failed(b, jd_cuda_sgm_collect(&b->sgm_gpu, &b->disp));
	}
	return gpu_failed(b, jd_cuda_bp_collect(&b->bp_gpu, &b->disp));
}

int jd_boot_depth(const struct jd_boot *b)
{
	return b->gpu ? JD_CUDA_SLOTS : 1;
}

int jd_boot_match(struct jd_boot *b, const struct jd_match_params *p)
{
	JD_TRY(jd_boot_submit(b, p));
	return jd_boot_collect(b, p);
}
