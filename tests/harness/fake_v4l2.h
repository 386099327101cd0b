/*
 * A fake V4L2 kernel for the driver's unit tests: devices with a format list, a size limit
 * and a rate limit, mmap buffers, a FIFO of queued buffers, and faults to inject (unplug,
 * EIO, error-flagged and short frames, timeouts, EINTR). It counts open descriptors and
 * mappings so that tests can assert nothing leaks across a reconnect.
 */
#ifndef JD_TESTS_FAKE_V4L2_H
#define JD_TESTS_FAKE_V4L2_H

#include <linux/videodev2.h>
#include <stdint.h>

#include "v4l2_sys.h"

#define FAKE_MAX_BUFS 8
#define FAKE_BUF_BYTES (640 * 480 * 2)

struct fake_dev {
	const char *path;
	int present; /* 0: unplugged (open fails with ENOENT) */
	int capture; /* advertises video capture + streaming */
	uint32_t formats[8];
	int nformats;
	int max_w, max_h;
	double max_fps;
	/* state */
	int open, streaming, w, h, nbuf, fps_num, fps_den;
	uint32_t fourcc, seq;
	uint64_t ts_ns;
	int fifo[FAKE_MAX_BUFS], nq;
	uint8_t mem[FAKE_MAX_BUFS][FAKE_BUF_BYTES];
	/* controls: exposure (100 us units), gain, exposure mode, auto white balance */
	int has_ctl[4], ctl[4], ctl_min[4], ctl_max[4];
	/* faults, each for the next call of its kind */
	int hup, eio, flag_error, short_frame, timeout, eintr;
};

extern struct fake_dev fake_devs[2];
extern int fake_open_fds, fake_mappings;
extern const struct jd_v4l2_sys fake_v4l2_sys;

/*
 * Called at the end of every successful VIDIOC_DQBUF (NULL: none) to rewrite what the
 * "kernel" hands back: the buffer's fields and its FAKE_BUF_BYTES of memory (fuzzing).
 */
extern void (*fake_dqbuf_hook)(struct fake_dev *d, struct v4l2_buffer *b, uint8_t *mem);

/** Reset both devices: present, capture, YUYV + GREY + MJPEG, up to 640x480 at 30 fps. */
void fake_v4l2_reset(void);

#endif
