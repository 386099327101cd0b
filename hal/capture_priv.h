/* Between the capture stage's files (hal/capture.c, hal/capture_skew.c). */
#ifndef JD_HAL_CAPTURE_PRIV_H
#define JD_HAL_CAPTURE_PRIV_H

#include "capture.h"

/* A pair of two devices came: its skew into the ring, and the first says the cameras' clock. */
void jd__capture_note_pair(struct jd_capture *c, const struct jd_cam_frame *l,
			   const struct jd_cam_frame *r);

/*
 * Follow mode: the left camera's exposure and gain, as its auto exposure set them, onto the
 * right one (a control either lacks is skipped; a failure counted in c->follow_failed).
 */
void jd__capture_follow(struct jd_capture *c);

#endif
