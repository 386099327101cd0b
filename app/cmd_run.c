#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../algo/jd_status.h"
#include "../hal/clock.h"
#include "board_find.h"
#include "cli.h"
#include "commands.h"
#include "calib_yaml.h"
#include "../hal/sd_notify.h"
#include "daemon.h"
#include "publish.h"
#include "report.h"
#include "sense_cli.h"

enum {
	OPT_SIZE = OPT_CMD_BASE,
	OPT_FRAMES,
	OPT_BOARD,
	OPT_CAMERA,
	OPT_FPS,
	OPT_LOOP,
	OPT_PIXFMT,
	OPT_BUFFERS,
	OPT_SEED,
	OPT_JSON,
	OPT_UDP,
	OPT_CALIB,
	OPT_HELP,
	OPT_SENSE_BASE
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void help(FILE *f)
{
	fprintf(f,
		"usage: jetdepth run [--frames N] [--size WxH] [--camera SPEC] [options]\n\n"
		"Boot (budget, pools, threads, cameras), then run the frame loop until N frames "
		"or\nSIGINT/SIGTERM. The default camera is the built-in synthetic scene (a tilted "
		"table\nwith boxes), whose frames are checked against their true disparity.\n\n"
		"  --frames N     stop after N frames (default 0 = run until signalled)\n"
		"  --size WxH     frame size (default 450x375)\n"
		"  --camera SPEC  synth (default) | files:DIR (DIR/left and DIR/right hold\n"
		"                 same-named .pgm/.png/.jpg images, replayed in name order) |\n"
		"                 v4l2:/dev/videoL,/dev/videoR (see jetdepth cameras)\n"
		"  --pixfmt F     v4l2: YUYV (default), UYVY, GREY or MJPG; another one the\n"
		"                 device offers is used (and said) when it lacks this one\n"
		"  --buffers N    v4l2: driver buffers per camera (default 4, 2 to 16)\n"
		"  --seed N       synth: which scene (default 0, the one `jetdepth synth` writes)\n"
		"  --json         one JSON object per frame on stdout (JSON Lines: frame, timestamp,\n"
		"                 latency per stage, table, objects); boot's log goes to stderr\n"
		"  --udp HOST:PORT  also send each frame's JSON as one UDP datagram\n"
		"  --calib FILE   the cameras' calibration (two ROS camera_info files, left then\n"
		"                 right, or one OpenCV stereo file): frames are undistorted and\n"
		"                 rectified with it, and it gives sensing its camera model\n"
		"  --fps F        camera rate; the synthetic and files cameras pace to it\n"
		"                 (default 0: as fast as the matcher goes)\n"
		"  --loop         files camera: start again after the last pair\n"
		"  --board FILE   board file (boards/): checks the device tree, applies its\n"
		"                 defaults (options given here still win) and memory ceiling\n\n%s\n%s",
		jd_sense_cli_help, jd_cli_matcher_help);
}

/* The board's cameras are the default source (--camera overrides them). */
static void board_cameras(const struct jd_board *b, struct jd_capture_config *cam)
{
	const struct jd_board_camera *l = &b->left, *r = &b->right;

	if (!strncmp(l->source, "/dev/", 5) && !strncmp(r->source, "/dev/", 5)) {
		cam->kind = JD_CAPTURE_V4L2;
		snprintf(cam->device[0], sizeof(cam->device[0]), "%s", l->source);
		snprintf(cam->device[1], sizeof(cam->device[1]), "%s", r->source);
		(void)jd_pixfmt_parse(l->format, &cam->cam.fmt);
		cam->cam.fps = l->fps;
	} else if (!strncmp(l->source, "file:", 5)) {
		cam->kind = JD_CAPTURE_FILES;
		snprintf(cam->device[0], sizeof(cam->device[0]), "%s", l->source + 5);
	}
}

int jd_cmd_run(int argc, char **argv)
{
	/* stdout gets a static buffer so the first printf in the loop does not malloc one. */
	static char outbuf[4096];
	static struct option cmd_opts[40] = {{"size", required_argument, NULL, OPT_SIZE},
						 {"frames", required_argument, NULL, OPT_FRAMES},
						 {"board", required_argument, NULL, OPT_BOARD},
						 {"camera", required_argument, NULL, OPT_CAMERA},
						 {"fps", required_argument, NULL, OPT_FPS},
						 {"loop", no_argument, NULL, OPT_LOOP},
						 {"pixfmt", required_argument, NULL, OPT_PIXFMT},
						 {"buffers", required_argument, NULL, OPT_BUFFERS},
						 {"seed", required_argument, NULL, OPT_SEED},
						 {"json", no_argument, NULL, OPT_JSON},
						 {"udp", required_argument, NULL, OPT_UDP},
						 {"calib", required_argument, NULL, OPT_CALIB},
						 {"help", no_argument, NULL, OPT_HELP},
						 {0}};
	struct jd_match_params p;
	struct jd_cli cli;
	int w = 450, h = 375, frames = 0, threads = jd_workers_cpu_count(), opt, rc;
	static struct jd_daemon d; /* large (camera state): not on the stack */
	struct jd_board board;
	struct jd_capture_config cam = {.kind = JD_CAPTURE_SYNTH, .cam.fmt = JD_PIX_YUYV};
	uint64_t total_ns = 0;
	int done = 0, no_pair = 0, ended = 0, outages = 0, publish_errors = 0;

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
		board_cameras(&board, &cam);
		if (board.has_backend) {
			jd_cli_backend_default(board.backend);
		}
	}
	struct jd_sense_cli sense;
	const char *udp = NULL, *calib_files[2];
	int ncalib = 0;
	static struct jd_stereo_calib calib;
	int json = 0;
	int nopts = 0;
	while (cmd_opts[nopts].name) {
		nopts++;
	}
	jd_sense_cli_options(cmd_opts + nopts, 40 - nopts, OPT_SENSE_BASE);
	jd_sense_cli_init(&sense);
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
		} else if (opt == OPT_CAMERA) {
			char err[400];
			if (jd_capture_parse(optarg, &cam, err, sizeof(err))) {
				fprintf(stderr, "jetdepth: %s\n", err);
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_FPS) {
			char *end;
			cam.cam.fps = strtod(optarg, &end);
			if (*end || end == optarg || !(cam.cam.fps >= 0.0 && cam.cam.fps <= 1000.0)) {
				fprintf(stderr, "jetdepth: --fps %s: must be a number from 0 to 1000\n",
					optarg);
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_LOOP) {
			cam.loop = 1;
		} else if (opt == OPT_PIXFMT) {
			if (jd_pixfmt_parse(optarg, &cam.cam.fmt)) {
				fprintf(stderr, "jetdepth: --pixfmt %s: expected YUYV, UYVY, GREY or MJPG\n",
					optarg);
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_SEED) {
			int seed;
			if (jd_cli_int("--seed", optarg, &seed) || seed < 0) {
				fprintf(stderr, "jetdepth: --seed %s: must be 0 or more\n", optarg);
				return JD_EXIT_USAGE;
			}
			cam.seed = (uint32_t)seed;
		} else if (opt == OPT_BUFFERS) {
			if (jd_cli_int("--buffers", optarg, &cam.cam.buffers) || cam.cam.buffers < 2 ||
			    cam.cam.buffers > 16) {
				fprintf(stderr, "jetdepth: --buffers %s: must be 2 to 16\n", optarg);
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_JSON) {
			json = 1;
		} else if (opt == OPT_UDP) {
			udp = optarg;
		} else if (opt == OPT_CALIB) {
			if (ncalib == 2) {
				fprintf(stderr, "jetdepth: --calib: one or two files\n");
				return JD_EXIT_USAGE;
			}
			calib_files[ncalib++] = optarg;
		} else if (opt >= OPT_SENSE_BASE) {
			if (jd_sense_cli_parse(&sense, opt - OPT_SENSE_BASE, optarg)) {
				return JD_EXIT_USAGE;
			}
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
	fprintf(json ? stderr : stdout, "jetdepth run: board %s, %s camera %dx%d, %s, ndisp %d, %d thread(s)\n",
	       board_path ? board.name : "(built-in defaults)",
	       cam.kind == JD_CAPTURE_SYNTH ? "synthetic" : cam.kind == JD_CAPTURE_FILES ? "files" : "v4l2",
	       w, h, jd_algo_name(p.algo), p.ndisp, threads);
	if ((sense.have_focal != sense.have_baseline) && jd_sense_cli_check(&sense)) {
		return JD_EXIT_USAGE;
	}
	if (jd_sense_cli_fits(&sense, w, h)) {
		return JD_EXIT_USAGE;
	}
	if (ncalib) {
		char err[600];
		if (jd_calib_load(calib_files, ncalib, &calib, err, sizeof(err))) {
			fprintf(stderr, "jetdepth: %s\n", err);
			return JD_EXIT_RUNTIME;
		}
		cam.calib = &calib;
	}
	static struct jd_publisher pub;
	if (jd_publish_init(&pub, json ? stdout : NULL, udp)) {
		fprintf(stderr, "jetdepth: %s\n", pub.err);
		return JD_EXIT_USAGE;
	}
	/* With --json, stdout carries only the frames: boot's log goes to stderr. */
	if (jd_daemon_init(&d, &p, w, h, threads, &cam, &sense, board_path ? &board : NULL,
			   json ? stderr : stdout)) {
		jd_publish_deinit(&pub);
		return JD_EXIT_RUNTIME;
	}
	static struct jd_notify notify;
	if (jd_notify_init(&notify)) {
		fprintf(stderr, "jetdepth: NOTIFY_SOCKET=%s: not a socket path; systemd is not told\n",
			getenv("NOTIFY_SOCKET"));
	}
	jd_notify_send(&notify, "READY=1\nSTATUS=booted, running the frame loop");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	rc = JD_EXIT_OK;
	uint64_t t_start = jd_clock_ns();
	/* Submit until N frames are in, then drain what is still in flight (the GPU's). */
	for (;;) {
		struct jd_frame_stats st;
		int feeding = !stop_requested && !ended && (frames == 0 || d.frame < frames);

		if (!feeding && d.inflight == 0) {
			break;
		}
		int mrc = feeding ? jd_daemon_step(&d, &st) : jd_daemon_drain(&d, &st);

		/* the loop came round: tell systemd's watchdog (a hung stage stops this) */
		jd_notify_watchdog(&notify, jd_clock_ns());
		if (mrc == -ENODATA) {
			ended = 1; /* the files camera played everything: finish what is in flight */
			continue;
		}
		if (mrc < 0 && d.camera_failed && mrc != -EAGAIN) {
			/* a camera is gone: reopen with backoff until it is back or we are stopped */
			if (!outages++) {
				fprintf(stderr, "jetdepth: camera lost: %s; reopening\n", d.cap.err);
			}
			jd_notify_send(&notify, "STATUS=a camera is lost: reopening");
			for (int wait_ms = 100; !stop_requested && jd_capture_recover(&d.cap);) {
				struct timespec ts = {wait_ms / 1000, (wait_ms % 1000) * 1000000L};
				nanosleep(&ts, NULL);
				jd_notify_watchdog(&notify, jd_clock_ns()); /* waiting, not stuck */
				wait_ms = wait_ms < 2000 ? wait_ms * 2 : 2000;
			}
			continue;
		}
		if (mrc == -EAGAIN) {
			/* no pair this time (bad frames, a timeout): said once, then counted */
			if (!no_pair++) {
				fprintf(stderr, "jetdepth: no frame pair: %s\n", d.cap.err);
			}
			continue;
		}
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
		if (json || udp) {
			static char line[65536];
			struct jd_frame_report rep = {st.frame,	  st.ts_ns,
						      st.capture_ms, st.rectify_ms,
						      (double)st.match_ns / 1e6, st.sense_ms,
						      st.sense};
			int n = jd_report_json(&rep, line, sizeof(line));
			if (n > 0 && jd_publish(&pub, line, (size_t)n) && !publish_errors++) {
				fprintf(stderr, "jetdepth: publish: %s (said once, then counted)\n",
					pub.err);
			}
			if (json) {
				continue;
			}
		}
		if (st.sense) {
			printf("frame %4d  %8.1f ms  objects %d  table %s", st.frame,
			       (double)st.match_ns / 1e6, st.sense->nobjects,
			       st.sense->plane.valid ? "found" : "not found");
			if (st.has_truth) {
				printf("  bad>1px %5.2f%%", st.bad1);
			}
			printf("\n");
		} else if (st.has_truth) {
			printf("frame %4d  %8.1f ms  bad>1px %5.2f%%  invalid %5.2f%%\n", st.frame,
			       (double)st.match_ns / 1e6, st.bad1, st.invalid);
		} else {
			printf("frame %4d  %8.1f ms\n", st.frame, (double)st.match_ns / 1e6);
		}
	}
	FILE *info = json ? stderr : stdout; /* stdout carries only frames with --json */
	if (done) {
		double wall = (double)(jd_clock_ns() - t_start);

		fprintf(info, "%d frame(s), mean latency %.1f ms, %.1f fps\n", done,
		       (double)total_ns / 1e6 / done, 1e9 * done / wall);
	}
	for (int i = 0; i < 2; i++) {
		const struct jd_camera *c = &d.cap.cam[i];
		char rate[32] = "rate: under 1 s of frames";
		if (c->stats.fps > 0) {
			snprintf(rate, sizeof(rate), "%.1f fps", c->stats.fps);
		}
		fprintf(info, "camera %s %s: %lu frame(s), %s, %lu flagged, %lu timeout(s), %lu reopen(s)\n",
		       c->label, c->device, c->stats.frames, rate, c->stats.drop_flagged,
		       c->stats.timeouts, c->stats.reopens);
	}
	if (d.cap.drop_corrupt || d.cap.drop_short || no_pair || d.cap.pair.drops[0] ||
	    d.cap.pair.drops[1]) {
		fprintf(info, "dropped: %lu corrupt, %lu short or flagged, %lu+%lu unpaired (left+right); "
		       "%d time(s) without a pair\n",
		       d.cap.drop_corrupt, d.cap.drop_short, d.cap.pair.drops[0], d.cap.pair.drops[1],
		       no_pair);
	}
	if (outages) {
		fprintf(info, "camera outages: %d\n", outages);
	}
	if (publish_errors || pub.send_errors) {
		fprintf(stderr, "jetdepth: publish: %lu frame(s) sent, %lu send error(s)\n", pub.sent,
			pub.send_errors);
	}
	jd_notify_send(&notify, "STOPPING=1");
	jd_notify_deinit(&notify);
	jd_publish_deinit(&pub);
	jd_daemon_deinit(&d);
	fflush(stdout);
	return rc;
}
