#include "camera_v4l2.h"

#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../../algo/jd_status.h"

struct buffer {
	void *start;
	size_t length;
	int queued; /* with the driver (1) or borrowed by the caller (0) */
};

struct state {
	const struct jd_v4l2_sys *sys;
	int fd, nbuf, streaming;
	uint32_t fourcc, bytesperline, sizeimage;
	struct buffer buf[JD_V4L2_MAX_BUFFERS];
};

size_t jd_cam_v4l2_mem_required(void)
{
	return (sizeof(struct state) + 63) / 64 * 64;
}

int jd_cam_v4l2_init(struct jd_camera cam[2], void *mem, size_t bytes,
		     const struct jd_cam_v4l2_config *cfg, char *err, size_t errlen)
{
	const size_t each = jd_cam_v4l2_mem_required();
	const int n = cfg->one ? 1 : 2;

	if (bytes < n * each) {
		snprintf(err, errlen, "v4l2 camera%s: boot memory too small", n > 1 ? "s" : "");
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		struct state *s = (struct state *)((char *)mem + i * each);
		memset(s, 0, sizeof(*s));
		s->sys = cfg->sys ? cfg->sys : &jd_v4l2_sys_libc;
		s->fd = -1;
		memset(&cam[i], 0, sizeof(cam[i]));
		cam[i].ops = &jd_camera_v4l2_ops;
		cam[i].priv = s;
		snprintf(cam[i].label, sizeof(cam[i].label), "%s", i ? "right" : "left");
		snprintf(cam[i].device, sizeof(cam[i].device), "%s", cfg->device[i]);
	}
	return 0;
}

int jd_cam_v4l2_fd(const struct jd_camera *cam)
{
	return ((const struct state *)cam->priv)->fd;
}

/* errno after a failed call as the status to return: a device that is gone is -ENODEV. */
static int io_fail(struct jd_camera *c, const char *what)
{
	int e = errno;
	int gone = e == ENODEV || e == ENXIO || e == EIO || e == ENOENT;

	return jd_cam_fail(c, gone && e != EIO ? -ENODEV : -e, "%s: %s", what, strerror(e));
}

static int v4l2_open(struct jd_camera *c)
{
	struct state *s = c->priv;
	struct v4l2_capability cap;

	s->fd = s->sys->open(c->device, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (s->fd < 0) {
		int e = errno;
		return jd_cam_fail(c, e == ENOENT || e == ENXIO ? -ENODEV : -e, "cannot open: %s",
				   strerror(e));
	}
	memset(&cap, 0, sizeof(cap));
	if (jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_QUERYCAP, &cap) < 0) {
		int rc = io_fail(c, "VIDIOC_QUERYCAP (not a V4L2 device?)");
		s->sys->close(s->fd);
		s->fd = -1;
		return rc;
	}
	uint32_t caps =
	    cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps : cap.capabilities;
	if (!(caps & V4L2_CAP_VIDEO_CAPTURE) || !(caps & V4L2_CAP_STREAMING)) {
		s->sys->close(s->fd);
		s->fd = -1;
		return jd_cam_fail(c, -ENODEV,
				   "%s (%s) is not a streaming capture device (caps 0x%08x)",
				   (const char *)cap.card, (const char *)cap.driver, caps);
	}
	return 0;
}

/* The driver's timestamp kind and source (the buffer flags), in words. */
static const char *clock_of(uint32_t flags)
{
	const int soe = (flags & V4L2_BUF_FLAG_TSTAMP_SRC_MASK) == V4L2_BUF_FLAG_TSTAMP_SRC_SOE;

	switch (flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) {
	case V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC:
		return soe ? "monotonic (CLOCK_MONOTONIC), start of exposure"
			   : "monotonic (CLOCK_MONOTONIC), end of frame";
	case V4L2_BUF_FLAG_TIMESTAMP_COPY:
		return "copied from the output side: not a capture time";
	default:
		return "of an unknown clock: pairing by them may fail";
	}
}

/*
 * The first format the device offers, in order: the wanted one, then YUYV, UYVY, GREY, MJPEG,
 * then the deep mono and raw Bayer ones (the CSI sensors and global-shutter modules that give
 * nothing else), in jd_pixfmt's order.
 */
static int pick_format(struct jd_camera *c, enum jd_pixfmt want, enum jd_pixfmt *out)
{
	struct state *s = c->priv;
	int offered[JD_PIX_COUNT] = {0};
	enum jd_pixfmt order[JD_PIX_COUNT] = {JD_PIX_YUYV, JD_PIX_UYVY, JD_PIX_GREY, JD_PIX_MJPEG};

	for (int f = JD_PIX_MJPEG + 1; f < JD_PIX_COUNT; f++) {
		order[f] = (enum jd_pixfmt)f;
	}

	for (uint32_t i = 0; i < 256; i++) {
		struct v4l2_fmtdesc d = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE};

		if (jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_ENUM_FMT, &d) < 0) {
			break; /* EINVAL: the end of the list */
		}
		enum jd_pixfmt f;
		if (jd_pixfmt_of_fourcc(d.pixelformat, &f) == 0) {
			offered[f] = 1;
		}
	}
	if (offered[want]) {
		*out = want;
		return 0;
	}
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (offered[order[i]]) {
			*out = order[i];
			jd_cam_note(c, "no %s, using %s", jd_pixfmt_name(want),
				    jd_pixfmt_name(*out));
			return 0;
		}
	}
	return jd_cam_fail(c, -EINVAL, "offers none of %s", jd_pixfmt_names());
}

static int set_rate(struct jd_camera *c, double fps)
{
	struct state *s = c->priv;
	struct v4l2_streamparm parm = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};

	if (fps > 0) {
		parm.parm.capture.timeperframe.numerator = 1000;
		parm.parm.capture.timeperframe.denominator = (uint32_t)(fps * 1000.0 + 0.5);
		/* Not every driver sets a rate: the read-back below says what we got. */
		(void)jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_S_PARM, &parm);
	}
	memset(&parm, 0, sizeof(parm));
	parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	c->cfg.fps = 0;
	if (jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_G_PARM, &parm) == 0 &&
	    parm.parm.capture.timeperframe.numerator) {
		c->cfg.fps = (double)parm.parm.capture.timeperframe.denominator /
			     parm.parm.capture.timeperframe.numerator;
	}
	if (fps > 0 && (c->cfg.fps < fps * 0.99 || c->cfg.fps > fps * 1.01)) {
		jd_cam_note(c, "asked %.3g fps, the driver runs %.3g", fps, c->cfg.fps);
	}
	return 0;
}

static int map_buffers(struct jd_camera *c, int count)
{
	struct state *s = c->priv;
	struct v4l2_requestbuffers req = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					  .memory = V4L2_MEMORY_MMAP};

	req.count = (uint32_t)(count < 2		     ? 2
			       : count > JD_V4L2_MAX_BUFFERS ? JD_V4L2_MAX_BUFFERS
							     : count);
	if (jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_REQBUFS, &req) < 0) {
		return io_fail(c, "VIDIOC_REQBUFS");
	}
	if (req.count < 2 || req.count > JD_V4L2_MAX_BUFFERS) {
		return jd_cam_fail(c, -ENOMEM, "VIDIOC_REQBUFS granted %u buffers", req.count);
	}
	for (uint32_t i = 0; i < req.count; i++) {
		struct v4l2_buffer b = {
		    .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP, .index = i};

		if (jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_QUERYBUF, &b) < 0) {
			return io_fail(c, "VIDIOC_QUERYBUF");
		}
		void *p = s->sys->mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
				       (off_t)b.m.offset);
		if (p == MAP_FAILED) {
			return io_fail(c, "mmap");
		}
		s->buf[i] = (struct buffer){p, b.length, 0};
		s->nbuf = (int)i + 1;
	}
	c->cfg.buffers = s->nbuf;
	return 0;
}

/* V4L2's control for each of ours (the exposure time in 100 us units). */
static const uint32_t cids[JD_CTL_COUNT] = {V4L2_CID_EXPOSURE_ABSOLUTE, V4L2_CID_GAIN,
					    V4L2_CID_EXPOSURE_AUTO, V4L2_CID_AUTO_WHITE_BALANCE};

static int v4l2_control(struct jd_camera *c, enum jd_cam_control k, int *value, int set)
{
	struct state *s = c->priv;
	struct v4l2_control ctl = {.id = cids[k]};

	if (!set) {
		if (jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_G_CTRL, &ctl) < 0) {
			return errno == EINVAL ? -ENOTSUP : -EIO;
		}
		*value = k == JD_CTL_EXPOSURE	     ? ctl.value * 100
			 : k == JD_CTL_AUTO_EXPOSURE ? ctl.value != V4L2_EXPOSURE_MANUAL
						     : ctl.value;
		return 0;
	}
	/* auto exposure on: UVC cameras offer aperture priority, others plain auto */
	ctl.value = k == JD_CTL_EXPOSURE ? (*value + 50) / 100
		    : k == JD_CTL_AUTO_EXPOSURE
			? (*value ? V4L2_EXPOSURE_APERTURE_PRIORITY : V4L2_EXPOSURE_MANUAL)
			: *value;
	int rc = jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_S_CTRL, &ctl);
	if (rc < 0 && k == JD_CTL_AUTO_EXPOSURE && *value && errno == EINVAL) {
		ctl.value = V4L2_EXPOSURE_AUTO;
		rc = jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_S_CTRL, &ctl);
	}
	return rc == 0 ? 0 : errno == EINVAL ? -ENOTSUP : errno == ERANGE ? -ERANGE : -EIO;
}

/*
 * The controls asked for, modes before values (a fixed exposure turns auto exposure off unless
 * it was asked for too), then every one read back into c->got. A control asked for that the
 * driver lacks, or refuses, fails configure by name; one not asked for is left alone.
 */
static int apply_controls(struct jd_camera *c, const struct jd_cam_controls *want)
{
	static const enum jd_cam_control order[JD_CTL_COUNT] = {
	    JD_CTL_AUTO_EXPOSURE, JD_CTL_AUTO_WB, JD_CTL_EXPOSURE, JD_CTL_GAIN};
	struct state *s = c->priv;
	struct jd_cam_controls w = *want;
	int implied = (w.set & 1u << JD_CTL_EXPOSURE) && !(w.set & 1u << JD_CTL_AUTO_EXPOSURE);
	char said[320] = "";

	if (implied) {
		w.set |= 1u << JD_CTL_AUTO_EXPOSURE;
		w.value[JD_CTL_AUTO_EXPOSURE] = 0;
	}
	if (w.set & 1u << JD_CTL_GAIN) {
		/* a gain to hold: automatic gain off, where the driver has it (else it wins) */
		struct v4l2_control off = {.id = V4L2_CID_AUTOGAIN, .value = 0};
		(void)jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_S_CTRL, &off);
	}
	for (int i = 0; i < JD_CTL_COUNT; i++) {
		enum jd_cam_control k = order[i];
		int v = w.value[k], rc;
		if (!(w.set & 1u << k) || !(rc = v4l2_control(c, k, &v, 1))) {
			continue;
		}
		if (rc == -ENOTSUP && implied && k == JD_CTL_AUTO_EXPOSURE) {
			continue; /* no auto exposure to turn off: the exposure alone */
		}
		return jd_cam_fail(c, rc == -EIO ? -EIO : -EINVAL, "control %s %d: %s",
				   jd_cam_control_name(k), w.value[k],
				   rc == -ENOTSUP  ? "the driver has no such control"
				   : rc == -ERANGE ? "outside the driver's range (jetdepth cameras)"
						   : "refused");
	}
	c->got = (struct jd_cam_controls){0, {0}, want->follow};
	for (int k = 0; k < JD_CTL_COUNT; k++) {
		int v;
		if (v4l2_control(c, (enum jd_cam_control)k, &v, 0) == 0) {
			c->got.set |= 1u << k;
			c->got.value[k] = v;
			/* the exposure in 100 us steps: asked and read back may differ by a step */
			int off =
			    (w.set & 1u << k) &&
			    (k == JD_CTL_EXPOSURE ? abs(v - w.value[k]) > 50 : v != w.value[k]);
			snprintf(said + strlen(said), sizeof(said) - strlen(said), " %s %d%s",
				 jd_cam_control_name((enum jd_cam_control)k), v,
				 off ? " (not as asked: another control holds it)" : "");
		}
	}
	if (want->set || want->follow) {
		jd_cam_note(c, "controls read back:%s",
			    said[0] ? said : " none (the driver has none)");
	}
	return 0;
}

static int v4l2_configure(struct jd_camera *c, const struct jd_cam_config *want)
{
	struct state *s = c->priv;
	struct v4l2_format fmt = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
	enum jd_pixfmt pf = want->fmt;

	c->err[0] = '\0';
	if ((unsigned)want->fmt >= JD_PIX_COUNT || want->width < 1 || want->height < 1) {
		return jd_cam_fail(c, -EINVAL, "bad request: %dx%d format %d", want->width,
				   want->height, (int)want->fmt);
	}
	JD_TRY(pick_format(c, want->fmt, &pf));
	fmt.fmt.pix.width = (uint32_t)want->width;
	fmt.fmt.pix.height = (uint32_t)want->height;
	fmt.fmt.pix.pixelformat = jd_pixfmt_fourcc(pf);
	fmt.fmt.pix.field = V4L2_FIELD_NONE;
	if (jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_S_FMT, &fmt) < 0) {
		return io_fail(c, "VIDIOC_S_FMT");
	}
	/* What the driver granted is what we get: read it back, never assume. */
	if ((int)fmt.fmt.pix.width != want->width || (int)fmt.fmt.pix.height != want->height ||
	    fmt.fmt.pix.pixelformat != jd_pixfmt_fourcc(pf)) {
		return jd_cam_fail(c, -EINVAL,
				   "asked %dx%d %s, the driver grants %ux%u %.4s: run with --size "
				   "%ux%u",
				   want->width, want->height, jd_pixfmt_name(pf), fmt.fmt.pix.width,
				   fmt.fmt.pix.height, (const char *)&fmt.fmt.pix.pixelformat,
				   fmt.fmt.pix.width, fmt.fmt.pix.height);
	}
	s->fourcc = fmt.fmt.pix.pixelformat;
	s->bytesperline = fmt.fmt.pix.bytesperline;
	s->sizeimage = fmt.fmt.pix.sizeimage;
	if (pf != JD_PIX_MJPEG && s->bytesperline == 0) {
		s->bytesperline = (uint32_t)(want->width * jd_pixfmt_pixel_bytes(pf));
	}
	c->cfg = *want;
	c->cfg.fmt = pf;
	JD_TRY(set_rate(c, want->fps));
	JD_TRY(apply_controls(c, &want->ctl));
	return map_buffers(c, want->buffers);
}

static int queue(struct jd_camera *c, int index)
{
	struct state *s = c->priv;
	struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				.memory = V4L2_MEMORY_MMAP,
				.index = (uint32_t)index};

	if (jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_QBUF, &b) < 0) {
		return io_fail(c, "VIDIOC_QBUF");
	}
	s->buf[index].queued = 1;
	return 0;
}

static int v4l2_start(struct jd_camera *c)
{
	struct state *s = c->priv;
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	for (int i = 0; i < s->nbuf; i++) {
		JD_TRY(queue(c, i));
	}
	if (jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_STREAMON, &type) < 0) {
		return io_fail(c, "VIDIOC_STREAMON");
	}
	s->streaming = 1;
	return 0;
}

static int v4l2_dequeue(struct jd_camera *c, struct jd_cam_frame *f)
{
	struct state *s = c->priv;
	struct pollfd p = {.fd = s->fd, .events = POLLIN};
	struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
	int r;

	if (!s->streaming) {
		return jd_cam_fail(c, -EINVAL, "dequeue while not streaming");
	}
	for (;;) {
		do {
			r = s->sys->poll(&p, 1, c->cfg.timeout_ms);
		} while (r < 0 && errno == EINTR);
		if (r < 0) {
			return io_fail(c, "poll");
		}
		if (r == 0) {
			c->stats.timeouts++;
			return jd_cam_fail(c, -ETIMEDOUT, "no frame in %d ms", c->cfg.timeout_ms);
		}
		if (p.revents & (POLLHUP | POLLNVAL)) {
			return jd_cam_fail(c, -ENODEV, "device gone (unplugged? poll revents 0x%x)",
					   p.revents);
		}
		if (p.revents & POLLERR && !(p.revents & POLLIN)) {
			return jd_cam_fail(c, -EIO, "fatal streaming error (poll revents 0x%x)",
					   p.revents);
		}
		if (jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_DQBUF, &b) == 0) {
			break;
		}
		if (errno != EAGAIN) {
			return io_fail(c, "VIDIOC_DQBUF");
		}
	}
	if (b.index >= (uint32_t)s->nbuf) {
		return jd_cam_fail(c, -EIO, "VIDIOC_DQBUF gave buffer %u of %d", b.index, s->nbuf);
	}
	s->buf[b.index].queued = 0;
	size_t need = s->fourcc == V4L2_PIX_FMT_MJPEG ? 1 : (size_t)s->bytesperline * c->cfg.height;
	if (b.flags & V4L2_BUF_FLAG_ERROR || b.bytesused < need ||
	    b.bytesused > s->buf[b.index].length) {
		int flagged = (b.flags & V4L2_BUF_FLAG_ERROR) != 0;
		c->stats.drop_flagged++;
		/* the frame is lost, its buffer goes straight back */
		JD_TRY(queue(c, (int)b.index));
		return jd_cam_fail(c, -EBADMSG, "frame %u dropped: %s", b.sequence,
				   flagged ? "the driver flagged an error" : "short or oversized");
	}
	*f = (struct jd_cam_frame){s->buf[b.index].start,
				   b.bytesused,
				   c->cfg.width,
				   c->cfg.height,
				   (int)s->bytesperline,
				   c->cfg.fmt,
				   (uint64_t)b.timestamp.tv_sec * 1000000000ull +
				       (uint64_t)b.timestamp.tv_usec * 1000ull,
				   b.sequence,
				   (int)b.index};
	jd_cam_count_frame(c, f->ts_ns);
	c->stats.clock = clock_of(b.flags);
	return 0;
}

static int v4l2_requeue(struct jd_camera *c, const struct jd_cam_frame *f)
{
	struct state *s = c->priv;

	if (f->index < 0 || f->index >= s->nbuf || s->buf[f->index].queued) {
		return jd_cam_fail(c, -EINVAL, "requeue of buffer %d, not borrowed", f->index);
	}
	return queue(c, f->index);
}

static int v4l2_stop(struct jd_camera *c)
{
	struct state *s = c->priv;
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	if (!s->streaming) {
		return 0;
	}
	s->streaming = 0;
	/* On a vanished device this fails; the buffers are released by close either way. */
	if (jd_v4l2_xioctl(s->sys, s->fd, VIDIOC_STREAMOFF, &type) < 0) {
		return io_fail(c, "VIDIOC_STREAMOFF");
	}
	return 0;
}

static void v4l2_close(struct jd_camera *c)
{
	struct state *s = c->priv;

	for (int i = 0; i < s->nbuf; i++) {
		s->sys->munmap(s->buf[i].start, s->buf[i].length);
	}
	s->nbuf = 0;
	if (s->fd >= 0) {
		s->sys->close(s->fd);
		s->fd = -1;
	}
	s->streaming = 0;
}

const struct jd_camera_ops jd_camera_v4l2_ops = {
    .name = "v4l2",
    .open = v4l2_open,
    .configure = v4l2_configure,
    .start = v4l2_start,
    .dequeue = v4l2_dequeue,
    .requeue = v4l2_requeue,
    .stop = v4l2_stop,
    .close = v4l2_close,
    .control = v4l2_control,
};
