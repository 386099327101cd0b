#include "boot.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "../algo/jd_status.h"
#include "../algo/matcher.h"
#include "../algo/tiling.h"
#include "../hal/cuda_cloud.h"
#include "../hal/cuda_confidence.h"
#include "../hal/cuda_sense.h"
#include "../hal/cuda_preview.h"
#include "../hal/cuda_rectify.h"
#include "../hal/tuning.h"

enum { R_LEFT, R_RIGHT, R_DISP, R_WS, R_GT0, R_GT1, R_CAMERA, R_STRIP, R_COUNT };

/*
 * The GPU, once: with --backend cuda it must work (or boot stops, saying why); with auto it
 * is used where the matcher has CUDA kernels and a GPU answers, else the CPU, saying why.
 */
/*
 * The matcher's, the confidence and sensing stages' (hal/cuda_confidence.h, cuda_sense.h),
 * and those the loop asks for (JD_BOOT_*: the remap, the cloud's sets, the preview's one
 * picture of 6 bytes a pixel).
 */
static size_t gpu_device_bytes(const struct jd_match_params *p, int w, int h, unsigned stages)
{
	return (p->algo == JD_ALGO_SAD	 ? jd_cuda_sad_device_bytes(p, w, h)
		: p->algo == JD_ALGO_SGM ? jd_cuda_sgm_device_bytes(p, w, h)
					 : jd_cuda_bp_device_bytes(p, w, h)) +
	       jd_cuda_conf_device_bytes(w, h) + jd_cuda_sense_device_bytes(w, h) +
	       (stages & JD_BOOT_RAW_FRAMES ? jd_cuda_remap_device_bytes(w, h) : 0) +
	       (stages & JD_BOOT_CLOUD ? jd_cuda_cloud_device_bytes(w, h) : 0) +
	       (stages & JD_BOOT_PREVIEW ? jd_cuda_preview_device_bytes(w, h) : 0);
}

static size_t gpu_pinned_bytes(const struct jd_match_params *p, int w, int h, unsigned stages)
{
	return (p->algo == JD_ALGO_SAD	 ? jd_cuda_sad_pinned_bytes(w, h)
		: p->algo == JD_ALGO_SGM ? jd_cuda_sgm_pinned_bytes(w, h)
					 : jd_cuda_bp_pinned_bytes(p, w, h)) +
	       jd_cuda_conf_pinned_bytes(w, h) + jd_cuda_sense_pinned_bytes(w, h) +
	       (stages & JD_BOOT_RAW_FRAMES ? jd_cuda_remap_pinned_bytes(w, h) : 0) +
	       (stages & JD_BOOT_CLOUD ? jd_cuda_cloud_pinned_bytes(w, h) : 0) +
	       (stages & JD_BOOT_PREVIEW ? jd_cuda_preview_pinned_bytes(w, h) : 0);
}

/* The matcher's frame staging. */
static struct jd_cuda_frame *any_frame(struct jd_boot *b, const struct jd_match_params *p)
{
	return p->algo == JD_ALGO_BP    ? &b->bp_gpu.frame
	       : p->algo == JD_ALGO_SAD ? &b->sad_gpu.frame
					: &b->sgm_gpu.frame;
}

/*
 * The stages of the frame staging: whole frames on the GPU. With strips, none (each strip
 * would make its own that the CPU then does not use); NULL.
 */
static struct jd_cuda_frame *whole_frame(struct jd_boot *b, const struct jd_match_params *p)
{
	return b->gpu && b->tiling.n == 1 ? any_frame(b, p) : NULL;
}

/* h: the rows the matcher runs on (a strip's window when tiled); stages: JD_BOOT_* taken. */
static int select_gpu(struct jd_boot *b, enum jd_backend want, const struct jd_match_params *p,
		      int w, int h, unsigned stages, enum jd_gpu_memory memory, FILE *log)
{
	int rc;

	if (want != JD_BACKEND_CUDA && want != JD_BACKEND_AUTO) {
		return 0;
	}
	size_t dev = gpu_device_bytes(p, w, h, stages), pinned = gpu_pinned_bytes(p, w, h, stages);
	rc = jd_cuda_init(&b->cuda, dev, pinned, memory);
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
		fprintf(log,
			"gpu: %s (sm_%d%d, %d SMs, %s), driver %d.%d: %s on the GPU, frames %s\n",
			b->cuda.name, b->cuda.cc_major, b->cuda.cc_minor, b->cuda.sm_count,
			b->cuda.integrated ? "integrated" : "discrete",
			b->cuda.driver_version / 1000, b->cuda.driver_version % 1000 / 10,
			jd_algo_name(p->algo),
			b->cuda.mapped ? "mapped (nothing copied)" : "copied to and from the device");
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

/* Everything boot takes for a matcher run on run_h rows (host, and the GPU's when used). */
static size_t need_bytes(const struct jd_match_params *p, int w, int h, int run_h, int threads,
			 int gt_maps, size_t loop_bytes, int gpu, unsigned stages)
{
	stages = run_h == h ? stages : 0; /* the loop's GPU stages are taken on whole frames */
	size_t npix = (size_t)w * h, n = 6 * npix + (size_t)gt_maps * 4 * npix + loop_bytes;

	n += jd_match_mem_required(p, w, run_h, threads);
	n += run_h < h ? sizeof(float) * (size_t)w * run_h : 0; /* the strip's map */
	return n +
	       (gpu ? gpu_device_bytes(p, w, run_h, stages) + gpu_pinned_bytes(p, w, run_h, stages)
		    : 0);
}

/*
 * The strips: --tiles when given, else as few as fit the board's memory ceiling (on Jetson
 * the GPU's memory is the same DRAM, so it counts). @retval 0 or -ENOMEM (no plan fits)
 */
static int plan_tiling(struct jd_boot *b, const struct jd_match_params *p, int w, int h,
		       int threads, int gt_maps, size_t loop_bytes, const struct jd_board *board,
		       int gpu, unsigned stages, FILE *log)
{
	int overlap = p->tile_overlap ? p->tile_overlap : jd_tiling_default_overlap(p);
	size_t ceiling = board ? (size_t)board->memory_ceiling_mb << 20 : 0;
	size_t full = need_bytes(p, w, h, h, threads, gt_maps, loop_bytes, gpu, stages);

	jd_tiling_init(&b->tiling, h, p->tiles ? p->tiles : 1, overlap);
	if (!p->tiles && ceiling && full > ceiling) {
		int last = h + 1;
		for (int n = 2; n <= h; n++) {
			jd_tiling_init(&b->tiling, h, n, overlap);
			if (b->tiling.run_h >= last) {
				continue; /* the overlap dominates: more strips do not help */
			}
			last = b->tiling.run_h;
			if (need_bytes(p, w, h, last, threads, gt_maps, loop_bytes, gpu, stages) <=
			    ceiling) {
				break;
			}
		}
	}
	size_t tiled =
	    need_bytes(p, w, h, b->tiling.run_h, threads, gt_maps, loop_bytes, gpu, stages);
	if (ceiling && tiled > ceiling) {
		fprintf(stderr,
			"jetdepth: boot: %dx%d with ndisp %d (%s) needs %.1f MiB, %.1f MiB in the "
			"smallest strips (%d rows); the board's ceiling is %ld MiB (%s:%d); use a "
			"smaller --size or --ndisp\n",
			w, h, p->ndisp, jd_algo_name(p->algo), (double)full / (1 << 20),
			(double)tiled / (1 << 20), b->tiling.run_h, board->memory_ceiling_mb,
			board->origin_ceiling.file, board->origin_ceiling.line);
		return -ENOMEM;
	}
	if (log && b->tiling.n > 1) {
		fprintf(log,
			"tiling: %d strips of %d rows, each matched on %d rows (%d of context each "
			"side): %.1f MiB instead of %.1f MiB%s\n",
			b->tiling.n, b->tiling.core, b->tiling.run_h, b->tiling.overlap,
			(double)tiled / (1 << 20), (double)full / (1 << 20),
			p->tiles ? " (--tiles)" : " to fit the board's memory ceiling");
	}
	return 0;
}

/*
 * The BP message kernel a tuning file chose for this GPU and size, or NULL (built-in
 * default). The file is --tuning, $JD_TUNING or the installed default; one whose GPU, driver
 * or build differ is ignored and boot says why. A malformed one stops boot.
 */
static int tuned_variant(struct jd_boot *b, const struct jd_match_params *p, int w, int h,
			 const char *path, FILE *log, const char **variant)
{
	struct jd_tuning *t = &b->tuning;
	char *chosen = b->bp_variant;
	char err[600], why[300];
	int rc;

	*variant = NULL;
	if (p->algo != JD_ALGO_BP) {
		return 0;
	}
	rc = jd_tuning_load(path, t, err, sizeof(err));
	if (rc == -ENOENT) {
		if (log) {
			fprintf(log, "gpu tuning: none (%s): built-in defaults\n", path);
		}
		return 0;
	}
	if (rc) {
		fprintf(stderr, "jetdepth: boot: tuning file %s\n", err);
		return rc;
	}
	if (!jd_tuning_matches(t, b->cuda.name, b->cuda.sm_count, b->cuda.driver_version,
			       jd_cuda_fatbin_hash(), why, sizeof(why))) {
		if (log) {
			fprintf(log, "gpu tuning: %s ignored: %s; built-in defaults\n", path, why);
		}
		return 0;
	}
	const struct jd_tuning_entry *e = jd_tuning_find(t, "bp", p->bp.fp16, w, h, p->ndisp);
	if (!e) {
		if (log) {
			fprintf(log, "gpu tuning: %s has no bp %s ndisp %d: built-in default\n", path,
				p->bp.fp16 ? "f16" : "f32", p->ndisp);
		}
		return 0;
	}
	snprintf(chosen, sizeof(b->bp_variant), "%s", e->variant);
	*variant = chosen;
	if (log) {
		fprintf(log, "gpu tuning: %s: bp message kernel %s (tuned at %dx%d: %.3f ms, default "
			     "%s %.3f ms)\n",
			path, chosen, e->w, e->h, (double)e->ms, e->default_variant,
			(double)e->default_ms);
	}
	return 0;
}

int jd_boot_init(struct jd_boot *b, const struct jd_boot_config *c)
{
	const struct jd_match_params *p = c->p;
	int w = c->w, h = c->h, threads = c->threads, gt_maps = c->gt_maps;
	size_t loop_bytes = c->loop_bytes, npix = (size_t)w * h;
	unsigned stages = c->stages;
	const struct jd_board *board = c->board;
	FILE *log = c->log;
	enum jd_backend want = c->backend;
	void *r[R_COUNT] = {0};
	char tag[32];
	int rc;

	memset(b, 0, sizeof(*b));
	JD_TRY(select_kernels(b, want, board, log));
	/* Plan for the GPU where it may be used; plan again for the CPU if it is not. */
	int gpu_planned = (want == JD_BACKEND_CUDA || want == JD_BACKEND_AUTO) && jd_cuda_built();
	JD_TRY(
	    plan_tiling(b, p, w, h, threads, gt_maps, loop_bytes, board, gpu_planned, stages, log));
	int run_h = b->tiling.run_h;
	/* Whole frames can be rectified where they are matched. */
	unsigned gpu_stages = run_h == h ? stages : 0;
	JD_TRY(select_gpu(b, want, p, w, run_h, gpu_stages, c->gpu_memory, log));
	if (gpu_planned && !b->gpu) {
		rc = plan_tiling(b, p, w, h, threads, gt_maps, loop_bytes, board, 0, 0, NULL);
		if (rc) {
			return rc;
		}
		run_h = b->tiling.run_h;
	}
	b->ws_bytes = jd_match_mem_required(p, w, run_h, threads);
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
	jd_budget_add(&b->budget, "frame-loop", loop_bytes); /* cameras, sensing */
	jd_budget_add(&b->budget, "strip.disparity",
		      b->tiling.n > 1 ? sizeof(float) * (size_t)w * run_h : 0);
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
	size_t gpu_total = b->gpu ? b->cuda.dev_bytes + b->cuda.pinned_bytes : 0;
	if (board && b->budget.total + gpu_total > (size_t)board->memory_ceiling_mb << 20) {
		fprintf(
		    stderr,
		    "jetdepth: boot: memory budget %.1f MiB exceeds the board's ceiling of %ld MiB "
		    "(%s:%d); use a smaller --size or --ndisp\n",
		    (double)(b->budget.total + gpu_total) / (1 << 20), board->memory_ceiling_mb,
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
	const char *bp_variant = NULL;
	if (b->gpu && (rc = tuned_variant(b, p, w, h, c->tuning_path, log, &bp_variant))) {
		jd_arena_deinit(&b->arena);
		jd_cuda_deinit(&b->cuda);
		return rc;
	}
	if (b->gpu) {
		if (p->algo == JD_ALGO_SAD) {
			rc = jd_cuda_sad_init(&b->sad_gpu, &b->cuda, p, w, run_h);
		} else if (p->algo == JD_ALGO_SGM) {
			rc = jd_cuda_sgm_init(&b->sgm_gpu, &b->cuda, p, w, run_h);
		} else {
			rc = jd_cuda_bp_init(&b->bp_gpu, &b->cuda, p, w, run_h, bp_variant);
		}
		if (!rc && (gpu_stages & JD_BOOT_RAW_FRAMES)) {
			rc = jd_cuda_remap_take(&b->cuda, any_frame(b, p));
			b->gpu_rectify = rc == 0;
		}
		/*
		 * the confidence on the GPU where the map is whole (strips would each make one
		 * the CPU then does not use)
		 */
		if (!rc && b->tiling.n == 1) {
			rc = jd_cuda_conf_take(&b->cuda, any_frame(b, p));
		}
		/* sensing's per-pixel work beside it (jd_boot_gpu_sense_start() turns it on) */
		if (!rc && any_frame(b, p)->conf.taken) {
			rc = jd_cuda_sense_take(&b->cuda, any_frame(b, p), &b->sense_gpu);
		}
		/* the preview's picture beside them (jd_boot_gpu_preview_want() asks for one) */
		if (!rc && (gpu_stages & JD_BOOT_PREVIEW) && any_frame(b, p)->conf.taken) {
			rc = jd_cuda_preview_take(&b->cuda, any_frame(b, p));
		}
		/* depth and the cloud for ROS 2 (jd_boot_gpu_cloud_want() turns them on) */
		if (!rc && (gpu_stages & JD_BOOT_CLOUD) && any_frame(b, p)->conf.taken) {
			rc = jd_cuda_cloud_take(&b->cuda, any_frame(b, p), &b->cloud_gpu);
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
	b->loop_mem = loop_bytes ? r[R_CAMERA] : NULL;
	b->strip = (struct jd_disp){b->tiling.n > 1 ? r[R_STRIP] : NULL, w, run_h, w};
	b->loop_bytes = loop_bytes;
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

int jd_boot_rectify_on_gpu(struct jd_boot *b, const struct jd_match_params *p,
			   const struct jd_remap map[2])
{
	if (!b->gpu_rectify) {
		return -ENOTSUP;
	}
	int rc = jd_cuda_remap_load(&b->cuda, any_frame(b, p), map, &b->left, &b->right);
	if (rc) {
		fprintf(stderr, "jetdepth: boot: gpu: %s\n", b->cuda.err);
	}
	return rc;
}

static int gpu_failed(struct jd_boot *b, int rc)
{
	if (rc) {
		fprintf(stderr, "jetdepth: gpu: %s\n", b->cuda.err);
	}
	return rc;
}

/* One strip's window on the GPU, synchronously, into b->strip. */
static int gpu_strip(struct jd_boot *b, const struct jd_match_params *p, const struct jd_image *l,
		     const struct jd_image *r)
{
	if (p->algo == JD_ALGO_SAD) {
		return jd_cuda_sad_run(&b->sad_gpu, p, l, r, &b->strip);
	} else if (p->algo == JD_ALGO_SGM) {
		return jd_cuda_sgm_run(&b->sgm_gpu, p, l, r, &b->strip);
	}
	return jd_cuda_bp_run(&b->bp_gpu, p, l, r, &b->strip);
}

/* A tiled frame, start to end (submit does it all; collect then returns at once). */
static int match_tiled(struct jd_boot *b, const struct jd_match_params *p)
{
	if (!b->gpu) {
		return jd_match_run_tiled(&b->kernels, p, &b->tiling, &b->left, &b->right, &b->disp,
					  &b->strip, b->ws, b->ws_bytes, &b->workers.exec);
	}
	float kernel_ms = 0.0f;
	for (int i = 0; i < b->tiling.n; i++) {
		struct jd_image l, r;

		jd_tiling_views(&b->tiling, i, &b->left, &b->right, &l, &r);
		JD_TRY(gpu_failed(b, gpu_strip(b, p, &l, &r)));
		kernel_ms += b->cuda.last_kernel_ms;
		jd_tiling_copy_core(&b->tiling, i, &b->strip, &b->disp);
	}
	b->cuda.last_kernel_ms = kernel_ms; /* the frame's, every strip's kernels */
	return 0;
}

int jd_boot_submit(struct jd_boot *b, const struct jd_match_params *p)
{
	int rc;

	if (b->tiling.n > 1) {
		if (b->cpu_pending) {
			return -EBUSY;
		}
		rc = match_tiled(b, p);
		b->cpu_pending = rc == 0;
		return rc;
	}
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
	if (!b->gpu || b->tiling.n > 1) {
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

const uint8_t *jd_boot_gpu_confidence(struct jd_boot *b, const struct jd_match_params *p)
{
	return b->gpu ? jd_cuda_conf_last(any_frame(b, p)) : NULL; /* NULL: not taken */
}

int jd_boot_lend(struct jd_boot *b, const struct jd_match_params *p)
{
	struct jd_cuda_frame *f = whole_frame(b, p);

	if (f) {
		f->lend = 1;
	}
	return f != NULL;
}

/* The frame staging when whole frames go to the GPU and it lends them; else NULL. */
static struct jd_cuda_frame *lending_frame(struct jd_boot *b, const struct jd_match_params *p)
{
	struct jd_cuda_frame *f = whole_frame(b, p);

	return f && f->lend ? f : NULL;
}

int jd_boot_gpu_capture_into(struct jd_boot *b, const struct jd_match_params *p)
{
	struct jd_cuda_frame *f = lending_frame(b, p);
	/* a device that rectifies takes the raw pair (jd_boot_gpu_raw_into()) */
	struct jd_cuda_slot *s = f && !f->remap.loaded ? jd_cuda_frame_next(f) : NULL;

	if (!s) {
		return 0;
	}
	b->left = (struct jd_image){s->h_left, f->w, f->h, f->w};
	b->right = (struct jd_image){s->h_right, f->w, f->h, f->w};
	return 1;
}

int jd_boot_gpu_raw_into(struct jd_boot *b, const struct jd_match_params *p,
			 unsigned char *data[2], size_t *cap)
{
	struct jd_cuda_frame *f = lending_frame(b, p);

	if (!f || !jd_cuda_frame_raw_next(f, 0)) {
		return 0;
	}
	data[0] = jd_cuda_frame_raw_next(f, 0);
	data[1] = jd_cuda_frame_raw_next(f, 1);
	*cap = JD_CUDA_RAW_BPP * (size_t)f->w * f->h;
	return 1;
}

int jd_boot_gpu_raw_staged(struct jd_boot *b, const struct jd_match_params *p,
			   const enum jd_pixfmt fmt[2])
{
	struct jd_cuda_frame *f = lending_frame(b, p);

	return f ? jd_cuda_frame_raw_staged(f, fmt) : -EINVAL;
}

int jd_boot_gpu_pair(struct jd_boot *b, const struct jd_match_params *p, struct jd_image *l,
		     struct jd_image *r)
{
	const struct jd_cuda_frame *f = b->gpu ? any_frame(b, p) : NULL;
	unsigned char *pl = f ? jd_cuda_frame_rectified(f, 0) : NULL;

	if (!pl) {
		return 0;
	}
	*l = (struct jd_image){pl, f->w, f->h, f->w};
	*r = (struct jd_image){jd_cuda_frame_rectified(f, 1), f->w, f->h, f->w};
	return 1;
}

int jd_boot_gpu_preview_want(struct jd_boot *b, const struct jd_match_params *p, int min_conf,
			     float dmax)
{
	struct jd_cuda_frame *f = whole_frame(b, p);

	if (!f || !f->picture.taken) {
		return 0;
	}
	jd_cuda_preview_want(f, min_conf, dmax);
	return 1;
}

int jd_boot_gpu_cloud_want(struct jd_boot *b, const struct jd_match_params *p, int what,
			   int min_conf, const struct jd_camera_model *cam)
{
	struct jd_cuda_frame *f = whole_frame(b, p);

	if (!f || !f->cloud) {
		return 0;
	}
	jd_cuda_cloud_want(f, what, min_conf, cam);
	return 1;
}

struct jd_cuda_cloud_set *jd_boot_gpu_cloud(struct jd_boot *b, const struct jd_match_params *p)
{
	return b->gpu ? jd_cuda_cloud_claim(any_frame(b, p)) : NULL;
}

uint8_t *jd_boot_gpu_preview(struct jd_boot *b, const struct jd_match_params *p)
{
	return b->gpu ? jd_cuda_preview_last(any_frame(b, p)) : NULL;
}

int jd_boot_gpu_sense_start(struct jd_boot *b, int min_conf, int mask_map)
{
	if (!b->gpu || !b->sense_gpu.taken) {
		return 0;
	}
	jd_cuda_sense_start(&b->sense_gpu, min_conf, mask_map);
	return 1;
}

int jd_boot_gpu_sense(struct jd_boot *b, const struct jd_sense_params *sp,
		      const struct jd_camera_model *cam, void *ws, size_t ws_bytes,
		      struct jd_sense_result *out)
{
	int rc = jd_cuda_sense_run(&b->cuda, &b->sense_gpu, sp, cam, &b->disp, ws, ws_bytes, out,
				   &b->workers.exec);

	if (rc == -EIO || rc == -ENOENT) {
		fprintf(stderr, "jetdepth: gpu: sensing: %s\n", b->cuda.err);
	}
	return rc;
}

int jd_boot_depth(const struct jd_boot *b)
{
	return b->gpu && b->tiling.n == 1 ? JD_CUDA_SLOTS : 1;
}

int jd_boot_match(struct jd_boot *b, const struct jd_match_params *p)
{
	JD_TRY(jd_boot_submit(b, p));
	return jd_boot_collect(b, p);
}
