#include "run_options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board_find.h"
#include "camera_cli.h"
#include "../../hal/camera/camera_files.h"
#include "../../hal/in_file.h"
#include "../../hal/workers.h"
#include "cli.h"
#include "../formats/dump.h"

enum {
	OPT_SIZE = OPT_CMD_BASE,
	OPT_FRAMES,
	OPT_BOARD,
	OPT_CONFIG,
	OPT_CAMERA,
	OPT_FPS,
	OPT_LOOP,
	OPT_PIXFMT,
	OPT_BUFFERS,
	OPT_SEED,
	OPT_JSON,
	OPT_UDP,
	OPT_ID,
	OPT_CALIB,
	OPT_PREVIEW,
	OPT_PREVIEW_CLIENTS,
	OPT_DUMP_DIR,
	OPT_STATS,
	OPT_STALL,
	OPT_WAIT_CAMERAS,
	OPT_ROS2,
	OPT_ROS_NAMESPACE,
	OPT_ROS_FRAME_ID,
	OPT_HELP,
	OPT_SENSE_BASE,
	OPT_CAMERA_BASE = OPT_SENSE_BASE + JD_SENSE_CLI_NOPTS
};

/* the run's own options, then the sensing ones, then the terminator */
enum { RUN_OPTS_MAX = 40 + JD_SENSE_CLI_NOPTS + JD_CAMERA_CLI_NOPTS + 1 };
static struct option run_opts[RUN_OPTS_MAX] = {
    {"size", required_argument, NULL, OPT_SIZE},
    {"frames", required_argument, NULL, OPT_FRAMES},
    {"board", required_argument, NULL, OPT_BOARD},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"camera", required_argument, NULL, OPT_CAMERA},
    {"fps", required_argument, NULL, OPT_FPS},
    {"loop", no_argument, NULL, OPT_LOOP},
    {"pixfmt", required_argument, NULL, OPT_PIXFMT},
    {"buffers", required_argument, NULL, OPT_BUFFERS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"json", no_argument, NULL, OPT_JSON},
    {"udp", required_argument, NULL, OPT_UDP},
    {"id", required_argument, NULL, OPT_ID},
    {"calib", required_argument, NULL, OPT_CALIB},
    {"preview", required_argument, NULL, OPT_PREVIEW},
    {"preview-clients", required_argument, NULL, OPT_PREVIEW_CLIENTS},
    {"dump-dir", required_argument, NULL, OPT_DUMP_DIR},
    {"stats", required_argument, NULL, OPT_STATS},
    {"stall", required_argument, NULL, OPT_STALL},
    {"wait-cameras", no_argument, NULL, OPT_WAIT_CAMERAS},
    {"ros2", no_argument, NULL, OPT_ROS2},
    {"ros-namespace", required_argument, NULL, OPT_ROS_NAMESPACE},
    {"ros-frame-id", required_argument, NULL, OPT_ROS_FRAME_ID},
    {"help", no_argument, NULL, OPT_HELP},
    {0}};

void jd_run_options_help(FILE *f)
{
	fprintf(
	    f,
	    "usage: jetdepth run [--frames N] [--size WxH] [--camera SPEC] [options]\n\n"
	    "Boot (budget, pools, threads, cameras), then run the frame loop until N frames "
	    "or\nSIGINT/SIGTERM. The default camera is the built-in synthetic scene (a tilted "
	    "table\nwith boxes), whose frames are checked against their true disparity. SIGUSR1 "
	    "dumps\nthe current frame (--dump-dir); SIGHUP is logged and ignored (the "
	    "configuration is\nread at boot: restart to apply a new one).\n\n"
	    "  --frames N     stop after N frames (default 0 = run until signalled)\n"
	    "  --size WxH     frame size (default 450x375)\n"
	    "  --camera SPEC  synth (default) | files:DIR (DIR/left and DIR/right hold\n"
	    "                 same-named .pgm/.png/.jpg images, replayed in name order) |\n"
	    "                 v4l2:/dev/videoL,/dev/videoR (see jetdepth cameras) |\n"
	    "                 v4l2-sbs:/dev/videoN (one device, both views side by side) |\n"
	    "                 v4l2-tb:/dev/videoN (left view above the right) | files-sbs:DIR\n"
	    "                 | files-tb:DIR (images with both views); --size is a view's\n"
	    "  --pixfmt F     v4l2: YUYV (default), UYVY, GREY, MJPG, deep mono Y10, Y12,\n"
	    "                 Y16, or raw Bayer RGGB, BA81 (BGGR8), GBRG, GRBG, RG10, BG10,\n"
	    "                 GB10, BA10, RG12, BG12, GB12, BA12 (docs/cameras.md); another\n"
	    "                 one the device offers is used (and said) when it lacks this\n"
	    "                 one; synth: GREY (default), or any of these but MJPG laid out\n"
	    "                 as a camera's\n"
	    "  --buffers N    v4l2: driver buffers per camera (default 4, 2 to 16)\n"
	    "  --wait-cameras v4l2: a camera absent at boot (USB, not plugged in yet) is\n"
	    "                 waited for with backoff instead of failing boot (the default\n"
	    "                 under systemd)\n"
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
	    "  --preview [ADDR:]PORT  a read-only browser preview (MJPEG of the left view and\n"
	    "                 the disparity with the objects, each at most 640 pixels wide,\n"
	    "                 /status JSON); ADDR defaults to 127.0.0.1 (this machine only)\n"
	    "  --preview-clients N  at most N preview streams (default 4); 4 more connections\n"
	    "                 are kept for the page, more get 503; /status is always answered\n"
	    "                 (a request must come whole within 2 s, or it gets 408)\n"
	    "  --dump-dir DIR  on SIGUSR1 write the current disparity.pfm, disparity_u16.png\n"
	    "                 (disparity * 256, 0 none), depth_mm.pfm and cloud.ply (binary,\n"
	    "                 mm) there, each whole or not at all\n"
	    "  --id NAME      this daemon's name in every frame's JSON "
	    "(\"daemon\":{\"id\",\"pid\"},\n"
	    "                 beside the cameras' devices), so that the readers of one UDP port\n"
	    "                 tell daemons apart (default: the host name)\n"
	    "  --ros2         publish ROS 2 topics over DDS (Cyclone DDS; docs/ros2.md):\n"
	    "                 left/image_rect, left|right/camera_info, disparity, depth,\n"
	    "                 confidence, points, objects, table, markers; ROS_DOMAIN_ID,\n"
	    "                 ROS_AUTOMATIC_DISCOVERY_RANGE, ROS_STATIC_PEERS, ROS_LOCALHOST_ONLY\n"
	    "                 and CYCLONEDDS_URI as ROS 2 reads them (default: this host only)\n"
	    "  --ros-namespace NS  topics under /NS/ (default jetdepth; / for the root)\n"
	    "  --ros-frame-id ID  the messages' frame: the rectified left camera's optical\n"
	    "                 frame (default jetdepth_left_optical)\n"
	    "  --stall S      after S seconds without a frame pair (every frame dropped, or the\n"
	    "                 cameras silent) stop telling systemd's watchdog that all is well,\n"
	    "                 so that it restarts the daemon; said on the log (default 10, 0:\n"
	    "                 never)\n"
	    "  --stats S      every S seconds log frames, fps and each stage's mean latency\n"
	    "                 (and tell systemd; default 10, 0: never)\n"
	    "  --config FILE  options from a file, one `key value` a line (packaging/run.conf);\n"
	    "                 the command line wins over it, it wins over the board's defaults\n"
	    "  --board FILE   board file (boards/): checks the device tree, applies its\n"
	    "                 defaults (options given here still win) and memory "
	    "ceiling\n\n%s\n%s\n%s",
	    jd_camera_cli_help, jd_sense_cli_help, jd_cli_matcher_help());
}

/*
 * The board's cameras are the default source (--camera overrides them), read by the one
 * parser of a source (jd_capture_parse()): two devices are v4l2:LEFT,RIGHT; one device with
 * both views, named the same for both as sbs:/dev/videoN or tb:/dev/videoN, is v4l2-sbs: or
 * v4l2-tb: (the size is a view's); file:DIR is files:DIR; synth is the default.
 * @retval 0, or -EINVAL with err set
 */
static int board_cameras(const struct jd_board *b, struct jd_capture_config *cam, char *err,
			 size_t errlen)
{
	const struct jd_board_camera *l = &b->left, *r = &b->right;
	const int sbs = !strncmp(l->source, "sbs:/dev/", 9),
		  tb = !strncmp(l->source, "tb:/dev/", 8);
	char spec[2 * JD_BOARD_STR + 16];

	if ((sbs || tb) && !strcmp(l->source, r->source)) {
		snprintf(spec, sizeof(spec), "v4l2-%s", l->source);
	} else if (!strncmp(l->source, "/dev/", 5) && !strncmp(r->source, "/dev/", 5)) {
		snprintf(spec, sizeof(spec), "v4l2:%s,%s", l->source, r->source);
	} else if (!strncmp(l->source, "file:", 5)) {
		snprintf(spec, sizeof(spec), "files:%s", l->source + 5);
	} else {
		return 0;
	}
	if (jd_capture_parse(spec, cam, err, errlen)) {
		return -EINVAL;
	}
	if (cam->kind == JD_CAPTURE_V4L2) {
		(void)jd_pixfmt_parse(l->format, &cam->cam.fmt);
		cam->cam.fps = l->fps;
	}
	return 0;
}

/* A period option: whole seconds, 0 (never) to max. @retval 0 or -EINVAL (said) */
static int seconds(const char *opt, const char *arg, int max, const char *where, int *out)
{
	if (jd_cli_int(opt, arg, out) || *out < 0 || *out > max) {
		fprintf(stderr, "jetdepth: %s%s %s: seconds, 0 (never) to %d\n", where, opt, arg,
			max);
		return -EINVAL;
	}
	return 0;
}

/* The characters --id takes (and the default id is made of). */
static const char id_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";

/*
 * Parse argv[1..] into o (getopt: argv[0] is a name). where: "" for the command line, or
 * "FILE:LINE: " for a config line, put before the messages. @retval 0 or the exit code
 */
static int parse(struct jd_run_options *o, int argc, char **argv, const char *where)
{
	struct jd_cli cli;
	int opt;

	jd_cli_begin(&cli, argc, argv, "h", run_opts, &o->p, &o->threads);
	opterr = where[0] == '\0'; /* a config line's errors are said with its place */
	while ((opt = jd_cli_next(&cli)) != -1) {
		char err[400];
		if (opt == JD_CLI_BAD) {
			return JD_EXIT_USAGE;
		} else if (opt == OPT_SIZE) {
			if (jd_cli_size("--size", optarg, &o->w, &o->h)) {
				return JD_EXIT_USAGE;
			}
			o->size_given = 1;
		} else if (opt == OPT_FRAMES) {
			if (jd_cli_int("--frames", optarg, &o->frames) || o->frames < 0) {
				fprintf(stderr, "jetdepth: %s--frames %s: must be 0 or more\n",
					where, optarg);
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_BOARD || opt == OPT_CONFIG) {
			if (where[0]) {
				fprintf(stderr, "jetdepth: %s%s: only on the command line\n", where,
					opt == OPT_BOARD ? "board" : "config");
				return JD_EXIT_USAGE;
			}
			continue; /* read first, by jd_run_options_load() */
		} else if (opt == OPT_CAMERA) {
			if (jd_capture_parse(optarg, &o->cam, err, sizeof(err))) {
				fprintf(stderr, "jetdepth: %s%s\n", where, err);
				return JD_EXIT_USAGE;
			}
			o->camera_given = 1;
		} else if (opt == OPT_FPS) {
			char *end;
			o->cam.cam.fps = strtod(optarg, &end);
			if (*end || end == optarg ||
			    !(o->cam.cam.fps >= 0.0 && o->cam.cam.fps <= 1000.0)) {
				fprintf(stderr,
					"jetdepth: %s--fps %s: must be a number from 0 to 1000\n",
					where, optarg);
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_LOOP) {
			/* files: start again after the last pair; synth: replay its first two */
			o->cam.files.loop = o->cam.synth.replay = 1;
		} else if (opt == OPT_WAIT_CAMERAS) {
			o->cam.wait_absent = 1;
		} else if (opt == OPT_PIXFMT) {
			if (jd_pixfmt_parse(optarg, &o->cam.cam.fmt)) {
				fprintf(stderr, "jetdepth: %s--pixfmt %s: expected one of %s\n",
					where, optarg, jd_pixfmt_names());
				return JD_EXIT_USAGE;
			}
			o->cam.synth.fmt = o->cam.cam.fmt;
			o->pixfmt_given = 1;
		} else if (opt == OPT_SEED) {
			int seed;
			if (jd_cli_int("--seed", optarg, &seed)) {
				return JD_EXIT_USAGE;
			}
			if (seed < 0) {
				fprintf(stderr, "jetdepth: %s--seed %s: must be 0 or more\n", where,
					optarg);
				return JD_EXIT_USAGE;
			}
			o->cam.synth.seed = (uint32_t)seed;
		} else if (opt == OPT_BUFFERS) {
			snprintf(o->v4l2_only, sizeof(o->v4l2_only), "--buffers");
			if (jd_cli_int("--buffers", optarg, &o->cam.cam.buffers) ||
			    o->cam.cam.buffers < 2 || o->cam.cam.buffers > 16) {
				fprintf(stderr, "jetdepth: %s--buffers %s: must be 2 to 16\n",
					where, optarg);
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_JSON) {
			o->json = 1;
		} else if (opt == OPT_UDP) {
			snprintf(o->udp, sizeof(o->udp), "%s", optarg);
		} else if (opt == OPT_ID) {
			size_t k = strlen(optarg);
			if (k < 1 || k >= sizeof(o->id) || strspn(optarg, id_chars) != k) {
				fprintf(stderr,
					"jetdepth: %s--id %s: 1 to %zu letters, digits, '.', "
					"'_' or '-'\n",
					where, optarg, sizeof(o->id) - 1);
				return JD_EXIT_USAGE;
			}
			memcpy(o->id, optarg, k + 1);
		} else if (opt == OPT_CALIB) {
			if (!optarg[0]) {
				fprintf(stderr, "jetdepth: %s--calib '': an empty file name\n",
					where);
				return JD_EXIT_USAGE;
			}
			if (o->ncalib == 2) {
				fprintf(stderr, "jetdepth: %s--calib: one or two files\n", where);
				return JD_EXIT_USAGE;
			}
			snprintf(o->calib[o->ncalib++], sizeof(o->calib[0]), "%s", optarg);
		} else if (opt == OPT_PREVIEW) {
			int clients = o->preview.max_clients;
			if (jd_preview_parse(optarg, &o->preview)) {
				fprintf(stderr,
					"jetdepth: %s--preview %s: expected [ADDRESS:]PORT, e.g. "
					"8080 or "
					"0.0.0.0:8080\n",
					where, optarg);
				return JD_EXIT_USAGE;
			}
			o->preview.max_clients = clients ? clients : 4;
		} else if (opt == OPT_DUMP_DIR) {
			if (!optarg[0] || strlen(optarg) > JD_DUMP_DIR_MAX) {
				fprintf(stderr, "jetdepth: %s--dump-dir: %zu characters: 1 to %d\n",
					where, strlen(optarg), JD_DUMP_DIR_MAX);
				return JD_EXIT_USAGE;
			}
			snprintf(o->dump_dir, sizeof(o->dump_dir), "%s", optarg);
		} else if (opt == OPT_STALL) {
			if (seconds("--stall", optarg, 3600, where, &o->stall_s)) {
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_STATS) {
			if (seconds("--stats", optarg, 86400, where, &o->stats_every)) {
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_ROS2) {
			o->ros2.enabled = 1;
		} else if (opt == OPT_ROS_NAMESPACE || opt == OPT_ROS_FRAME_ID) {
			char *dst = opt == OPT_ROS_NAMESPACE ? o->ros2.ns : o->ros2.frame_id;
			if (strlen(optarg) >= JD_ROS2_NAME_MAX) {
				fprintf(stderr, "jetdepth: %s--%s: %zu characters: at most %d\n",
					where,
					opt == OPT_ROS_NAMESPACE ? "ros-namespace" : "ros-frame-id",
					strlen(optarg), JD_ROS2_NAME_MAX - 1);
				return JD_EXIT_USAGE;
			}
			snprintf(dst, JD_ROS2_NAME_MAX, "%s", optarg);
			/* said here, with the config line's place */
			if (jd_ros2_check(&o->ros2, err, sizeof(err))) {
				fprintf(stderr, "jetdepth: %s%s\n", where, err);
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_PREVIEW_CLIENTS) {
			if (jd_cli_int("--preview-clients", optarg, &o->preview.max_clients) ||
			    o->preview.max_clients < 1 || o->preview.max_clients > 64) {
				fprintf(stderr,
					"jetdepth: %s--preview-clients %s: must be 1 to 64\n",
					where, optarg);
				return JD_EXIT_USAGE;
			}
		} else if (opt >= OPT_CAMERA_BASE) {
			const char *v4l2 = jd_camera_cli_v4l2_only(opt - OPT_CAMERA_BASE);
			if (v4l2) {
				snprintf(o->v4l2_only, sizeof(o->v4l2_only), "--%s", v4l2);
			}
			if (jd_camera_cli_parse(&o->cam, opt - OPT_CAMERA_BASE, optarg, where)) {
				return JD_EXIT_USAGE;
			}
		} else if (opt >= OPT_SENSE_BASE) {
			if (jd_sense_cli_parse(&o->sense, opt - OPT_SENSE_BASE, optarg)) {
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_HELP || opt == 'h') {
			o->help = 1;
		} else {
			if (where[0]) {
				fprintf(stderr, "jetdepth: %s'%s': not an option of jetdepth run\n",
					where, argv[1]);
			} else {
				jd_run_options_help(stderr);
			}
			return JD_EXIT_USAGE;
		}
	}
	opterr = 1;
	if (optind != argc) {
		fprintf(stderr, "jetdepth: %sunexpected argument '%s'\n", where, argv[optind]);
		return JD_EXIT_USAGE;
	}
	return 0;
}

/* Keys a config file may give more than once (each adds one: the two calibration files). */
static int repeatable(const char *key)
{
	return !strcmp(key, "calib");
}

/*
 * One line of f into line (cap bytes, NUL-ended, without the newline). @retval 1 a line, 0
 * the end, -1 too long, -2 a NUL byte (a binary file): the caller says which.
 */
static int read_line(FILE *f, char *line, size_t cap)
{
	size_t n = 0;
	int c;

	while ((c = fgetc(f)) != EOF && c != '\n') {
		if (c == '\0') {
			return -2;
		}
		if (n + 1 >= cap) {
			return -1;
		}
		line[n++] = (char)c;
	}
	line[n] = '\0';
	return c == EOF && n == 0 ? 0 : 1;
}

/*
 * A comment starts with '#' at the start of a line or after a blank: a '#' inside a value
 * (`dump-dir /data/run#2`) is part of it. A carriage return (a file from Windows) ends the line.
 */
static void cut_comment(char *s)
{
	for (char *c = s; *c; c++) {
		if (*c == '\r' || (*c == '#' && (c == s || *(c - 1) == ' ' || *(c - 1) == '\t'))) {
			*c = '\0';
			return;
		}
	}
}

/* A config file: `key value` (or a bare `key` for a switch) a line, # comments. */
static int load_config(struct jd_run_options *o, const char *path)
{
	char why[600];
	FILE *f = jd_in_fopen(path, why, sizeof(why));
	char line[1024];
	static struct {
		char key[64];
		int line;
	} seen[64];
	int ln = 0, rc = 0, nseen = 0, got;

	if (!f) {
		fprintf(stderr, "jetdepth: --config %s\n", why);
		return JD_EXIT_RUNTIME;
	}
	while (!rc && (got = read_line(f, line, sizeof(line))) != 0) {
		char where[600], opt[300], *s = line, *key, *val;
		ln++;
		snprintf(where, sizeof(where), "%s:%d: ", path, ln);
		if (got < 0) {
			fprintf(stderr, "jetdepth: %s%s\n", where,
				got == -2 ? "a NUL byte: not a text file"
					  : "line longer than 1022 characters");
			rc = JD_EXIT_USAGE;
			break;
		}
		if (ln == 1 && !strncmp(s, "\xef\xbb\xbf", 3)) {
			s += 3; /* a UTF-8 byte-order mark, as some editors write */
		}
		cut_comment(s);
		key = strtok(s, " \t");
		if (!key) {
			continue;
		}
		if (!strncmp(key, "--", 2) && key[2]) {
			key += 2; /* `--key value`, as on the command line */
		}
		val = strtok(NULL, " \t");
		if (strtok(NULL, " \t")) {
			fprintf(stderr, "jetdepth: %s%s: one value after the key\n", where, key);
			rc = JD_EXIT_USAGE;
			break;
		}
		for (int i = 0; i < nseen && !repeatable(key); i++) {
			if (!strcmp(seen[i].key, key)) {
				fprintf(stderr,
					"jetdepth: %s%s: given twice (first at line %d): which "
					"one is meant?\n",
					where, key, seen[i].line);
				rc = JD_EXIT_USAGE;
			}
		}
		if (rc) {
			break;
		}
		if (nseen < 64) {
			snprintf(seen[nseen].key, sizeof(seen[0].key), "%s", key);
			seen[nseen++].line = ln;
		}
		snprintf(opt, sizeof(opt), "--%s", key);
		char *args[3] = {"config", opt, val};
		int n = val ? 3 : 2;
		rc = parse(o, n, args, where);
		if (rc == JD_EXIT_USAGE) {
			/* the option's own message (for matcher options, without the place) */
			fprintf(stderr, "jetdepth: %s'%s%s%s' rejected\n", where, key,
				val ? " " : "", val ? val : "");
		}
	}
	fclose(f);
	return rc;
}

/* The default --id: the host's name, in the characters --id allows. */
static void default_id(char *id, size_t cap)
{
	if (gethostname(id, cap) != 0 || !id[0]) {
		snprintf(id, cap, "jetdepth");
	}
	id[cap - 1] = '\0';
	for (char *c = id; *c; c++) {
		if (!strchr(id_chars, *c)) {
			*c = '-';
		}
	}
}

int jd_run_options_load(struct jd_run_options *o, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	default_id(o->id, sizeof(o->id));
	o->w = 450;
	o->h = 375;
	o->threads = jd_workers_cpu_count();
	o->stats_every = 10;
	o->stall_s = 10;
	o->cam = (struct jd_capture_config){
	    .kind = JD_CAPTURE_SYNTH, .cam.fmt = JD_PIX_YUYV, .record_max_mb = 2048};
	jd_params_default(&o->p, JD_ALGO_SGM, 64);
	jd_sense_cli_init(&o->sense);
	jd_ros2_default(&o->ros2);
	static int sensing_appended; /* once: the table is static */
	int nopts = 0;
	while (run_opts[nopts].name) {
		nopts++;
	}
	if (!sensing_appended) {
		if (nopts + JD_SENSE_CLI_NOPTS + JD_CAMERA_CLI_NOPTS + 1 > RUN_OPTS_MAX) {
			fprintf(stderr, "jetdepth: run: %d options do not fit the table of %d\n",
				nopts + JD_SENSE_CLI_NOPTS + JD_CAMERA_CLI_NOPTS, RUN_OPTS_MAX - 1);
			return JD_EXIT_RUNTIME;
		}
		jd_sense_cli_options(run_opts + nopts, RUN_OPTS_MAX - nopts, OPT_SENSE_BASE);
		nopts += JD_SENSE_CLI_NOPTS;
		jd_camera_cli_options(run_opts + nopts, RUN_OPTS_MAX - nopts, OPT_CAMERA_BASE);
		sensing_appended = 1;
	}
	/* --board and --config first: the command line's other options win over both. */
	for (int i = 1; i < argc; i++) {
		const char **slot = !strcmp(argv[i], "--board")	   ? &o->board_path
				    : !strcmp(argv[i], "--config") ? &o->config_path
								   : NULL;
		const char *val = NULL, *name = NULL;
		if (slot && i + 1 < argc) {
			name = argv[i];
			val = argv[++i];
		} else if (!strncmp(argv[i], "--board=", 8)) {
			slot = &o->board_path, name = "--board", val = argv[i] + 8;
		} else if (!strncmp(argv[i], "--config=", 9)) {
			slot = &o->config_path, name = "--config", val = argv[i] + 9;
		}
		if (val && *slot) {
			/* one of each: a second would be silently the only one read */
			fprintf(stderr, "jetdepth: %s given twice (%s, %s): give one\n", name,
				*slot, val);
			return JD_EXIT_USAGE;
		}
		if (val) {
			*slot = val;
		}
	}
	if (o->board_path) {
		char err[1024];
		const char *dt = getenv("JETDEPTH_DT_COMPATIBLE");

		dt = dt ? dt : "/proc/device-tree/compatible";
		if (jd_board_find(o->board_path, dt, o->board_file, sizeof(o->board_file), err,
				  sizeof(err))) {
			fprintf(stderr, "jetdepth: %s\n", err);
			return JD_EXIT_RUNTIME;
		}
		o->board_path = o->board_file;
		if (jd_board_load(o->board_path, &o->board, err, sizeof(err)) ||
		    jd_board_validate(&o->board, dt, err, sizeof(err))) {
			fprintf(stderr, "jetdepth: %s\n", err);
			return JD_EXIT_RUNTIME;
		}
		o->have_board = 1;
		jd_board_apply_defaults(&o->board, &o->p, &o->w, &o->h);
		if (board_cameras(&o->board, &o->cam, err, sizeof(err))) {
			fprintf(stderr,
				"jetdepth: %s: camera left %s, right %s: not a source "
				"jetdepth reads (%s)\n",
				o->board_path, o->board.left.source, o->board.right.source, err);
			return JD_EXIT_RUNTIME;
		}
		if (o->board.has_backend) {
			jd_cli_backend_default(o->board.backend);
		}
		/* the cameras' WxH is the frame size, unless default.size says it (then they agree)
		 */
		const struct jd_board_camera *bl = &o->board.left;
		if (o->cam.kind == JD_CAPTURE_V4L2 && bl->width > 0 && bl->height > 0) {
			if (o->board.has_size &&
			    (o->board.width != bl->width || o->board.height != bl->height)) {
				fprintf(stderr,
					"jetdepth: %s: default.size %dx%d but the cameras give "
					"%dx%d: which is meant?\n",
					o->board_path, o->board.width, o->board.height, bl->width,
					bl->height);
				return JD_EXIT_RUNTIME;
			}
			o->w = bl->width;
			o->h = bl->height;
		}
	}
	if (o->config_path) {
		int rc = load_config(o, o->config_path);
		if (rc) {
			return rc;
		}
	}
	int rc = parse(o, argc, argv, "");
	if (rc) {
		return rc;
	}
	if (o->help) {
		jd_run_options_help(stdout);
		return JD_EXIT_OK;
	}
	/* the names were checked as they were read (parse()) */
	if (o->ros2.enabled && jd_ros2_not_built()) {
		fprintf(stderr, "jetdepth: --ros2: %s\n", jd_ros2_not_built());
		return JD_EXIT_USAGE;
	}
	/* Settings a camera cannot take are refused, not dropped without a word. */
	if (o->v4l2_only[0] && o->cam.kind != JD_CAPTURE_V4L2) {
		fprintf(stderr,
			"jetdepth: %s: the %s camera has no such setting (only V4L2 "
			"cameras take it)\n",
			o->v4l2_only, jd_capture_source(o->cam.kind));
		return JD_EXIT_USAGE;
	}
	if (o->pixfmt_given && o->cam.kind == JD_CAPTURE_FILES) {
		fprintf(stderr, "jetdepth: --pixfmt: the files camera reads each file's own format "
				"(a recording's names say it)\n");
		return JD_EXIT_USAGE;
	}
	/* A files camera's frames are its images' size: taken from them unless --size said */
	if (o->cam.kind == JD_CAPTURE_FILES) {
		char err[1200], first[700];
		int w, h;
		if (jd_capture_files_size(&o->cam, &w, &h, first, sizeof(first), err,
					  sizeof(err))) {
			fprintf(stderr, "jetdepth: %s\n", err);
			return JD_EXIT_RUNTIME;
		}
		if (o->size_given && (w != o->w || h != o->h)) {
			fprintf(
			    stderr,
			    "jetdepth: files camera: %s is %dx%d but --size is %dx%d: every frame "
			    "would be dropped (leave --size out to take the images' size)\n",
			    first, w, h, o->w, o->h);
			return JD_EXIT_RUNTIME;
		}
		o->w = w;
		o->h = h;
	}
	/*
	 * A service: systemd's Type=notify unit gives NOTIFY_SOCKET. INVOCATION_ID alone is no
	 * sign (a shell inside a user session or tmux under systemd has one).
	 */
	const char *ns = getenv("NOTIFY_SOCKET");
	int service = ns && *ns;
	/* a service that exits when a USB camera is late hits systemd's start limit: wait */
	o->cam.wait_absent |= service;
	/* A service publishes to a robot: made-up objects only when someone asked for them. */
	if (o->cam.kind == JD_CAPTURE_SYNTH && !o->camera_given && service) {
		fprintf(
		    stderr,
		    "jetdepth: no camera configured (board %s): under systemd (NOTIFY_SOCKET is "
		    "set) the synthetic scene "
		    "runs only when asked for; set `camera v4l2:/dev/videoL,/dev/videoR` (or "
		    "`camera synth` for a demo) in the config\n",
		    o->have_board ? o->board.name : "(built-in defaults)");
		return JD_EXIT_RUNTIME;
	}
	return 0;
}
