/*
 * What the frame loop hands the ROS 2 publisher, one rule for `run`, `bench --pipeline` and
 * the soak: the rig from the booted daemon, each frame from its collected stats.
 */
#ifndef JD_APP_ROS2_DAEMON_H
#define JD_APP_ROS2_DAEMON_H

#include "../daemon.h"
#include "ros2.h"

/** The rectified rig the daemon runs: its size, camera model and disparity range. */
static inline struct jd_ros2_rig jd_ros2_rig_of(const struct jd_daemon *d)
{
	return (struct jd_ros2_rig){d->boot.disp.width, d->boot.disp.height, d->sensing, d->model,
				    (float)d->p.min_disp, (float)(d->p.min_disp + d->p.ndisp - 1)};
}

/** A collected frame (jd_daemon_step() or _drain() returned 1) as the publisher takes it. */
static inline struct jd_ros2_frame jd_ros2_frame_of(const struct jd_daemon *d,
						    const struct jd_frame_stats *st)
{
	return (struct jd_ros2_frame){st->frame, st->ts_ns, st->left, &d->boot.disp, st->conf,
				      st->sense, st->sense ? st->tracks : NULL};
}

#endif
