#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../hal/board.h"
#include "board_find.h"
#include "cli.h"
#include "commands.h"

static void print_camera(const char *role, const struct jd_board_camera *c)
{
	printf("  camera %-5s %s %s %dx%d@%d\n", role, c->source, c->format, c->width, c->height,
	       c->fps);
}

/*
 * jetdepth board detect: the installed Jetson board this device tree names (what --board
 * auto picks); exit 1 on a PC or an unknown Jetson. The package starts the service only then.
 */
static int detect(void)
{
	const char *dt = getenv("JETDEPTH_DT_COMPATIBLE");
	char path[1024], err[1024];

	dt = dt ? dt : "/proc/device-tree/compatible";
	if (jd_board_find("auto", dt, path, sizeof(path), err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
		return JD_EXIT_RUNTIME;
	}
	const char *base = strrchr(path, '/');
	if (strcmp(base ? base + 1 : path, "host.board") == 0) {
		fprintf(stderr,
			"jetdepth: board detect: no device tree at %s: not a Jetson (the "
			"host board serves only demos and tests)\n",
			dt);
		return JD_EXIT_RUNTIME;
	}
	printf("%s\n", path);
	return JD_EXIT_OK;
}

/* jetdepth board check FILE...: parse each board file, print it, report every error. */
int jd_cmd_board(int argc, char **argv)
{
	int rc = JD_EXIT_OK;

	if (argc == 2 && strcmp(argv[1], "detect") == 0) {
		return detect();
	}
	if (argc < 3 || strcmp(argv[1], "check") != 0 || strcmp(argv[argc - 1], "--help") == 0) {
		FILE *f = argc >= 2 && strcmp(argv[argc - 1], "--help") == 0 ? stdout : stderr;
		fprintf(f, "usage: jetdepth board check FILE...\n"
			   "       jetdepth board detect\n\n"
			   "check: parse board files (boards/README.md has the format) and print "
			   "what they say;\nerrors are reported as FILE:LINE: KEY: reason.\n"
			   "detect: the installed Jetson board whose compatible string the device "
			   "tree names\n(what --board auto picks); exit 1 on a PC or an unknown "
			   "Jetson.\n");
		return f == stdout ? JD_EXIT_OK : JD_EXIT_USAGE;
	}
	for (int i = 2; i < argc; i++) {
		struct jd_board b;
		char err[512];

		if (jd_board_load(argv[i], &b, err, sizeof(err))) {
			fprintf(stderr, "jetdepth: %s\n", err);
			rc = JD_EXIT_RUNTIME;
			continue;
		}
		printf("%s: %s (%s)\n", argv[i], b.name, b.full_name[0] ? b.full_name : "-");
		printf("  soc %s, compatible %s, gpu %s%s%s, memory ceiling %ld MiB\n", b.soc,
		       b.compatible, b.gpu ? "yes" : "no", b.cuda_arch[0] ? " " : "", b.cuda_arch,
		       b.memory_ceiling_mb);
		print_camera("left", &b.left);
		print_camera("right", &b.right);
		if (b.has_algo) {
			printf("  default algo %s\n", jd_algo_name(b.algo));
		}
		if (b.has_ndisp) {
			printf("  default ndisp %d\n", b.ndisp);
		}
		if (b.has_size) {
			printf("  default size %dx%d\n", b.width, b.height);
		}
		/* documentation only: boot decides none of these from the file (boards/README.md)
		 */
		printf("  documented: toolchain %s, cpu flags %s, unified memory %s, power %s, "
		       "clock %s\n",
		       b.toolchain[0] ? b.toolchain : "-", b.cpu_flags[0] ? b.cpu_flags : "-",
		       b.unified_memory ? "yes" : "no", b.power_mode[0] ? b.power_mode : "-",
		       b.clock_source[0] ? b.clock_source : "-");
	}
	return rc;
}
