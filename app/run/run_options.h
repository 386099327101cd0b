/*
 * The options of `jetdepth run`, from three places in this order, later ones winning: the
 * board file's defaults (--board), a config file (--config: one option a line, as `key
 * value`, documented in packaging/run.conf), then the command line. A bad config line stops
 * boot with file:line and the reason.
 */
#ifndef JD_APP_RUN_OPTIONS_H
#define JD_APP_RUN_OPTIONS_H

#include <stdio.h>

#include "../../algo/match/jd_params.h"
#include "../../hal/board.h"
#include "../../hal/camera/capture.h"
#include "../formats/dump.h"
#include "../net/preview.h"
#include "../ros2/ros2.h"
#include "sense_cli.h"

struct jd_run_options {
	struct jd_match_params p;
	int w, h, frames, threads, json, help;
	struct jd_capture_config cam;
	char v4l2_only[32]; /* the last option given that only a V4L2 camera takes ("": none) */
	int pixfmt_given;
	struct jd_sense_options sense;
	char udp[256]; /* "" : none */
	char id[64];   /* --id: this daemon's name in every frame's JSON (default: the host's) */
	char calib[2][512];
	int ncalib;
	struct jd_preview_config preview;   /* port 0: no preview */
	char dump_dir[JD_DUMP_DIR_MAX + 1]; /* "": SIGUSR1 is logged and ignored */
	int stats_every;		    /* seconds between stats lines (0: none) */
	int stall_s; /* seconds without a pair before the watchdog is no longer told (0: never) */
	struct jd_ros2_config ros2; /* --ros2, --ros-namespace, --ros-frame-id */
	/* --board and --config are read before everything else */
	const char *board_path, *config_path;
	int have_board;
	int camera_given; /* --camera (or `camera`) named the source */
	int size_given;	  /* --size (or `size`) named the frame size */
	struct jd_board board;
	char board_file[1024];
};

/**
 * Defaults, then the board and the config file named on the command line, then the command
 * line itself. @retval 0 to run, JD_EXIT_OK after --help, else the exit code (said why)
 */
int jd_run_options_load(struct jd_run_options *o, int argc, char **argv);

void jd_run_options_help(FILE *f);

#endif
