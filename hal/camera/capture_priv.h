/* Between the capture stage's files (hal/camera/capture.c, capture_split.c, capture_skew.c). */
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

/* Count a dropped frame and keep why (c->err) as the last drop's reason. @return -EBADMSG */
int jd__capture_dropped(struct jd_capture *c, unsigned long *counter);

/* One view to luma in out, or with raw, as it came into raw. -EBADMSG: dropped (counted). */
int jd__capture_take_view(struct jd_capture *c, int side, const struct jd_cam_frame *f,
			  struct jd_image *out, struct jd_capture_raw *raw);

/* A frame back to its camera (a refused requeue remembered for the next call). */
void jd__capture_give_back(struct jd_capture *c, int side, const struct jd_cam_frame *f);

/* A source's frame size: a view's, or with split, the frame holding both views. */
void jd__capture_whole_size(const struct jd_capture_config *cfg, int *w, int *h);

/* The next pair of a split source (jd_capture_next()'s return values). */
int jd__capture_next_split(struct jd_capture *c, struct jd_image *left, struct jd_image *right,
			   struct jd_capture_raw *raw);

#endif
