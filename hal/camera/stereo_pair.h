/*
 * Pairing left and right frames by timestamp. Two free-running cameras are not
 * synchronised: a pair is two frames whose timestamps differ by at most the tolerance
 * (half a frame period by default). When they drift apart the older frame is dropped and
 * counted, and the newer waits for its partner. Pure logic, no I/O: the caller dequeues,
 * offers each frame here, requeues what this hands back, and takes ready pairs.
 */
#ifndef JD_HAL_STEREO_PAIR_H
#define JD_HAL_STEREO_PAIR_H

#include "camera.h"

struct jd_pairer {
	uint64_t tol_ns;
	int held[2];
	struct jd_cam_frame frame[2];
	unsigned long pairs, drops[2];
	int released; /* the side of the last frame handed back by jd_pair_offer() */
};

enum { JD_PAIR_READY = 1, JD_PAIR_RELEASE = 2 };

/** Tolerance: half the period at fps (fps <= 0: 20 ms). */
void jd_pair_init(struct jd_pairer *p, double fps);

/**
 * Offer a new frame of the side jd_pair_wants() names (0 left, 1 right).
 * @retval -EINVAL that side already holds a frame
 * @return otherwise a mask: JD_PAIR_RELEASE when *release holds a frame the caller must requeue
 *         (dropped: too old to pair), JD_PAIR_READY when a pair waits in jd_pair_take()
 */
int jd_pair_offer(struct jd_pairer *p, int side, const struct jd_cam_frame *f,
		  struct jd_cam_frame *release);

/** The side to dequeue from next: the one with no frame held (left when neither). */
int jd_pair_wants(const struct jd_pairer *p);

/** Take the ready pair (the caller requeues both when done with them). */
void jd_pair_take(struct jd_pairer *p, struct jd_cam_frame *left, struct jd_cam_frame *right);

/** Hand back whatever is held (at stop or before a camera is reopened): mask of sides. */
int jd_pair_flush(struct jd_pairer *p, struct jd_cam_frame out[2]);

#endif
