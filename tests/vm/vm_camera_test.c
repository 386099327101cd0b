/*
 * Runs inside the test VM (tests/vm/run_vm.sh) against the kernel's vivid driver: two capture
 * devices, /dev/video0 (left) and /dev/video1 (right). Streams and pairs them in YUYV and GREY,
 * then triggers each of vivid's fault controls on the left device and checks what the capture
 * stage does. One line per scenario, "VMTEST <name> PASS|FAIL <details>", which the host
 * asserts on. Disconnect is last (vivid connects the device again only when every
 * descriptor on it has been closed, which the recovery does).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "hal/camera/camera_v4l2.h"

enum { W = 640, H = 480 };

static uint8_t lbuf[W * H], rbuf[W * H];
static struct jd_image left = {lbuf, W, H, W}, right = {rbuf, W, H, W};
static char mem[(1 << 16) + 2 * W * H]; /* two drivers, or one and a split MJPEG frame */
static int failures;

static void verdict(const char *name, int ok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#include <stdarg.h>
static void verdict(const char *name, int ok, const char *fmt, ...)
{
	va_list ap;

	printf("VMTEST %s %s ", name, ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	failures += !ok;
}

/* Both vivid devices as a pair, or with split, /dev/video0 alone carrying both views. */
static int start_split(struct jd_capture *c, enum jd_pixfmt fmt, enum jd_capture_split split)
{
	struct jd_capture_config cfg = {.kind = JD_CAPTURE_V4L2, .split = split};

	strcpy(cfg.v4l2.device[0], "/dev/video0");
	strcpy(cfg.v4l2.device[1], split ? "/dev/video0" : "/dev/video1");
	cfg.cam = (struct jd_cam_config){W, H, 25, fmt, 4, 2000, {0, {0}, 0}};
	/* views whose doubled frame is one of vivid's webcam sizes: 640x360 and 640x480 */
	if (split == JD_SPLIT_SIDE) {
		cfg.cam.width = 320;
		cfg.cam.height = 360;
	} else if (split == JD_SPLIT_TOP) {
		cfg.cam.height = 240;
	}
	int rc = jd_capture_init(c, &cfg, mem, sizeof(mem), stdout);
	if (rc) {
		printf("start: %s\n", c->err);
	}
	return rc;
}

static int start(struct jd_capture *c, enum jd_pixfmt fmt)
{
	return start_split(c, fmt, JD_SPLIT_NONE);
}

static void nap_ms(int ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

struct run {
	int pairs, errors, recoveries, failed_reopens;
	char first_error[512], reopen_error[512];
};

/* Capture n pairs the way the daemon does: a camera error means stop, close, reopen. */
static void capture(struct jd_capture *c, int n, int max_reopens, struct run *r)
{
	int truth;

	memset(r, 0, sizeof(*r));
	for (int tries = 0; r->pairs < n && tries < 4 * n; tries++) {
		int rc = jd_capture_next(c, &left, &right, NULL, &truth);

		if (rc == 0) {
			r->pairs++;
			continue;
		}
		if (rc == -EAGAIN) {
			continue;
		}
		if (!r->errors++) {
			snprintf(r->first_error, sizeof(r->first_error), "%s", c->err);
		}
		for (;;) {
			if (jd_capture_recover(c) == 0) {
				r->recoveries++;
				break;
			}
			if (!r->failed_reopens++) {
				snprintf(r->reopen_error, sizeof(r->reopen_error), "%s", c->err);
			}
			if (r->failed_reopens > max_reopens) {
				return;
			}
			nap_ms(100);
		}
	}
}

/* Set a vivid control by its name (buttons take 1). */
static int set_ctrl_fd(int fd, const char *name, int value)
{
	struct v4l2_queryctrl q = {.id = V4L2_CTRL_FLAG_NEXT_CTRL};

	while (ioctl(fd, VIDIOC_QUERYCTRL, &q) == 0) {
		if (strcmp((const char *)q.name, name) == 0) {
			struct v4l2_ext_control ctrl = {.id = q.id, .value = value};
			struct v4l2_ext_controls cs = {
			    .which = V4L2_CTRL_WHICH_CUR_VAL, .count = 1, .controls = &ctrl};
			if (ioctl(fd, VIDIOC_S_EXT_CTRLS, &cs) < 0) {
				printf("control '%s': %s\n", name, strerror(errno));
				return -1;
			}
			return 0;
		}
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	printf("control '%s': not found\n", name);
	return -1;
}

static int set_ctrl(struct jd_capture *c, const char *name, int value)
{
	return set_ctrl_fd(jd_cam_v4l2_fd(&c->cam[0]), name, value);
}

/* --control DEVICE NAME VALUE: set one control on a device someone else streams from. */
static int control_only(const char *dev, const char *name, int value)
{
	int fd = open(dev, O_RDWR);
	int rc;

	if (fd < 0) {
		printf("%s: %s\n", dev, strerror(errno));
		return 1;
	}
	rc = set_ctrl_fd(fd, name, value);
	close(fd);
	return rc != 0;
}

static void stream(enum jd_pixfmt fmt, const char *name)
{
	struct jd_capture c;
	struct run r;

	if (start(&c, fmt)) {
		verdict(name, 0, "no start: %s", c.err);
		return;
	}
	capture(&c, 40, 0, &r);
	verdict(name, r.pairs == 40 && r.errors == 0 && c.cam[0].cfg.fmt == fmt,
		"%d pairs of %s, %d errors, fps %.1f/%.1f, unpaired %lu/%lu", r.pairs,
		jd_pixfmt_name(c.cam[0].cfg.fmt), r.errors, c.cam[0].stats.fps, c.cam[1].stats.fps,
		c.pair.drops[0], c.pair.drops[1]);
	jd_capture_deinit(&c);
}

/* One device, both views: vivid streams a double-width (or double-height) frame. */
static void stream_split(enum jd_capture_split split, const char *name)
{
	struct jd_capture c;
	struct run r;

	if (start_split(&c, JD_PIX_YUYV, split)) {
		verdict(name, 0, "no start: %s", c.err);
		return;
	}
	const int w = c.cfg.cam.width, h = c.cfg.cam.height;
	left = (struct jd_image){lbuf, w, h, w};
	right = (struct jd_image){rbuf, w, h, w};
	capture(&c, 40, 0, &r);
	verdict(name,
		r.pairs == 40 && r.errors == 0 &&
		    c.cam[0].cfg.width == (split == JD_SPLIT_SIDE ? 2 * w : w) &&
		    c.cam[0].cfg.height == (split == JD_SPLIT_TOP ? 2 * h : h),
		"%d %dx%d pairs from one %dx%d %s stream, %d errors (%s)", r.pairs, w, h,
		c.cam[0].cfg.width, c.cam[0].cfg.height, jd_pixfmt_name(c.cam[0].cfg.fmt), r.errors,
		r.first_error);
	jd_capture_deinit(&c);
	left = (struct jd_image){lbuf, W, H, W};
	right = (struct jd_image){rbuf, W, H, W};
}

/*
 * Deep mono and raw Bayer: every one vivid grants streams; the ones it lacks (it gives another
 * and says so) are listed.
 */
static void stream_raw(void)
{
	char lacks[256] = "", took[256] = "";
	int bad = 0;

	for (int f = JD_PIX_Y10; f < JD_PIX_COUNT; f++) {
		struct jd_capture c;
		struct run r;
		if (start(&c, (enum jd_pixfmt)f)) {
			printf("raw %s: no start: %s\n", jd_pixfmt_name((enum jd_pixfmt)f), c.err);
			bad++;
			continue;
		}
		if (c.cam[0].cfg.fmt != (enum jd_pixfmt)f) {
			snprintf(lacks + strlen(lacks), sizeof(lacks) - strlen(lacks), " %s",
				 jd_pixfmt_name((enum jd_pixfmt)f));
		} else {
			capture(&c, 10, 0, &r);
			bad += r.pairs != 10 || r.errors != 0;
			snprintf(took + strlen(took), sizeof(took) - strlen(took), " %s:%d",
				 jd_pixfmt_name((enum jd_pixfmt)f), r.pairs);
		}
		jd_capture_deinit(&c);
	}
	verdict("raw_formats", bad == 0, "streamed (pairs):%s; vivid lacks:%s", took,
		lacks[0] ? lacks : " none");
}

/*
 * Camera controls on vivid: each of jetdepth's four that vivid has is set, applied to both
 * devices and read back; one it lacks, asked for, fails boot naming it.
 */
static void controls(void)
{
	static const uint32_t cid[JD_CTL_COUNT] = {V4L2_CID_EXPOSURE_ABSOLUTE, V4L2_CID_GAIN,
						   V4L2_CID_EXPOSURE_AUTO,
						   V4L2_CID_AUTO_WHITE_BALANCE};
	struct jd_cam_controls want = {0, {0}, 0};
	char said[512] = "";
	int fd = open("/dev/video0", O_RDWR), ok = fd >= 0, lacking = -1;

	for (int k = 0; k < JD_CTL_COUNT && fd >= 0; k++) {
		struct v4l2_queryctrl q = {.id = cid[k]};
		if (ioctl(fd, VIDIOC_QUERYCTRL, &q) < 0 || (q.flags & V4L2_CTRL_FLAG_DISABLED)) {
			lacking = lacking < 0 ? k : lacking;
			snprintf(said + strlen(said), sizeof(said) - strlen(said), " %s: lacks;",
				 jd_cam_control_name((enum jd_cam_control)k));
			continue;
		}
		want.set |= 1u << k;
		want.value[k] = k == JD_CTL_EXPOSURE ? q.maximum * 100
				: k == JD_CTL_GAIN   ? q.maximum
						     : 0;
	}
	if (fd >= 0) {
		close(fd);
	}
	struct jd_capture c;
	if (ok && want.set) {
		struct jd_capture_config cfg = {.kind = JD_CAPTURE_V4L2};
		strcpy(cfg.v4l2.device[0], "/dev/video0");
		strcpy(cfg.v4l2.device[1], "/dev/video1");
		cfg.cam = (struct jd_cam_config){W, H, 25, JD_PIX_YUYV, 4, 2000, want};
		ok = jd_capture_init(&c, &cfg, mem, sizeof(mem), stdout) == 0;
		for (int k = 0; ok && k < JD_CTL_COUNT; k++) {
			if (want.set & 1u << k) {
				int got = c.cam[1].got.value[k];
				ok = (c.cam[1].got.set & 1u << k) && got == want.value[k];
				snprintf(said + strlen(said), sizeof(said) - strlen(said),
					 " %s %d -> %d;",
					 jd_cam_control_name((enum jd_cam_control)k), want.value[k],
					 got);
			}
		}
		if (!ok) {
			snprintf(said + strlen(said), sizeof(said) - strlen(said), " (%.200s)",
				 c.err);
		}
		jd_capture_deinit(&c);
	}
	if (ok && lacking >= 0) {
		struct jd_capture_config cfg = {.kind = JD_CAPTURE_V4L2};
		strcpy(cfg.v4l2.device[0], "/dev/video0");
		strcpy(cfg.v4l2.device[1], "/dev/video1");
		cfg.cam = (struct jd_cam_config){
		    W, H, 25, JD_PIX_YUYV, 4, 2000, {1u << lacking, {1, 1, 1, 1}, 0}};
		ok = jd_capture_init(&c, &cfg, mem, sizeof(mem), NULL) != 0 &&
		     strstr(c.err, "the driver has no such control");
		snprintf(said + strlen(said), sizeof(said) - strlen(said), " asking for %s: %.200s",
			 jd_cam_control_name((enum jd_cam_control)lacking), c.err);
		jd_capture_deinit(&c);
	}
	verdict("controls", ok, "%s", said);
}

/* Trigger a fault, capture on, and judge by what happened. */
static void fault(const char *ctrl, int value, const char *name, int expect_error)
{
	struct jd_capture c;
	struct run r;

	if (start(&c, JD_PIX_YUYV)) {
		verdict(name, 0, "no start: %s", c.err);
		return;
	}
	capture(&c, 3, 0, &r);
	if (set_ctrl(&c, ctrl, value)) {
		verdict(name, 0, "cannot set '%s'", ctrl);
		jd_capture_deinit(&c);
		return;
	}
	capture(&c, 20, 5, &r);
	unsigned long flagged = c.cam[0].stats.drop_flagged;
	unsigned long unpaired = c.pair.drops[0] + c.pair.drops[1];
	int ok = r.pairs == 20 && (!expect_error || (r.errors >= 1 && r.recoveries >= 1));
	if (!strcmp(name, "buf_flag_error")) {
		ok = r.pairs == 20 && flagged >= 1;
	} else if (!strcmp(name, "dropped_buffers")) {
		ok = r.pairs == 20 && c.pair.drops[1] >= 1; /* right frames lose their partners */
	}
	verdict(name, ok,
		"%d pairs after the fault, %d error(s) (first: %s), %d recovery(ies), %d failed "
		"reopen(s) (%s), %lu flagged frame(s) dropped, %lu unpaired (left %lu, right %lu), "
		"last left sequence %u",
		r.pairs, r.errors, r.errors ? r.first_error : "-", r.recoveries, r.failed_reopens,
		r.failed_reopens ? r.reopen_error : "-", flagged, unpaired, c.pair.drops[0],
		c.pair.drops[1], c.pair.frame[0].seq);
	if (value != 1 || strstr(ctrl, "Wrap")) {
		set_ctrl(&c, ctrl, 0);
	}
	jd_capture_deinit(&c);
}

/* The fault the next reopen meets (REQBUFS, STREAMON): inject, then reopen. */
static void reopen_fault(const char *ctrl, const char *name, const char *call)
{
	struct jd_capture c;
	struct run r;

	if (start(&c, JD_PIX_YUYV)) {
		verdict(name, 0, "no start: %s", c.err);
		return;
	}
	if (set_ctrl(&c, ctrl, 1)) {
		verdict(name, 0, "cannot set '%s'", ctrl);
		jd_capture_deinit(&c);
		return;
	}
	int first = jd_capture_recover(&c);
	char why[512];
	snprintf(why, sizeof(why), "%s", c.err);
	int second = first ? jd_capture_recover(&c) : 0;
	capture(&c, 10, 0, &r);
	verdict(name, first != 0 && strstr(why, call) && second == 0 && r.pairs == 10,
		"first reopen: %s; second reopen %s; %d pairs after", first ? why : "succeeded",
		second ? "failed" : "succeeded", r.pairs);
	jd_capture_deinit(&c);
}

static void disconnect(void)
{
	struct jd_capture c;
	struct run r;

	if (start(&c, JD_PIX_YUYV)) {
		verdict("disconnect", 0, "no start: %s", c.err);
		return;
	}
	capture(&c, 3, 0, &r);
	set_ctrl(&c, "Disconnect", 1);
	capture(&c, 10, 20, &r);
	/* vivid connects the device again once every descriptor on it is closed: the reopen */
	verdict("disconnect",
		r.errors >= 1 && strstr(r.first_error, "left camera") && r.recoveries >= 1 &&
		    r.pairs == 10,
		"outage reported: %s; %d failed reopen(s)%s%s, then reopened; %d pairs after",
		r.first_error, r.failed_reopens, r.failed_reopens ? ": " : "", r.reopen_error,
		r.pairs);
	jd_capture_deinit(&c);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 5 && strcmp(argv[1], "--control") == 0) {
		return control_only(argv[2], argv[3], atoi(argv[4]));
	}
	stream(JD_PIX_YUYV, "stream_yuyv");
	stream(JD_PIX_GREY, "stream_grey");
	stream_split(JD_SPLIT_SIDE, "stream_sbs");
	stream_split(JD_SPLIT_TOP, "stream_tb");
	stream_raw();
	controls();
	fault("Inject V4L2_BUF_FLAG_ERROR", 1, "buf_flag_error", 0);
	fault("Inject VIDIOC_QBUF Error", 1, "qbuf_error", 1);
	fault("Inject Fatal Streaming Error", 1, "fatal_streaming_error", 1);
	fault("Percentage of Dropped Buffers", 50, "dropped_buffers", 0);
	fault("Wrap Sequence Number", 1, "wrap_sequence", 0);
	reopen_fault("Inject VIDIOC_REQBUFS Error", "reqbufs_error", "VIDIOC_REQBUFS");
	reopen_fault("Inject VIDIOC_STREAMON Error", "streamon_error", "VIDIOC_STREAMON");
	disconnect();
	printf("VMTEST done %d failure(s)\n", failures);
	return failures != 0;
}
