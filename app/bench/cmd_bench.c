#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../algo/bp/bp.h"
#include "../../algo/match/matcher.h"
#include "../../algo/match/matcher_table.h"
#include "../../algo/synth.h"
#include "../../hal/clock.h"
#include "bench_kernels.h"
#include "bench_pipeline.h"
#include "../ros2/ros2.h"
#include "../loop/boot.h"
#include "../../algo/jd_status.h"
#include "cli.h"
#include "commands.h"

enum {
	OPT_SIZE = OPT_CMD_BASE,
	OPT_RUNS,
	OPT_BASELINE,
	OPT_KERNELS,
	OPT_PIPELINE,
	OPT_ROS2,
	OPT_PIXFMT,
	OPT_HELP
};

struct bench_case {
	enum jd_algo algo;
	int w, h, ndisp;
	int fp16;  /* BP storage */
	int naive; /* the straightforward single-thread BP yardstick */
};

/* The foundation issue's table: SGM census 8 paths, BP seed defaults, SAD 11x11. */
static const struct bench_case default_cases[] = {
    {JD_ALGO_SGM, 450, 375, 64, 0, 0}, {JD_ALGO_SGM, 1242, 375, 128, 0, 0},
    {JD_ALGO_BP, 384, 288, 16, 0, 0},  {JD_ALGO_BP, 384, 288, 16, 1, 0},
    {JD_ALGO_BP, 384, 288, 16, 0, 1},  {JD_ALGO_BP, 450, 375, 64, 0, 0},
    {JD_ALGO_BP, 450, 375, 64, 1, 0},  {JD_ALGO_BP, 450, 375, 64, 0, 1},
    {JD_ALGO_SAD, 640, 480, 64, 0, 0},
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void label(const struct jd_match_params *p, const struct bench_case *c, char *s, size_t n)
{
	size_t len;

	jd_matcher_of(p->algo)->label(p, s, n);
	len = strlen(s);
	if (c->naive && len < n) {
		snprintf(s + len, n - len, " naive");
	}
}

/* What ran: the GPU, or the CPU kernels that matter for this matcher. */
static const char *backend_label(const struct jd_engine *b, const struct jd_match_params *p,
				 const struct bench_case *c)
{
	if (c->naive) {
		return "ref";
	}
	if (b->gpu) {
		return "cuda";
	}
	return b->kernels.backend_of[jd_matcher_of(p->algo)->main_kernel(p)];
}

static int run_case(const struct jd_match_params *base, const struct bench_case *c, int runs,
		    int threads)
{
	struct jd_match_params p = *base;
	struct jd_engine b;
	uint64_t t[256], kt[256];
	char name[48];
	int nthreads = c->naive ? 1 : threads;

	p.algo = c->algo;
	p.ndisp = c->ndisp;
	p.bp.fp16 = c->fp16;
	if (jd_cli_validate(&p, c->w, c->h)) {
		return -1;
	}
	if (c->naive) {
		/* The yardstick sizes its own workspace; boot carves the biggest of the two. */
		p.bp.fp16 = 0;
	}
	struct jd_boot_config bc = {.p = &p, .w = c->w, .h = c->h, .threads = nthreads};
	if (jd_cli_boot_choices(&bc.choices) || jd_boot_init(&b, &bc)) {
		return -1;
	}
	if (runs == 0) {
		/* default: 21 on the GPU (a median of at least 20 device-event timings), else 5 */
		runs = b.gpu && !c->naive ? 21 : 5;
	}
	size_t naive_bytes = jd_bp_naive_mem_required(&p, c->w, c->h);
	void *naive_ws = NULL;
	if (c->naive && !(naive_ws = malloc(naive_bytes))) {
		fprintf(stderr, "jetdepth: bench: out of memory for the naive baseline\n");
		jd_boot_deinit(&b);
		return -1;
	}
	jd_synth_render(0, p.ndisp, &b.left, &b.right, NULL);
	for (int i = -1; i < runs; i++) {
		uint64_t t0 = jd_clock_ns();
		int rc = c->naive
			     ? jd_bp_naive(&p, &b.left, &b.right, &b.disp, naive_ws, naive_bytes)
			     : jd_engine_match(&b, &p);
		if (rc) {
			fprintf(stderr, "jetdepth: bench: %s\n", jd_strerror(rc));
			break;
		}
		if (i >= 0) {
			t[i] = jd_clock_ns() - t0; /* run -1 is the warm-up */
			kt[i] = (uint64_t)(b.cuda.last_kernel_ms * 1e6f);
		}
	}
	/*
	 * On the GPU also the pipelined rate, as the daemon runs: frame i+1 packed and
	 * uploaded while frame i's kernels run, then i collected.
	 */
	double pipe_ms = 0.0;
	if (b.gpu && !c->naive) {
		uint64_t t0 = jd_clock_ns();
		int rc = 0;

		int depth = jd_engine_depth(&b); /* 1 when tiled: strips run one after another */
		for (int i = 0; i < runs && !rc; i++) {
			rc = jd_engine_submit(&b, &p);
			if (!rc && (depth == 1 || i > 0)) {
				rc = jd_engine_collect(&b);
			}
		}
		rc = rc || depth == 1 ? rc : jd_engine_collect(&b);
		if (rc) {
			fprintf(stderr, "jetdepth: bench: pipelined: %s\n", jd_strerror(rc));
		}
		pipe_ms = (double)(jd_clock_ns() - t0) / 1e6 / runs;
	}
	qsort(t, (size_t)runs, sizeof(t[0]), cmp_u64);
	double med = (double)t[runs / 2] / 1e6;
	double mpd = (double)c->w * c->h * c->ndisp / (med * 1e-3) / 1e6;
	label(&p, c, name, sizeof(name));
	printf("%-18s %-8s %5dx%-5d %6d %7d %10.2f %10.2f %12.1f %10.1f\n", name,
	       backend_label(&b, &p, c), c->w, c->h, c->ndisp, nthreads, med, (double)t[0] / 1e6,
	       mpd, (double)(c->naive ? naive_bytes : b.budget.total) / (1 << 20));
	if (b.gpu && !c->naive) {
		/* Device events around the kernels: what the GPU spends, transfers excluded. */
		/* and the DRAM bytes of the design (jd_cuda_matcher_traffic), as bandwidth */
		double bytes = jd_cuda_matcher_traffic(&p, c->w, c->h);
		char peak[48] = "";

		qsort(kt, (size_t)runs, sizeof(kt[0]), cmp_u64);
		double kms = (double)kt[runs / 2] / 1e6;
		double gbs = bytes / (kms * 1e-3) / 1e9;
		if (b.cuda.dram_gbs > 0) {
			snprintf(peak, sizeof(peak), " (%.0f%% of %.0f)",
				 100.0 * gbs / b.cuda.dram_gbs, b.cuda.dram_gbs);
		}
		printf("%-18s %-8s %11s %6s %7s %10.3f %10.3f %12.1f   GPU kernels (device "
		       "events): the design moves %.0f MB (%.2f B/pixel-disparity), %.0f GB/s%s; "
		       "device memory "
		       "%.1f MiB%s\n",
		       "", "", "", "", "", kms, (double)kt[0] / 1e6,
		       (double)c->w * c->h * c->ndisp / (kms * 1e-3) / 1e6, bytes / 1e6,
		       bytes / ((double)c->w * c->h * c->ndisp), gbs, peak,
		       (double)b.cuda.dev_room.size / (1 << 20),
		       b.tiling.n > 1 ? " (tiled: all strips)" : "");
		printf("%-18s %-8s %11s %6s %7s %10.3f %10s %12.1f   pipelined (next upload "
		       "overlaps these kernels), mean ms per frame\n",
		       "", "", "", "", "", pipe_ms, "",
		       (double)c->w * c->h * c->ndisp / (pipe_ms * 1e-3) / 1e6);
	}
	free(naive_ws);
	jd_boot_deinit(&b);
	return 0;
}

static void help(FILE *f)
{
	fprintf(
	    f,
	    "usage: jetdepth bench [--runs N] [--algo A --size WxH --ndisp N] [options]\n\n"
	    "Times the matchers on the built-in synthetic scene and prints one row per "
	    "case:\nmedian and best ms per frame (after one warm-up run), Mpix*disp/s, and "
	    "the memory the\ncase boots with. Without --algo/--size it runs the standard "
	    "table (see docs/perf.md).\n\n"
	    "  --runs N       timed runs per case (default 21 on the GPU, else 5; at most "
	    "256)\n"
	    "  --size WxH     one custom case (with --algo and --ndisp)\n"
	    "  --baseline     with a custom BP case, also time the naive single-thread "
	    "BP\n"
	    "  --kernels      time each kernel of the table instead, reference vs NEON, one "
	    "thread\n"
	    "  --pipeline     the whole frame loop instead (synthetic camera, rectification,\n"
	    "                 the matcher, sensing) at 640x480/64 and 1280x720/128 (or --size,\n"
	    "                 --ndisp): mean ms per stage over --runs frames (default 30), fps,\n"
	    "                 and cpu: the process's CPU ms per frame, every thread (the\n"
	    "                 camera replays two frames, so its rendering is not counted, and\n"
	    "                 the maps are not scored against the scene's truth: a robot's\n"
	    "                 loop has none);\n"
	    "                 KiB/f: what a frame copies between host and device (where:\n"
	    "                 cuda, or mapped with --gpu-memory mapped: nothing is copied);\n"
	    "                 under each row the cpu column by stage (capture, submit,\n"
	    "                 collect, confidence, sense, and the rest)\n"
	    "  --ros2         with --pipeline, also publish every frame's ROS 2 topics, each\n"
	    "                 composed as if subscribed: the loop's copy (offer), composing and\n"
	    "                 dds_write (serialization, no subscriber) per frame\n"
	    "  --pixfmt F     with --pipeline, the camera's layout: GREY (default), YUYV or\n"
	    "                 UYVY (the luma taken by the GPU where it rectifies, else by\n"
	    "                 the CPU), or deep mono and raw Bayer as run's (their luma\n"
	    "                 taken by the CPU)\n\n%s",
	    jd_cli_matcher_help());
}

int jd_cmd_bench(int argc, char **argv)
{
	static const struct option cmd_opts[] = {{"size", required_argument, NULL, OPT_SIZE},
						 {"runs", required_argument, NULL, OPT_RUNS},
						 {"baseline", no_argument, NULL, OPT_BASELINE},
						 {"kernels", no_argument, NULL, OPT_KERNELS},
						 {"pipeline", no_argument, NULL, OPT_PIPELINE},
						 {"ros2", no_argument, NULL, OPT_ROS2},
						 {"pixfmt", required_argument, NULL, OPT_PIXFMT},
						 {"help", no_argument, NULL, OPT_HELP},
						 {0}};
	struct jd_match_params p;
	struct jd_cli cli;
	int threads = jd_workers_cpu_count(), runs = 0, w = 0, h = 0, baseline = 0, custom = 0;
	int kernels = 0, pipeline = 0, ros2 = 0;
	enum jd_pixfmt fmt = JD_PIX_GREY;
	int opt, rc;

	jd_params_default(&p, JD_ALGO_SGM, 64);
	jd_cli_begin(&cli, argc, argv, "h", cmd_opts, &p, &threads);
	while ((opt = jd_cli_next(&cli)) != -1) {
		if (opt == JD_CLI_BAD) {
			return JD_EXIT_USAGE;
		} else if (opt == OPT_SIZE) {
			if (jd_cli_size("--size", optarg, &w, &h)) {
				return JD_EXIT_USAGE;
			}
			custom = 1;
		} else if (opt == OPT_RUNS) {
			if (jd_cli_int("--runs", optarg, &runs) || runs < 1 || runs > 256) {
				fprintf(stderr, "jetdepth: --runs %s: must be 1..256\n", optarg);
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_BASELINE) {
			baseline = 1;
		} else if (opt == OPT_KERNELS) {
			kernels = 1;
		} else if (opt == OPT_PIPELINE) {
			pipeline = 1;
		} else if (opt == OPT_ROS2) {
			ros2 = 1;
		} else if (opt == OPT_PIXFMT) {
			if (jd_pixfmt_parse(optarg, &fmt) || fmt == JD_PIX_MJPEG) {
				fprintf(stderr,
					"jetdepth: bench --pixfmt %s: expected a camera layout but "
					"MJPG: %s\n",
					optarg, jd_pixfmt_names());
				return JD_EXIT_USAGE;
			}
		} else {
			return jd_cli_help_or_usage(opt == OPT_HELP || opt == 'h', help);
		}
	}
	if (kernels) {
		return jd_bench_kernels(runs ? runs : 5) ? JD_EXIT_RUNTIME : JD_EXIT_OK;
	}
	if (fmt != JD_PIX_GREY && !pipeline) {
		fprintf(stderr, "jetdepth: bench --pixfmt: only with --pipeline\n");
		return JD_EXIT_USAGE;
	}
	if (ros2 && !pipeline) {
		fprintf(stderr, "jetdepth: bench --ros2: only with --pipeline\n");
		return JD_EXIT_USAGE;
	}
	if (ros2 && jd_ros2_not_built()) {
		fprintf(stderr, "jetdepth: bench --ros2: %s\n", jd_ros2_not_built());
		return JD_EXIT_USAGE;
	}
	if (pipeline) {
		struct jd_boot_choices choices = {0};
		if (jd_cli_boot_choices(&choices)) { /* once, before the table, for every size */
			return JD_EXIT_RUNTIME;
		}
		return jd_bench_pipeline(&p, w, h, runs ? runs : 30, threads, ros2, fmt, &choices)
			   ? JD_EXIT_RUNTIME
			   : JD_EXIT_OK;
	}
	custom |= cli.seen[OPT_ALGO - OPT_ALGO] || cli.seen[OPT_NDISP - OPT_ALGO];
	printf("%-18s %-8s %11s %6s %7s %10s %10s %12s %10s\n", "matcher", "backend", "size",
	       "ndisp", "threads", "median ms", "best ms", "Mpix*disp/s", "mem MiB");
	rc = JD_EXIT_OK;
	if (custom) {
		struct bench_case c = {p.algo, w ? w : 450, h ? h : 375, p.ndisp, p.bp.fp16, 0};
		if (run_case(&p, &c, runs, threads)) {
			return JD_EXIT_USAGE;
		}
		if (baseline && p.algo == JD_ALGO_BP) {
			c.naive = 1;
			rc = run_case(&p, &c, runs, threads) ? JD_EXIT_RUNTIME : JD_EXIT_OK;
		}
		return rc;
	}
	for (size_t i = 0; i < sizeof(default_cases) / sizeof(default_cases[0]); i++) {
		if (run_case(&p, &default_cases[i], runs, threads)) {
			rc = JD_EXIT_RUNTIME;
		}
	}
	return rc;
}
