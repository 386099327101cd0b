/* jetdepth: stereo depth for robots. The subcommand table. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

#ifndef JD_VERSION
#define JD_VERSION "0.0.0"
#endif

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
    {"run", jd_cmd_run, "boot and run the frame loop (synthetic camera by default)"},
    {"match", jd_cmd_match, "match one stereo pair: jetdepth match LEFT RIGHT -o OUT"},
    {"eval", jd_cmd_eval, "score a disparity map: jetdepth eval DISP.pfm GT_DIR"},
    {"bench", jd_cmd_bench, "time the matchers and print a table"},
    {"synth", jd_cmd_synth, "write the built-in synthetic stereo pair and its truth"},
    {"board", jd_cmd_board, "check board files: jetdepth board check FILE..."},
    {"calib", jd_cmd_calib, "check a stereo calibration: jetdepth calib check FILE..."},
    {"sense", jd_cmd_sense, "the table and the objects in mm from one pair: JSON"},
    {"tune", jd_cmd_tune, "time the GPU kernels' configurations here, write the tuning file"},
    {"cameras", jd_cmd_cameras, "list V4L2 cameras with their formats, sizes and rates"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: jetdepth [--help | --version] [COMMAND [OPTIONS]]\n\n"
		   "Stereo depth for robots on NVIDIA Jetson boards.\n"
		   "With no command, runs `jetdepth run` on the built-in synthetic scene.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		fprintf(f, "  %-7s %s\n", commands[i].name, commands[i].summary);
	}
	fprintf(f, "\n`jetdepth COMMAND --help` describes each command.\n"
		   "Exit codes: 0 success, 1 runtime error, 2 usage error.\n");
}

int main(int argc, char **argv)
{
	jd_cli_guard_std_fds();
	if (argc < 2) {
		return jd_cmd_run(argc, argv);
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return JD_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("jetdepth %s\n", JD_VERSION);
		return JD_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name) == 0) {
			return commands[i].run(argc - 1, argv + 1);
		}
	}
	fprintf(stderr, "jetdepth: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return JD_EXIT_USAGE;
}
