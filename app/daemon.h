/*
 * The frame loop: camera -> match -> report. Until the camera HAL lands the camera is the
 * synthetic scene, which also gives a true disparity to check every frame against.
 * With the GPU the loop is pipelined: frame k+1 is captured and uploaded while frame k's
 * kernels run (jd_boot_depth() frames in flight); on the CPU one frame at a time.
 */
#ifndef JD_APP_DAEMON_H
#define JD_APP_DAEMON_H

#include <stdint.h>
#include <stdio.h>

#include "../algo/jd_params.h"
#include "boot.h"

struct jd_daemon {
	struct jd_boot boot;
	struct jd_match_params p;
	int frame;	       /* the next frame to capture */
	int inflight;	       /* submitted, not yet collected */
	uint64_t t_submit[2];  /* by frame parity: when it was submitted */
};

struct jd_frame_stats {
	int frame;
	uint64_t match_ns; /* submit to map in hand, queueing included */
	double bad1;	   /* percent of pixels more than 1 px off the truth */
	double invalid;	   /* percent without a disparity */
};

/** Boot: budget, pools (sealed), workers. @retval 0 or a negative errno (reason printed). */
int jd_daemon_init(struct jd_daemon *d, const struct jd_match_params *p, int w, int h, int threads,
		   const struct jd_board *board, FILE *log);

/**
 * Capture and submit one frame, then collect the oldest when the pipeline is full.
 * Allocates nothing.
 * @retval 1 st describes a finished frame, 0 none finished yet (the pipeline is filling),
 *         or a negative errno from the matcher
 */
int jd_daemon_step(struct jd_daemon *d, struct jd_frame_stats *st);

/** Collect a frame still in flight (at stop). @retval 1 st filled, 0 none left, or -errno */
int jd_daemon_drain(struct jd_daemon *d, struct jd_frame_stats *st);

void jd_daemon_deinit(struct jd_daemon *d);

#endif
