/*
 * What a V4L2 camera hands back, end to end through the capture path (hal/camera/camera_v4l2.c's
 * buffer checks, the pairing, YUYV/GREY conversion or the MJPEG decode) against the fake
 * kernel of the unit tests, whose dequeued buffers the input rewrites. Byte 0 picks the
 * pixel format; then per dequeue a 12-byte record: buffer index (raw, may be out of range),
 * flags, bytesused, sequence and timestamp steps, and a payload length for the frame's
 * memory. A lost camera is recovered as the daemon does.
 */
#include <errno.h>

#include "capture.h"
#include "fake_v4l2.h"
#include "fuzz.h"

enum { W = 64, H = 48 };

static const uint8_t *in;
static size_t left;

static uint32_t take(int n)
{
	uint32_t v = 0;

	for (int i = 0; i < n && left; i++, left--) {
		v |= (uint32_t)*in++ << (8 * i);
	}
	return v;
}

static void rewrite(struct fake_dev *d, struct v4l2_buffer *b, uint8_t *mem)
{
	(void)d;
	if (left < 12) {
		return; /* the rest of the stream is the fake's own, valid frames */
	}
	uint32_t sel = take(1);
	if (sel & 0x80) {
		b->index = sel & 0x7f;
	}
	b->flags = take(4);
	uint32_t used = take(4);
	b->bytesused = used & 0x80000000u ? used & 0x7fffffffu : used % (2u * W * H + 16);
	b->sequence += take(1);
	b->timestamp.tv_usec =
	    (suseconds_t)((uint32_t)b->timestamp.tv_usec + take(1) * 997u) % 1000000;
	size_t n = take(1) * 16;
	n = n < left ? n : left;
	n = n < FAKE_BUF_BYTES ? n : FAKE_BUF_BYTES;
	memcpy(mem, in, n);
	in += n;
	left -= n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum jd_pixfmt fmts[3] = {JD_PIX_YUYV, JD_PIX_GREY, JD_PIX_MJPEG};
	static struct jd_capture c;
	static char mem[1 << 16];
	static uint8_t l[W * H], r[W * H];
	struct jd_image li = {l, W, H, W}, ri = {r, W, H, W};
	struct jd_capture_config cfg = {.kind = JD_CAPTURE_V4L2, .v4l2 = {.sys = &fake_v4l2_sys}};
	int truth;

	if (size < 1) {
		return 0;
	}
	fake_v4l2_reset();
	strcpy(cfg.v4l2.device[0], "/dev/fake0");
	strcpy(cfg.v4l2.device[1], "/dev/fake1");
	cfg.cam = (struct jd_cam_config){W, H, 25, fmts[data[0] % 3], 4, 20, {0, {0}, 0}};
	in = data + 1;
	left = size - 1;
	fake_dqbuf_hook = rewrite;
	if (jd_capture_mem_required(&cfg) > sizeof(mem) ||
	    jd_capture_init(&c, &cfg, mem, sizeof(mem), NULL)) {
		abort(); /* the fake's cameras always boot */
	}
	for (int i = 0, reopens = 0; i < 24 && left >= 12; i++) {
		int rc = jd_capture_next(&c, &li, &ri, NULL, &truth);
		if ((rc == -ENODEV || rc == -EIO) && reopens++ < 4) {
			jd_capture_recover(&c);
		}
	}
	jd_capture_deinit(&c);
	fake_dqbuf_hook = NULL;
	if (fake_open_fds != 0 || fake_mappings != 0) {
		abort(); /* a descriptor or a mapping leaked */
	}
	return 0;
}
