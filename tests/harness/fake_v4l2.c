#include "fake_v4l2.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/videodev2.h>
#include <string.h>
#include <sys/mman.h>

struct fake_dev fake_devs[2];
int fake_open_fds, fake_mappings;
void (*fake_dqbuf_hook)(struct fake_dev *d, struct v4l2_buffer *b, uint8_t *mem);

enum { FD_BASE = 100 };

void fake_v4l2_reset(void)
{
	static const char *const paths[2] = {"/dev/fake0", "/dev/fake1"};

	for (int i = 0; i < 2; i++) {
		struct fake_dev *d = &fake_devs[i];

		/* every field but the frame memory (10 MB: the fuzzer resets once an input) */
		memset(d, 0, offsetof(struct fake_dev, mem));
		d->hup = d->eio = d->flag_error = d->short_frame = d->timeout = d->eintr = 0;

		d->path = paths[i];
		d->present = d->capture = 1;
		d->formats[0] = V4L2_PIX_FMT_YUYV;
		d->formats[1] = V4L2_PIX_FMT_GREY;
		d->formats[2] = V4L2_PIX_FMT_MJPEG;
		d->nformats = 3;
		d->max_w = 640;
		d->max_h = 480;
		d->max_fps = 30;
		/* a UVC camera's: exposure 1..5000 (0.1 ms), gain 0..255, aperture priority, AWB on
		 */
		static const int lo[4] = {1, 0, 1, 0}, hi[4] = {5000, 255, 3, 1},
				 def[4] = {166, 64, 3, 1};
		for (int k = 0; k < 4; k++) {
			d->has_ctl[k] = 1;
			d->ctl[k] = def[k];
			d->ctl_min[k] = lo[k];
			d->ctl_max[k] = hi[k];
		}
	}
	fake_open_fds = fake_mappings = 0;
}

static struct fake_dev *dev_of(int fd)
{
	int i = fd - FD_BASE;

	return i >= 0 && i < 2 && fake_devs[i].open ? &fake_devs[i] : NULL;
}

static int fake_open(const char *path, int flags)
{
	(void)flags;
	for (int i = 0; i < 2; i++) {
		struct fake_dev *d = &fake_devs[i];

		if (strcmp(path, d->path) == 0) {
			if (!d->present) {
				errno = ENOENT;
				return -1;
			}
			d->open = 1;
			d->hup = 0;
			fake_open_fds++;
			return FD_BASE + i;
		}
	}
	errno = ENOENT;
	return -1;
}

static int fake_close(int fd)
{
	struct fake_dev *d = dev_of(fd);

	if (!d) {
		errno = EBADF;
		return -1;
	}
	d->open = d->streaming = d->nq = d->nbuf = 0;
	fake_open_fds--;
	return 0;
}

static int fail(int e)
{
	errno = e;
	return -1;
}

static size_t frame_bytes(const struct fake_dev *d)
{
	int one = d->fourcc == V4L2_PIX_FMT_GREY || d->fourcc == V4L2_PIX_FMT_SRGGB8 ||
		  d->fourcc == V4L2_PIX_FMT_SBGGR8 || d->fourcc == V4L2_PIX_FMT_SGBRG8 ||
		  d->fourcc == V4L2_PIX_FMT_SGRBG8;

	return (size_t)d->w * d->h * (one ? 1 : 2);
}

static const uint32_t fake_cids[4] = {V4L2_CID_EXPOSURE_ABSOLUTE, V4L2_CID_GAIN,
				      V4L2_CID_EXPOSURE_AUTO, V4L2_CID_AUTO_WHITE_BALANCE};
static const char *const fake_ctl_names[4] = {"Exposure Time, Absolute", "Gain", "Auto Exposure",
					      "White Balance, Automatic"};

/* The control with this id (next: the first present after it, by id order), or -1. */
static int ctl_index(const struct fake_dev *d, uint32_t id, int next)
{
	int best = -1;

	for (int k = 0; k < 4; k++) {
		if (!d->has_ctl[k]) {
			continue;
		}
		if (!next && fake_cids[k] == id) {
			return k;
		}
		if (next && fake_cids[k] > id && (best < 0 || fake_cids[k] < fake_cids[best])) {
			best = k;
		}
	}
	return next ? best : -1;
}

static int fake_ioctl(int fd, unsigned long req, void *arg)
{
	struct fake_dev *d = dev_of(fd);

	if (!d) {
		return fail(EBADF);
	}
	if (d->hup && req != VIDIOC_STREAMOFF) {
		return fail(ENODEV); /* vivid after Disconnect: every call fails */
	}
	switch (req) {
	case VIDIOC_QUERYCTRL: {
		struct v4l2_queryctrl *q = arg;
		int k = ctl_index(d, q->id & ~V4L2_CTRL_FLAG_NEXT_CTRL,
				  (q->id & V4L2_CTRL_FLAG_NEXT_CTRL) != 0);
		if (k < 0) {
			return fail(EINVAL);
		}
		memset(q, 0, sizeof(*q));
		q->id = fake_cids[k];
		q->type = k >= 2 ? (k == 2 ? V4L2_CTRL_TYPE_MENU : V4L2_CTRL_TYPE_BOOLEAN)
				 : V4L2_CTRL_TYPE_INTEGER;
		snprintf((char *)q->name, sizeof(q->name), "%s", fake_ctl_names[k]);
		q->minimum = d->ctl_min[k];
		q->maximum = d->ctl_max[k];
		q->step = 1;
		return 0;
	}
	case VIDIOC_G_CTRL:
	case VIDIOC_S_CTRL: {
		struct v4l2_control *c = arg;
		int k = ctl_index(d, c->id, 0);
		if (k < 0) {
			return fail(EINVAL);
		}
		if (req == VIDIOC_G_CTRL) {
			c->value = d->ctl[k];
			return 0;
		}
		if (c->value < d->ctl_min[k] || c->value > d->ctl_max[k] ||
		    (k == 2 && c->value != 1 && c->value != 3)) {
			return fail(k == 2 ? EINVAL : ERANGE);
		}
		d->ctl[k] = c->value;
		return 0;
	}
	case VIDIOC_QUERYCAP: {
		struct v4l2_capability *c = arg;
		memset(c, 0, sizeof(*c));
		strcpy((char *)c->driver, "fake");
		strcpy((char *)c->card, "Fake camera");
		c->capabilities =
		    V4L2_CAP_DEVICE_CAPS | V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
		c->device_caps = d->capture ? V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING
					    : V4L2_CAP_VIDEO_OUTPUT;
		return 0;
	}
	case VIDIOC_ENUM_FMT: {
		struct v4l2_fmtdesc *f = arg;
		if (f->index >= (uint32_t)d->nformats) {
			return fail(EINVAL);
		}
		f->pixelformat = d->formats[f->index];
		return 0;
	}
	case VIDIOC_S_FMT: {
		struct v4l2_pix_format *p = &((struct v4l2_format *)arg)->fmt.pix;
		int ok = 0;
		for (int i = 0; i < d->nformats; i++) {
			ok |= d->formats[i] == p->pixelformat;
		}
		p->pixelformat = ok ? p->pixelformat : d->formats[0];
		p->width = p->width > (uint32_t)d->max_w ? (uint32_t)d->max_w : p->width;
		p->height = p->height > (uint32_t)d->max_h ? (uint32_t)d->max_h : p->height;
		d->w = (int)p->width;
		d->h = (int)p->height;
		d->fourcc = p->pixelformat;
		p->bytesperline =
		    d->fourcc == V4L2_PIX_FMT_MJPEG ? 0 : (uint32_t)(frame_bytes(d) / d->h);
		p->sizeimage = (uint32_t)frame_bytes(d);
		return 0;
	}
	case VIDIOC_S_PARM: {
		struct v4l2_fract *t = &((struct v4l2_streamparm *)arg)->parm.capture.timeperframe;
		double fps = (double)t->denominator / t->numerator;
		d->fps_num = 1000;
		d->fps_den = (int)((fps > d->max_fps ? d->max_fps : fps) * 1000);
		return 0;
	}
	case VIDIOC_G_PARM: {
		struct v4l2_fract *t = &((struct v4l2_streamparm *)arg)->parm.capture.timeperframe;
		t->numerator = (uint32_t)d->fps_num;
		t->denominator = (uint32_t)d->fps_den;
		return 0;
	}
	case VIDIOC_REQBUFS: {
		struct v4l2_requestbuffers *r = arg;
		r->count = r->count > FAKE_MAX_BUFS ? FAKE_MAX_BUFS : r->count;
		d->nbuf = (int)r->count;
		return 0;
	}
	case VIDIOC_QUERYBUF: {
		struct v4l2_buffer *b = arg;
		if (b->index >= (uint32_t)d->nbuf) {
			return fail(EINVAL);
		}
		b->length = FAKE_BUF_BYTES;
		b->m.offset = b->index * FAKE_BUF_BYTES;
		return 0;
	}
	case VIDIOC_QBUF: {
		struct v4l2_buffer *b = arg;
		for (int i = 0; i < d->nq; i++) {
			if (d->fifo[i] == (int)b->index) {
				return fail(EINVAL); /* queued twice */
			}
		}
		if (b->index >= (uint32_t)d->nbuf || d->nq == FAKE_MAX_BUFS) {
			return fail(EINVAL);
		}
		d->fifo[d->nq++] = (int)b->index;
		return 0;
	}
	case VIDIOC_DQBUF: {
		struct v4l2_buffer *b = arg;
		if (d->eintr) {
			d->eintr = 0;
			return fail(EINTR);
		}
		if (d->eio) {
			d->eio = 0;
			return fail(EIO);
		}
		if (!d->streaming || d->nq == 0) {
			return fail(EAGAIN);
		}
		int idx = d->fifo[0];
		memmove(d->fifo, d->fifo + 1, sizeof(int) * (size_t)--d->nq);
		d->ts_ns += 40000000ull; /* 25 fps, both devices on one clock */
		b->index = (uint32_t)idx;
		b->sequence = d->seq++;
		b->timestamp.tv_sec = (time_t)(d->ts_ns / 1000000000ull);
		b->timestamp.tv_usec = (suseconds_t)(d->ts_ns % 1000000000ull / 1000);
		b->flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
		b->bytesused = (uint32_t)frame_bytes(d);
		/* luma 0..: the frame's sequence, so tests can tell frames apart */
		size_t nbytes = frame_bytes(d);
		if (fake_dqbuf_hook) {
			memset(d->mem[idx], (int)(b->sequence & 0xff),
			       nbytes); /* the hook writes it */
		} else {
			for (size_t i = 0; i < nbytes; i++) {
				d->mem[idx][i] = d->fourcc == V4L2_PIX_FMT_YUYV && (i & 1)
						     ? 128
						     : (uint8_t)(b->sequence + i);
			}
		}
		if (d->flag_error) {
			d->flag_error = 0;
			b->flags |= V4L2_BUF_FLAG_ERROR;
		}
		if (d->short_frame) {
			d->short_frame = 0;
			b->bytesused /= 2;
		}
		if (fake_dqbuf_hook) {
			fake_dqbuf_hook(d, b, d->mem[idx]);
		}
		return 0;
	}
	case VIDIOC_ENUM_FRAMESIZES: {
		struct v4l2_frmsizeenum *fs = arg;
		if (fs->index > 1) {
			return fail(EINVAL);
		}
		fs->type = V4L2_FRMSIZE_TYPE_DISCRETE;
		fs->discrete.width = (uint32_t)(d->max_w >> fs->index);
		fs->discrete.height = (uint32_t)(d->max_h >> fs->index);
		return 0;
	}
	case VIDIOC_ENUM_FRAMEINTERVALS: {
		struct v4l2_frmivalenum *iv = arg;
		if (iv->index > 1) {
			return fail(EINVAL);
		}
		iv->type = V4L2_FRMIVAL_TYPE_DISCRETE;
		iv->discrete.numerator = 1;
		iv->discrete.denominator = iv->index ? 15 : 30;
		return 0;
	}
	case VIDIOC_STREAMON:
		d->streaming = 1;
		return 0;
	case VIDIOC_STREAMOFF:
		d->streaming = 0;
		d->nq = 0;
		return d->hup ? fail(ENODEV) : 0;
	}
	return fail(ENOTTY);
}

static int fake_poll(struct pollfd *fds, nfds_t n, int timeout_ms)
{
	struct fake_dev *d = dev_of(fds[0].fd);

	(void)n;
	(void)timeout_ms;
	fds[0].revents = 0;
	if (!d) {
		fds[0].revents = POLLNVAL;
		return 1;
	}
	if (d->hup) {
		fds[0].revents = POLLERR | POLLHUP;
		return 1;
	}
	if (d->timeout || !d->streaming || d->nq == 0) {
		d->timeout = 0;
		return 0;
	}
	fds[0].revents = POLLIN;
	return 1;
}

static void *fake_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	struct fake_dev *d = dev_of(fd);

	(void)addr;
	(void)prot;
	(void)flags;
	if (!d || len != FAKE_BUF_BYTES || off % FAKE_BUF_BYTES ||
	    off / FAKE_BUF_BYTES >= d->nbuf) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	fake_mappings++;
	return d->mem[off / FAKE_BUF_BYTES];
}

static int fake_munmap(void *addr, size_t len)
{
	(void)addr;
	(void)len;
	fake_mappings--;
	return 0;
}

const struct jd_v4l2_sys fake_v4l2_sys = {
    .open = fake_open,
    .close = fake_close,
    .ioctl = fake_ioctl,
    .poll = fake_poll,
    .mmap = fake_mmap,
    .munmap = fake_munmap,
};
