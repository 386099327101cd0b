/*
 * A camera: a const table of operations (the driver) and the state it works on. Drivers are
 * chosen at run time: v4l2 (hal/camera/camera_v4l2.c), synth (hal/camera/camera_synth.c, the
 * embedded default) and files (hal/camera/camera_files.c). Callers go through the jd_cam_*
 * wrappers, which answer -ENOSYS for an operation a driver lacks.
 *
 * Life cycle: open -> configure -> start -> (dequeue -> ... -> requeue)* -> stop -> close.
 * A dequeued frame borrows the driver's buffer: it stays valid, and the driver does not
 * refill it, until the caller requeues it.
 * Memory: a driver's buffers are taken at boot (jd_cam_*_mem_required, then the arena); no
 * operation after start allocates.
 */
#ifndef JD_HAL_CAMERA_H
#define JD_HAL_CAMERA_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "../../algo/jd_image.h"
#include "pixfmt.h"

/*
 * Camera controls (V4L2), applied to both cameras at configure and read back; a control not in
 * `set` is left as the driver has it. follow: the left camera runs auto exposure, and its
 * exposure and gain are copied to the right one every JD_CAM_FOLLOW_PAIRS pairs.
 */
enum jd_cam_control {
	JD_CTL_EXPOSURE,      /* exposure time, microseconds */
	JD_CTL_GAIN,	      /* the driver's gain units */
	JD_CTL_AUTO_EXPOSURE, /* 1 on, 0 off */
	JD_CTL_AUTO_WB,	      /* automatic white balance: 1 on, 0 off */
	JD_CTL_COUNT
};
#define JD_CAM_FOLLOW_PAIRS 8

struct jd_cam_controls {
	unsigned set; /* 1 << enum jd_cam_control for each value given (read back: each present) */
	int value[JD_CTL_COUNT];
	int follow;
};

/** "exposure_us", "gain", "auto_exposure", "auto_white_balance". */
const char *jd_cam_control_name(enum jd_cam_control k);

struct jd_cam_config {
	int width, height;
	double fps;		    /* wanted rate; 0: as fast as the source gives */
	enum jd_pixfmt fmt;	    /* wanted format */
	int buffers;		    /* driver buffers (v4l2 mmap count) */
	int timeout_ms;		    /* dequeue waits this long before reporting a timeout */
	struct jd_cam_controls ctl; /* wanted; none set: the driver's own */
};

struct jd_cam_frame {
	const uint8_t *data;
	size_t bytes; /* bytes used (MJPEG: the compressed size) */
	int width, height, stride;
	enum jd_pixfmt fmt;
	uint64_t ts_ns; /* CLOCK_MONOTONIC, start of exposure where the driver offers it */
	uint32_t seq;	/* the driver's frame sequence number */
	int index;	/* the driver's buffer, for requeue */
};

struct jd_cam_stats {
	unsigned long frames;	    /* handed to the caller */
	unsigned long drop_flagged; /* V4L2_BUF_FLAG_ERROR or short bytesused */
	unsigned long drop_corrupt; /* undecodable data (JPEG) */
	unsigned long timeouts;
	unsigned long reopens; /* successful recoveries */
	double fps;	       /* measured: frames over the last full second */
	const char *clock;     /* what the driver says its timestamps are (NULL: not said) */
	uint64_t fps_t0;       /* internal: start of the current second */
	unsigned long fps_n;   /* internal: frames in it */
};

struct jd_camera;

struct jd_camera_ops {
	const char *name;
	int (*open)(struct jd_camera *c);
	/* Ask for want, read back what the driver grants into c->cfg (and say so in c->err). */
	int (*configure)(struct jd_camera *c, const struct jd_cam_config *want);
	int (*start)(struct jd_camera *c);
	/*
	 * The one set of codes every driver returns, the only signal (c->err says why):
	 * @retval 0            a frame
	 * @retval -EINPROGRESS a paced camera's next frame is not due yet: call again
	 * @retval -ENODATA     the files camera has played everything: the stream ends
	 * @retval -EBADMSG     this frame is dropped, the stream goes on
	 * @retval -EBUSY       every buffer is borrowed: requeue first, the stream goes on
	 * @retval -ETIMEDOUT   no frame in cfg.timeout_ms, counted in stats.timeouts: reopen
	 * @retval -ENODEV, -EIO the camera is gone, or its stream failed: stop, close, reopen
	 */
	int (*dequeue)(struct jd_camera *c, struct jd_cam_frame *f);
	int (*requeue)(struct jd_camera *c, const struct jd_cam_frame *f);
	int (*stop)(struct jd_camera *c);
	void (*close)(struct jd_camera *c);
	/*
	 * Optional: the true left-view disparity of a dequeued frame, a view valid until it is
	 * requeued (a source that knows its scene: the synthetic camera).
	 */
	int (*truth)(const struct jd_camera *c, const struct jd_cam_frame *f, struct jd_disp *out);
	/* Optional: read (set 0) or write (set 1) one control. @retval 0, -ENOTSUP, -EIO */
	int (*control)(struct jd_camera *c, enum jd_cam_control k, int *value, int set);
};

struct jd_camera {
	const struct jd_camera_ops *ops;
	char label[16];		    /* "left", "right" */
	char device[256];	    /* what the driver opens: /dev/video0, a directory, "synth" */
	void *priv;		    /* the driver's state, carved at boot */
	struct jd_cam_config cfg;   /* what the driver granted */
	struct jd_cam_controls got; /* the controls as read back at configure (set: present) */
	struct jd_cam_stats stats;
	char err[256]; /* the last error, naming the device */
};

/* Set c->err; returns rc so drivers can `return jd_cam_fail(...)`. */
int jd_cam_fail(struct jd_camera *c, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Add a note (no error: what the driver granted instead) to c->err, after any before. */
void jd_cam_note(struct jd_camera *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Count a frame handed out and update the measured rate (drivers call it in dequeue). */
void jd_cam_count_frame(struct jd_camera *c, uint64_t ts_ns);

static inline int jd_cam_open(struct jd_camera *c)
{
	return c->ops && c->ops->open ? c->ops->open(c) : -ENOSYS;
}
static inline int jd_cam_configure(struct jd_camera *c, const struct jd_cam_config *want)
{
	return c->ops && c->ops->configure ? c->ops->configure(c, want) : -ENOSYS;
}
static inline int jd_cam_start(struct jd_camera *c)
{
	return c->ops && c->ops->start ? c->ops->start(c) : -ENOSYS;
}
static inline int jd_cam_dequeue(struct jd_camera *c, struct jd_cam_frame *f)
{
	return c->ops && c->ops->dequeue ? c->ops->dequeue(c, f) : -ENOSYS;
}
static inline int jd_cam_requeue(struct jd_camera *c, const struct jd_cam_frame *f)
{
	return c->ops && c->ops->requeue ? c->ops->requeue(c, f) : -ENOSYS;
}
static inline int jd_cam_stop(struct jd_camera *c)
{
	return c->ops && c->ops->stop ? c->ops->stop(c) : -ENOSYS;
}
static inline void jd_cam_close(struct jd_camera *c)
{
	if (c->ops && c->ops->close) {
		c->ops->close(c);
	}
}

/** The frame's true disparity, where the camera knows it. @retval 0 or -ENOSYS */
static inline int jd_cam_truth(const struct jd_camera *c, const struct jd_cam_frame *f,
			       struct jd_disp *out)
{
	return c->ops && c->ops->truth ? c->ops->truth(c, f, out) : -ENOSYS;
}
static inline int jd_cam_control(struct jd_camera *c, enum jd_cam_control k, int *value, int set)
{
	return c->ops && c->ops->control ? c->ops->control(c, k, value, set) : -ENOSYS;
}

#endif
