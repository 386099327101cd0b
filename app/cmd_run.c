#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algo/jd_status.h"
#include "../hal/clock.h"
#include "board_find.h"
#include "cli.h"
#include "commands.h"
#include "daemon.h"

enum { OPT_SIZE = OPT_CMD_BASE, OPT_FRAMES, OPT_BOARD, OPT_HELP };

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void help(FILE *f)
{
	fprintf(f,
		"usage: jetdepth run [--frames N] [--size WxH] [options]\n\n"
		"Boot (budget, pools, threads), then run the frame loop until N frames or "
		"SIGINT/SIGTERM.\n"
		"The camera is the built-in synthetic scene (a tilted table with boxes); each "
		"frame is\nchecked against its true disparity.\n\n"
		"  --frames N     stop after N frames (default 0 = run until signalled)\n"
		"  --size WxH     frame size (default 450x375)\n"
		"  --board FILE   board file (boards/): checks the device tree, applies its\n"
		"                 defaults (options given here still win) and memory ceiling\n\n%s",
		jd_cli_matcher_help);
}

int jd_cmd_run(int argc, char **argv)
{
	/* stdout gets a static buffer so the first printf in the loop does not malloc one. */
	static char outbuf[4096];
	static const struct option cmd_opts[] = {{"size", required_argument, NULL, OPT_SIZE},
						 {"frames", required_argument, NULL, OPT_FRAMES},
						 {"board", required_argument, NULL, OPT_BOARD},
						 {"help", no_argument, NULL, OPT_HELP},
						 {0}};
	struct jd_match_params p;
	struct jd_cli cli;
	int w = 450, h = 375, frames = 0, threads = jd_workers_cpu_count(), opt, rc;
	struct jd_daemon d;
	struct jd_board board;
	uint64_t total_ns = 0;
	int done = 0;

	setvbuf(stdout, outbuf, _IOLBF, sizeof(outbuf));
	jd_params_default(&p, JD_ALGO_SGM, 64);
	/* The board's defaults go first so that options on the command line override them. */
	const char *board_path = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--board") == 0 && i + 1 < argc) {
			board_path = argv[i + 1];
		} else if (strncmp(argv[i], "--board=", 8) == 0) {
			board_path = argv[i] + 8;
		}
	}
	static char board_file[1024];
	if (board_path) {
		char err[1024];
		const char *dt = getenv("JETDEPTH_DT_COMPATIBLE");

		dt = dt ? dt : "/proc/device-tree/compatible";
		if (jd_board_find(board_path, dt, board_file, sizeof(board_file), err,
				  sizeof(err))) {
			fprintf(stderr, "jetdepth: %s\n", err);
			return JD_EXIT_RUNTIME;
		}
		board_path = board_file;
		if (jd_board_load(board_path, &board, err, sizeof(err)) ||
		    jd_board_validate(&board, dt, err, sizeof(err))) {
			fprintf(stderr, "jetdepth: %s\n", err);
			return JD_EXIT_RUNTIME;
		}
		jd_board_apply_defaults(&board, &p, &w, &h);
		if (board.has_backend) {
			jd_cli_backend_default(board.backend);
		}
	}
	jd_cli_begin(&cli, argc, argv, "h", cmd_opts, &p, &threads);
	while ((opt = jd_cli_next(&cli)) != -1) {
		if (opt == JD_CLI_BAD) {
			return JD_EXIT_USAGE;
		} else if (opt == OPT_SIZE) {
			if (jd_cli_size("--size", optarg, &w, &h)) {
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_FRAMES) {
			if (jd_cli_int("--frames", optarg, &frames) || frames < 0) {
				fprintf(stderr, "jetdepth: --frames %s: must be 0 or more\n",
					optarg);
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_BOARD) {
			continue; /* loaded above */
		} else if (opt == OPT_HELP || opt == 'h') {
			help(stdout);
			return JD_EXIT_OK;
		} else {
			help(stderr);
			return JD_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "jetdepth run: unexpected argument '%s'\n", argv[optind]);
		return JD_EXIT_USAGE;
	}
	if ((rc = jd_cli_validate(&p, w, h))) {
		return rc;
	}
	printf("jetdepth run: board %s, synthetic camera %dx%d, %s, ndisp %d, %d thread(s)\n",
	       board_path ? board.name : "(built-in defaults)", w, h, jd_algo_name(p.algo), p.ndisp,
	       threads);
	if (jd_daemon_init(&d, &p, w, h, threads, board_path ? &board : NULL, stdout)) {
		return JD_EXIT_RUNTIME;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	rc = JD_EXIT_OK;
	uint64_t t_start = jd_clock_ns();
	/* Submit until N frames are in, then drain what is still in flight (the GPU's). */
	for (;;) {
		struct jd_frame_stats st;
		int feeding = !stop_requested && (frames == 0 || d.frame < frames);

		if (!feeding && d.inflight == 0) {
			break;
		}
		int mrc = feeding ? jd_daemon_step(&d, &st) : jd_daemon_drain(&d, &st);

		if (mrc < 0) {
			fprintf(stderr, "jetdepth: frame %d: match failed: %s\n", d.frame,
				jd_strerror(mrc));
			rc = JD_EXIT_RUNTIME;
			break;
		}
		if (mrc == 0) {
			continue;
		}
		total_ns += st.match_ns;
		done++;
		printf("frame %4d  %8.1f ms  bad>1px %5.2f%%  invalid %5.2f%%\n", st.frame,
		       (double)st.match_ns / 1e6, st.bad1, st.invalid);
	}
	if (done) {
		double wall = (double)(jd_clock_ns() - t_start);

		printf("%d frame(s), mean latency %.1f ms, %.1f fps\n", done,
		       (double)total_ns / 1e6 / done, 1e9 * done / wall);
	}
	jd_daemon_deinit(&d);
	fflush(stdout);
	return rc;
}
