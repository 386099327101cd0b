/*
 * What the frame loop hands the ROS 2 publisher, one rule for `run`, `bench --pipeline` and
 * the soak: the rig from the booted daemon, each frame from its collected stats.
 */
#ifndef JD_APP_ROS2_DAEMON_H
#define JD_APP_ROS2_DAEMON_H

#include "../loop/daemon.h"
#include "ros2.h"

/** The rectified rig the daemon runs: its size, camera model and disparity range. */
static inline struct jd_ros2_rig jd_ros2_rig_of(const struct jd_daemon *d)
{
	static const struct jd_camera_model none;
	const struct jd_daemon_info *in = jd_daemon_info(d);

	return (struct jd_ros2_rig){in->w,
				    in->h,
				    in->model != NULL,
				    in->model ? *in->model : none,
				    (float)in->p->min_disp,
				    (float)(in->p->min_disp + in->p->ndisp - 1)};
}

/*
 * Before each step: the GPU makes depth and the cloud the subscribers want for the frames
 * submitted from now on (no effect where the CPU makes them).
 * @return what the subscribed topics read from the host (JD_CUDA_BACK_* bits, for
 * jd_daemon_bring_back()): the image, disparity and confidence topics, and what the CPU makes the
 * depth and the cloud from where the GPU does not
 */
static inline unsigned jd_ros2_want_made(const struct jd_ros2 *r, struct jd_daemon *d)
{
	int want = jd_ros2_wants_made(r), read = jd_ros2_wants_read(r);
	int gpu =
	    jd_daemon_cloud_want(d, (want & JD_ROS2_MAKE_DEPTH ? JD_CUDA_CLOUD_DEPTH : 0) |
					(want & JD_ROS2_MAKE_POINTS ? JD_CUDA_CLOUD_POINTS : 0));
	unsigned back = (read & JD_ROS2_READ_LEFT ? JD_CUDA_BACK_PAIR : 0) |
			(read & JD_ROS2_READ_MAP ? JD_CUDA_BACK_MAP : 0) |
			(read & JD_ROS2_READ_CONF ? JD_CUDA_BACK_CONF : 0);

	if (!gpu && want) {
		back |= JD_CUDA_BACK_MAP | (want & JD_ROS2_MAKE_POINTS ? JD_CUDA_BACK_PAIR : 0);
	}
	return back;
}

/**
 * A collected frame (jd_daemon_step() or _drain() returned 1) as the publisher takes it,
 * with what the GPU made for it lent: offer it (jd_ros2_offer() gives that back).
 */
static inline struct jd_ros2_frame jd_ros2_frame_of(struct jd_daemon *d,
						    const struct jd_frame_stats *st)
{
	struct jd_ros2_frame f = {.frame = st->frame,
				  .capture_ns = st->ts_ns,
				  .left = st->left,
				  .disp = st->map,
				  .conf = st->conf,
				  .sense = st->sense,
				  .tracks = st->sense ? st->tracks : NULL};
	struct jd_cuda_cloud_set *s = jd_daemon_cloud(d);
	if (s) {
		int points = s->made & JD_CUDA_CLOUD_POINTS;
		f.made = (struct jd_ros2_made){s->made & JD_CUDA_CLOUD_DEPTH ? s->depth : NULL,
					       points ? s->points : NULL, points ? *s->npoints : 0,
					       jd_cuda_cloud_release, s};
	}
	return f;
}

#endif
