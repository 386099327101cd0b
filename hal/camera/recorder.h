/*
 * The field recorder (`run --record DIR`): the pairs the loop consumed, as the cameras gave
 * them, in the layout the files camera replays (DIR/left and DIR/right, NNNNNNNN.WxH.FORMAT.raw
 * with rows packed, or NNNNNNNN.jpg for MJPEG), so that a recording made on a robot
 * reproduces its output on a desk. Bounded by a byte budget; a write that fails (a full
 * disk) stops the recording, says why once, and removes the half-written pair: the robot
 * goes on. Writes are synchronous, in the loop: a disk slower than the cameras slows it.
 * No allocation: the state and its path buffer are the caller's.
 */
#ifndef JD_HAL_RECORDER_H
#define JD_HAL_RECORDER_H

#include <stdint.h>
#include <stdio.h>

#include "camera.h"

struct jd_recorder {
	char dir[256];
	int on;
	uint64_t max_bytes, bytes;
	unsigned long pairs;
	char why[500]; /* why it stopped, once ("" while recording) */
	FILE *log;     /* where it says so (NULL: silent) */
};

/**
 * Boot: make DIR/left and DIR/right (DIR may exist; the sides must be empty of recordings, so
 * that nothing earlier is replaced). @retval 0, or -errno with r->why naming the path
 */
int jd_recorder_init(struct jd_recorder *r, const char *dir, long max_mb, FILE *log);

/** Write one pair (both views as dequeued: still borrowed). Stops itself on any failure. */
void jd_recorder_pair(struct jd_recorder *r, const struct jd_cam_frame *left,
		      const struct jd_cam_frame *right);

#endif
