/* The preview's /status document of `jetdepth run`. */
#ifndef JD_APP_RUN_STATUS_H
#define JD_APP_RUN_STATUS_H

#include <stddef.h>
#include <stdint.h>

#include "../loop/daemon.h"
#include "../ros2/ros2_daemon.h"

/**
 * What the loop has done, the cameras (counters, clock, controls), the drops, the pairing
 * skew (skew: last, median, p99 in ms, or NULL), the memory, ROS 2, and the last frame's JSON
 * line (or NULL), into buf (NUL-terminated; cut at len).
 */
void jd_run_status_json(const struct jd_daemon *d, const struct jd_frame_stats *last,
			long long frames, uint64_t wall_ns, int outages, int streams,
			const char *state, const struct jd_ros2 *ros2, const double *skew,
			const char *frame_json, char *buf, size_t len);

#endif
