/*
 * The frame loop: camera -> match -> report. Until the camera HAL lands the camera is the
 * synthetic scene, which also gives a true disparity to check every frame against.
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
	int frame;
};

struct jd_frame_stats {
	int frame;
	uint64_t match_ns;
	double bad1;	/* percent of pixels more than 1 px off the truth */
	double invalid; /* percent without a disparity */
};

/** Boot: budget, pools (sealed), workers. @retval 0 or a negative errno (reason printed). */
int jd_daemon_init(struct jd_daemon *d, const struct jd_match_params *p, int w, int h, int threads,
		   const struct jd_board *board, FILE *log);

/** One frame; allocates nothing. @retval 0 or a negative errno from the matcher. */
int jd_daemon_step(struct jd_daemon *d, struct jd_frame_stats *st);

void jd_daemon_deinit(struct jd_daemon *d);

#endif
