/*
 * The V4L2 camera driver (memory-mapped streaming, as the kernel's capture.c example):
 * capability check, format negotiation with read-back (the wanted format, else YUYV, UYVY,
 * GREY, MJPEG, then deep mono and raw Bayer, whichever the device offers first in that
 * order), frame rate by S_PARM read
 * back with G_PARM, REQBUFS/QUERYBUF/mmap at configure, poll with a timeout, DQBUF/QBUF
 * retried on EINTR, bytesused and index checked, error-flagged frames dropped and counted,
 * CLOCK_MONOTONIC timestamps (start of exposure when the driver says so).
 * Errors, as hal/camera/camera.h's codes: a lost device (POLLHUP/POLLERR, ENODEV: -ENODEV), a fatal
 * streaming error (-EIO) and a frame timeout (-ETIMEDOUT) end the stream: the caller stops,
 * closes and reopens. A bad frame is -EBADMSG: dropped, the stream goes on.
 * The state lives in boot memory; mmap'd buffers are the kernel's, remapped on reopen.
 */
#ifndef JD_HAL_CAMERA_V4L2_H
#define JD_HAL_CAMERA_V4L2_H

#include "camera.h"
#include "v4l2_sys.h"

#define JD_V4L2_MAX_BUFFERS 16

extern const struct jd_camera_ops jd_camera_v4l2_ops;

/** Boot memory for one camera's state. */
size_t jd_cam_v4l2_mem_required(void);

/* Which devices a V4L2 pair is, and through what. */
struct jd_cam_v4l2_config {
	char device[2][256];	       /* the left and right nodes (with one: device[0] alone) */
	int one;		       /* one device with both views: cam[0] alone */
	const struct jd_v4l2_sys *sys; /* the system calls (NULL: the real ones; tests fake) */
};

/**
 * Set up cam[0] (left) and cam[1] (right), or cam[0] alone with one, in mem
 * (jd_cam_v4l2_mem_required() a camera) at boot; nothing is opened yet.
 * @retval 0 or -ENOMEM (mem too small, err set)
 */
int jd_cam_v4l2_init(struct jd_camera cam[2], void *mem, size_t bytes,
		     const struct jd_cam_v4l2_config *cfg, char *err, size_t errlen);

/** The open device's file descriptor (-1 when closed): for tests and poll loops. */
int jd_cam_v4l2_fd(const struct jd_camera *cam);

#endif
