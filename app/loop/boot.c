#include "boot.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "../../algo/jd_status.h"
#include "../../algo/match/matcher.h"
#include "../../algo/match/tiling.h"

/* The host's buffers, by name (a NULL one takes nothing). */
struct host_regions {
	void *left, *right, *disp, *ws, *gt[2], *loop, *strip;
};

enum { HOST_BUFFERS = 8 };

/*
 * Everything the GPU takes: the matcher, and where whole frames go to it the stages around
 * it (strips would each make their own that the CPU then does not use): the confidence and
 * sensing, and those the loop asks for (c->stages), for a matcher on run_h rows. The
 * loop's asks turn them on (jd_engine_gpu_ask()).
 */
static struct jd_cuda_matcher_carving gpu_carving(struct jd_engine *b,
						  const struct jd_boot_config *c, int run_h)
{
	unsigned stages = 0;

	if (run_h == c->h) {
		stages = JD_CUDA_STAGE_CONF | JD_CUDA_STAGE_SENSE | c->stages;
	}
	return (struct jd_cuda_matcher_carving){
	    &b->matcher, c->p, c->w, run_h, b->bp_variant[0] ? b->bp_variant : NULL, stages};
}

/* Device and pinned bytes the GPU's carving takes for run_h rows, counted by running it. */
static int gpu_bytes(struct jd_engine *b, const struct jd_boot_config *c, int run_h, size_t *dev,
		     size_t *pinned)
{
	struct jd_cuda_matcher_carving k = gpu_carving(b, c, run_h);
	int rc = jd_cuda_count(&b->cuda, jd_cuda_matcher_carve, &k, dev, pinned);

	if (rc) {
		fprintf(stderr, "jetdepth: boot: gpu: %s\n", b->cuda.err);
	}
	return rc;
}

/*
 * The GPU, once: with --backend cuda it must work (or boot stops, saying why); with auto it
 * is used where a GPU answers, else the CPU, saying why. Opened only: nothing is allocated
 * until the plan is known (allocate_gpu()).
 */
static int open_gpu(struct jd_engine *b, const struct jd_boot_config *c)
{
	enum jd_backend want = c->choices.backend;
	int rc;

	if (want != JD_BACKEND_CUDA && want != JD_BACKEND_AUTO) {
		return 0;
	}
	rc = jd_cuda_open(&b->cuda, c->choices.gpu_memory);
	if (rc) {
		if (want == JD_BACKEND_CUDA) {
			fprintf(stderr, "jetdepth: boot: --backend cuda: %s\n", b->cuda.err);
			jd_cuda_deinit(&b->cuda);
			return rc;
		}
		if (c->log) {
			fprintf(c->log, "gpu: not used (%s)\n", b->cuda.err);
		}
		jd_cuda_deinit(&b->cuda);
		return 0;
	}
	b->gpu = 1;
	if (c->log) {
		fprintf(
		    c->log,
		    "gpu: %s (sm_%d%d, %d SMs, %s), driver %d.%d: %s on the GPU, frames %s\n",
		    b->cuda.name, b->cuda.cc_major, b->cuda.cc_minor, b->cuda.sm_count,
		    b->cuda.integrated ? "integrated" : "discrete", b->cuda.driver_version / 1000,
		    b->cuda.driver_version % 1000 / 10, jd_algo_name(c->p->algo),
		    b->cuda.mapped ? "mapped (nothing copied)" : "copied to and from the device");
	}
	return 0;
}

/*
 * The GPU's two allocations, of what its carving counts for the plan's rows. A GPU that
 * cannot hold them is used no more with auto (b->gpu = 0: plan again for the CPU).
 */
static int allocate_gpu(struct jd_engine *b, const struct jd_boot_config *c)
{
	size_t dev, pinned;

	JD_TRY(gpu_bytes(b, c, b->tiling.run_h, &dev, &pinned));
	int rc = jd_cuda_allocate(&b->cuda, dev, pinned);
	if (!rc) {
		return 0;
	}
	if (c->choices.backend == JD_BACKEND_CUDA) {
		fprintf(stderr, "jetdepth: boot: --backend cuda: %s\n", b->cuda.err);
		return rc;
	}
	if (c->log) {
		fprintf(c->log, "gpu: not used (%s)\n", b->cuda.err);
	}
	jd_cuda_deinit(&b->cuda);
	b->gpu = 0;
	return 0;
}

/* The kernel table, once: the board may forbid FP16 arithmetic (neon_fp16 no). */
static int select_kernels(struct jd_engine *b, enum jd_backend want, const struct jd_board *board,
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

/*
 * The host's buffers for a matcher on run_h rows, one budget item each (an empty one listed
 * too, so that every budget reads alike), and where each goes once the arena carves them in
 * that order (dst[i]).
 */
static void host_budget(struct jd_engine *b, const struct jd_boot_config *c, int run_h,
			struct host_regions *r, void **dst[HOST_BUFFERS])
{
	size_t npix = (size_t)c->w * c->h, map = sizeof(float) * npix;
	char tag[32];

	b->ws_bytes = jd_match_mem_required(c->p, c->w, run_h, c->threads);
	snprintf(tag, sizeof(tag), "matcher.%s", jd_algo_name(c->p->algo));
	const struct {
		const char *tag;
		size_t bytes;
		void **dst;
	} item[HOST_BUFFERS] = {
	    {"frame.left", npix, &r->left},
	    {"frame.right", npix, &r->right},
	    {"disparity", map, &r->disp},
	    {tag, b->ws_bytes, &r->ws},
	    {"ground-truth.0", c->gt_maps > 0 ? map : 0, &r->gt[0]},
	    {"ground-truth.1", c->gt_maps > 1 ? map : 0, &r->gt[1]},
	    {"frame-loop", c->loop_bytes, &r->loop}, /* cameras, sensing */
	    {"strip.disparity", run_h < c->h ? sizeof(float) * (size_t)c->w * run_h : 0, &r->strip},
	};
	jd_budget_init(&b->budget);
	for (int i = 0; i < HOST_BUFFERS; i++) {
		jd_budget_add(&b->budget, item[i].tag, item[i].bytes);
		dst[i] = item[i].bytes ? item[i].dst : NULL;
	}
}

/* Everything boot takes for a matcher run on run_h rows (host, and the GPU's when used). */
static int need_bytes(struct jd_engine *b, const struct jd_boot_config *c, int run_h, size_t *need)
{
	struct host_regions r;
	void **dst[HOST_BUFFERS];
	size_t dev = 0, pinned = 0;

	if (b->gpu) {
		JD_TRY(gpu_bytes(b, c, run_h, &dev, &pinned));
	}
	host_budget(b, c, run_h, &r, dst);
	*need = b->budget.total + dev + pinned;
	return 0;
}

/*
 * The strips: --tiles when given, else as few as fit the board's memory ceiling (on Jetson
 * the GPU's memory is the same DRAM, so it counts). @retval 0 or -ENOMEM (no plan fits)
 */
static int plan_tiling(struct jd_engine *b, const struct jd_boot_config *c)
{
	const struct jd_match_params *p = c->p;
	const struct jd_board *board = c->board;
	int w = c->w, h = c->h;
	int overlap = p->tile_overlap ? p->tile_overlap : jd_tiling_default_overlap(p);
	size_t ceiling = board ? (size_t)board->memory_ceiling_mb << 20 : 0;
	size_t full, tiled, need;

	JD_TRY(need_bytes(b, c, h, &full));
	jd_tiling_init(&b->tiling, h, p->tiles ? p->tiles : 1, overlap);
	if (!p->tiles && ceiling && full > ceiling) {
		int last = h + 1;
		for (int n = 2; n <= h; n++) {
			jd_tiling_init(&b->tiling, h, n, overlap);
			if (b->tiling.run_h >= last) {
				continue; /* the overlap dominates: more strips do not help */
			}
			last = b->tiling.run_h;
			JD_TRY(need_bytes(b, c, last, &need));
			if (need <= ceiling) {
				break;
			}
		}
	}
	JD_TRY(need_bytes(b, c, b->tiling.run_h, &tiled));
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
	if (c->log && p->tiles > 1 && b->tiling.n == 1) {
		fprintf(
		    c->log,
		    "tiling: --tiles %d: a strip of %d rows with %d of context each side covers "
		    "all %d rows, so the frame is matched whole\n",
		    p->tiles, (h + p->tiles - 1) / p->tiles, overlap, h);
	}
	if (c->log && b->tiling.n > 1) {
		fprintf(c->log,
			"tiling: %d strips of %d rows, each matched on %d rows (%d of context each "
			"side): %.1f MiB instead of %.1f MiB%s\n",
			b->tiling.n, b->tiling.core, b->tiling.run_h, b->tiling.overlap,
			(double)tiled / (1 << 20), (double)full / (1 << 20),
			p->tiles ? " (--tiles)" : " to fit the board's memory ceiling");
	}
	return 0;
}

/*
 * The BP message kernel a tuning file chose for this GPU and size, into b->bp_variant (left
 * empty: the built-in default). The file is --tuning, $JD_TUNING or the installed default;
 * one whose GPU, driver or build differ is ignored and boot says why. A malformed one stops
 * boot.
 */
static int tuned_variant(struct jd_engine *b, const struct jd_boot_config *c)
{
	const struct jd_match_params *p = c->p;
	const char *path = c->choices.tuning_path;
	struct jd_tuning *t = &b->tuning;
	char *chosen = b->bp_variant;
	char err[600], why[300];
	FILE *log = c->log;
	int rc;

	if (p->algo != JD_ALGO_BP || !path) {
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
	const struct jd_tuning_entry *e = jd_tuning_find(t, "bp", p->bp.fp16, c->w, c->h, p->ndisp);
	if (!e) {
		if (log) {
			fprintf(log, "gpu tuning: %s has no bp %s ndisp %d: built-in default\n",
				path, p->bp.fp16 ? "f16" : "f32", p->ndisp);
		}
		return 0;
	}
	snprintf(chosen, sizeof(b->bp_variant), "%s", e->variant);
	if (log) {
		fprintf(log,
			"gpu tuning: %s: bp message kernel %s (tuned at %dx%d: %.3f ms, default "
			"%s %.3f ms)\n",
			path, chosen, e->w, e->h, (double)e->ms, e->default_variant,
			(double)e->default_ms);
	}
	return 0;
}

/*
 * The GPU's plan: the tuned kernel, the strips, the two allocations; where the GPU cannot
 * hold them (auto), the CPU's plan instead.
 */
static int plan(struct jd_engine *b, const struct jd_boot_config *c)
{
	if (b->gpu) {
		JD_TRY(tuned_variant(b, c));
		JD_TRY(plan_tiling(b, c));
		JD_TRY(allocate_gpu(b, c));
		if (b->gpu) {
			return 0;
		}
	}
	return plan_tiling(b, c);
}

/* Refuse at boot, with the numbers, what the machine or the board cannot hold. */
static int check_budget(struct jd_engine *b, const struct jd_boot_config *c)
{
	const struct jd_board *board = c->board;
	size_t ram = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
	size_t gpu_total = b->gpu ? b->cuda.dev_room.size + b->cuda.pinned_room.size : 0;

	if (ram > 0 && b->budget.total > ram) {
		fprintf(
		    stderr,
		    "jetdepth: boot: memory budget %.1f MiB for %dx%d with ndisp %d (%s) exceeds "
		    "this machine's %.1f MiB; use a smaller --size or --ndisp\n",
		    (double)b->budget.total / (1 << 20), c->w, c->h, c->p->ndisp,
		    jd_algo_name(c->p->algo), (double)ram / (1 << 20));
		return -ENOMEM;
	}
	if (board && b->budget.total + gpu_total > (size_t)board->memory_ceiling_mb << 20) {
		fprintf(
		    stderr,
		    "jetdepth: boot: memory budget %.1f MiB exceeds the board's ceiling of %ld MiB "
		    "(%s:%d); use a smaller --size or --ndisp\n",
		    (double)(b->budget.total + gpu_total) / (1 << 20), board->memory_ceiling_mb,
		    board->origin_ceiling.file, board->origin_ceiling.line);
		return -ENOMEM;
	}
	return 0;
}

/* Give back what boot took so far and pass its error on. */
static int boot_failed(struct jd_engine *b, int rc)
{
	jd_workers_deinit(&b->workers);
	jd_arena_deinit(&b->arena);
	jd_cuda_deinit(&b->cuda);
	return rc;
}

int jd_boot_init(struct jd_engine *b, const struct jd_boot_config *c)
{
	int w = c->w, h = c->h;
	struct host_regions r = {0};
	void **dst[HOST_BUFFERS], *carved[HOST_BUFFERS];
	int rc;

	memset(b, 0, sizeof(*b));
	JD_TRY(select_kernels(b, c->choices.backend, c->board, c->log));
	JD_TRY(open_gpu(b, c));
	rc = plan(b, c);
	if (rc) {
		return boot_failed(b, rc);
	}
	int run_h = b->tiling.run_h;
	host_budget(b, c, run_h, &r, dst);
	if (c->log) {
		jd_budget_print(&b->budget, c->log);
	}
	rc = check_budget(b, c);
	if (rc) {
		return boot_failed(b, rc);
	}
	rc = jd_arena_init(&b->arena, "host", b->budget.total);
	if (!rc) {
		rc = jd_arena_take_budget(&b->arena, &b->budget, carved);
	}
	if (rc) {
		fprintf(stderr, "jetdepth: boot: %s\n", jd_arena_last_error(&b->arena));
		return boot_failed(b, rc);
	}
	jd_arena_seal(&b->arena);
	for (int i = 0; i < HOST_BUFFERS; i++) {
		if (dst[i]) {
			*dst[i] = carved[i];
		}
	}
	if (b->gpu) {
		struct jd_cuda_matcher_carving k = gpu_carving(b, c, run_h);

		rc = jd_cuda_matcher_carve(&b->cuda, &k);
		if (rc) {
			fprintf(stderr, "jetdepth: boot: gpu: %s\n", b->cuda.err);
			return boot_failed(b, rc);
		}
		b->gpu_rectify = b->matcher.frame->remap.taken;
		jd_cuda_seal(&b->cuda);
	}
	b->left = (struct jd_image){r.left, w, h, w};
	b->right = (struct jd_image){r.right, w, h, w};
	b->disp = (struct jd_disp){r.disp, w, h, w};
	for (int i = 0; i < 2; i++) {
		b->gt[i] = (struct jd_disp){r.gt[i], w, h, w};
	}
	b->ws = r.ws;
	b->loop_mem = r.loop;
	b->strip = (struct jd_disp){r.strip, w, run_h, w};
	b->loop_bytes = c->loop_bytes;
	rc = jd_workers_init(&b->workers, c->threads);
	if (rc) {
		fprintf(stderr, "jetdepth: boot: cannot start %d worker threads\n", c->threads);
		return boot_failed(b, rc);
	}
	if (b->gpu) {
		/* Warm-up frame: whatever the driver still sets up on first use happens in boot. */
		rc = jd_engine_match(b, c->p);
		if (rc) {
			return boot_failed(b, rc);
		}
	}
	return 0;
}

void jd_boot_deinit(struct jd_engine *b)
{
	if (b) {
		boot_failed(b, 0);
	}
}
