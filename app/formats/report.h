/*
 * What the robot gets per frame: one JSON object (a line of JSON Lines) with the frame's id
 * and timestamp, per-stage latency, the table plane (or why there is none) and the objects
 * with their fields: track id, age and velocity across frames, and with extrinsics the
 * positions again in the robot's base frame.
 * Formatted into a caller's fixed buffer (no allocation); the same text goes to stdout, a
 * UDP destination, or an objects.json file (`jetdepth sense`).
 */
#ifndef JD_APP_REPORT_H
#define JD_APP_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "../../algo/sense/sense.h"
#include "../../algo/sense/track.h"

struct jd_frame_report {
	const char *source;  /* "synthetic", "files" or "v4l2"; NULL: not said (one pair) */
	const char *suspect; /* why this frame's depth may be wrong (a check failed), or NULL */
	long frame;
	uint64_t ts_ns;
	double capture_ms, rectify_ms, match_ms, sense_ms;
	double cpu_ms;			     /* every thread's CPU time since the previous frame */
	const struct jd_sense_result *sense; /* NULL: not sensed (no camera model) */
	const struct jd_track_info *tracks;  /* per object (algo/sense/track.h), or NULL */
	const double *base_from_camera; /* app/formats/extrinsics.h, or NULL: camera frame only */
	float vertical_offset_px;	/* the calibration monitor's (NaN: not measured) */
	uint64_t ros_stamp_ns; /* the ROS 2 messages' stamp for this frame (0: not publishing) */
	/* who sent it, for readers of a port several daemons send to (NULL: not said) */
	const char *daemon_id; /* --id: [A-Za-z0-9._-] only */
	long pid;
	const char *camera[2]; /* the left and right devices (any bytes: escaped) */
	/* two devices: the timestamp skew, ms: this pair's, median and 99th percentile (or NULL) */
	const double *pair_skew_ms;
};

/**
 * Format r as one line of JSON (ending in '\n') into buf.
 * @return the length, or -1 when buf is too small (nothing usable in it)
 */
int jd_report_json(const struct jd_frame_report *r, char *buf, size_t len);

#endif
