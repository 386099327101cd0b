/*
 * The V4L2 driver and the capture stage against the fake kernel (fake_v4l2.c): format
 * negotiation and its fallbacks, sizes and rates read back, streaming with buffers handed
 * back only after conversion, error-flagged and short frames dropped and counted, EINTR
 * retried, and the recovery cycle (unplug -> reopen fails while absent -> succeeds when
 * back) with no descriptor or mapping leaked and no allocation in frames; the controls.
 * Damaged MJPEG, one device with both views and the pairs' skew: test_v4l2_frames.c.
 */
#include <errno.h>
#include <linux/videodev2.h>
#include <stdlib.h>
#include <string.h>

#include "camera_v4l2.h"
#include "capture.h"
#include "v4l2_list.h"
#include "fake_v4l2.h"
#include "jd_test.h"
#include <turbojpeg.h>

#include "v4l2_config.h"

static void test_negotiation(void)
{
	static char mem[4096];
	struct jd_camera cams[2], *c0 = &cams[0];
	struct jd_cam_config want = {W, H, 60, JD_PIX_UYVY, 4, 100, {0, {0}, 0}};
	struct jd_cam_v4l2_config vc = {.device = {"/dev/fake0"}, .one = 1, .sys = &fake_v4l2_sys};
	char err[200];

	fake_v4l2_reset();
	JD_CHECK(jd_cam_v4l2_init(cams, mem, 8, &vc, err, sizeof(err)) == -ENOMEM &&
		     strstr(err, "boot memory too small"),
		 "too small: %s", err);
	JD_CHECK(jd_cam_v4l2_init(cams, mem, sizeof(mem), &vc, err, sizeof(err)) == 0 &&
		     !strcmp(c0->label, "left") && !strcmp(c0->device, "/dev/fake0"),
		 "init");
	struct jd_cam_frame none = {0};
	struct jd_disp truth;
	JD_CHECK(jd_cam_truth(c0, &none, &truth) == -ENOSYS, "a V4L2 camera knows no truth");
	JD_CHECK(jd_cam_open(c0) == 0, "open: %s", c0->err);
	JD_CHECK(jd_cam_configure(c0, &want) == 0, "configure: %s", c0->err);
	JD_CHECK(c0->cfg.fmt == JD_PIX_YUYV, "no UYVY: YUYV is next, got %s",
		 jd_pixfmt_name(c0->cfg.fmt));
	JD_CHECK(strstr(c0->err, "no UYVY, using YUYV") &&
		     strstr(c0->err, "asked 60 fps, the driver runs 30"),
		 "both fallbacks said: %s", c0->err);
	JD_CHECK(c0->cfg.fps == 30.0 && c0->cfg.buffers == 4, "read back: %g fps, %d buffers",
		 c0->cfg.fps, c0->cfg.buffers);
	JD_CHECK(fake_mappings == 4, "%d buffers mapped", fake_mappings);
	jd_cam_close(c0);
	JD_CHECK(fake_open_fds == 0 && fake_mappings == 0, "close releases all: %d fds, %d maps",
		 fake_open_fds, fake_mappings);

	/* Only MJPEG: taken when nothing raw is offered. */
	fake_devs[0].formats[0] = V4L2_PIX_FMT_MJPEG;
	fake_devs[0].nformats = 1;
	want.fmt = JD_PIX_GREY;
	JD_CHECK(jd_cam_open(c0) == 0 && jd_cam_configure(c0, &want) == 0 &&
		     c0->cfg.fmt == JD_PIX_MJPEG,
		 "MJPEG as the last resort: %s", c0->err);
	jd_cam_close(c0);
	/* A CSI sensor: raw Bayer only (and a global-shutter module: Y10 only). */
	fake_devs[0].formats[0] = V4L2_PIX_FMT_SRGGB10;
	JD_CHECK(jd_cam_open(c0) == 0 && jd_cam_configure(c0, &want) == 0 &&
		     c0->cfg.fmt == JD_PIX_RGGB10 && strstr(c0->err, "no GREY, using RG10"),
		 "raw Bayer taken and said: %s", c0->err);
	jd_cam_close(c0);
	fake_devs[0].formats[0] = V4L2_PIX_FMT_Y10;
	want.fmt = JD_PIX_Y10;
	JD_CHECK(jd_cam_open(c0) == 0 && jd_cam_configure(c0, &want) == 0 &&
		     c0->cfg.fmt == JD_PIX_Y10,
		 "Y10 asked and granted: %s", c0->err);
	jd_cam_close(c0);
	want.fmt = JD_PIX_GREY;
	/* Nothing usable. */
	fake_devs[0].formats[0] = V4L2_PIX_FMT_NV12;
	JD_CHECK(jd_cam_open(c0) == 0 && jd_cam_configure(c0, &want) == -EINVAL &&
		     strstr(c0->err, "offers none"),
		 "no usable format: %s", c0->err);
	jd_cam_close(c0);
	/* A size the driver does not grant is refused with the size it does. */
	fake_v4l2_reset();
	fake_devs[0].max_w = 160;
	fake_devs[0].max_h = 120;
	JD_CHECK(jd_cam_open(c0) == 0 && jd_cam_configure(c0, &want) == -EINVAL &&
		     strstr(c0->err, "grants 160x120") && strstr(c0->err, "--size 160x120"),
		 "size read back: %s", c0->err);
	jd_cam_close(c0);
	/* Not a capture device; not there at all. */
	fake_devs[0].capture = 0;
	JD_CHECK(jd_cam_open(c0) == -ENODEV && strstr(c0->err, "not a streaming capture"),
		 "output-only device: %s", c0->err);
	fake_devs[0].present = 0;
	JD_CHECK(jd_cam_open(c0) == -ENODEV && strstr(c0->err, "/dev/fake0"),
		 "absent device named: %s", c0->err);
	JD_CHECK(fake_open_fds == 0, "failed opens leave no descriptor: %d", fake_open_fds);
}

static void test_streaming(void)
{
	struct jd_capture_config cfg = config(JD_PIX_YUYV, 25);
	struct jd_capture c;
	size_t bytes = jd_capture_mem_required(&cfg);
	void *mem = malloc(bytes);
	static uint8_t l[W * H], r[W * H];
	struct jd_image li = {l, W, H, W}, ri = {r, W, H, W};
	int truth;

	fake_v4l2_reset();
	JD_CHECK(jd_capture_init(&c, &cfg, mem, bytes, NULL) == 0, "init: %s", c.err);
	JD_CHECK(fake_open_fds == 2 && fake_mappings == 8, "two devices, 8 buffers");
	JD_CHECK(jd_capture_next(&c, &li, &ri, NULL, &truth) == 0 && !truth, "a pair: %s", c.err);
	JD_CHECK(l[0] == 0 && l[1] == 2 && r[5] == 10, "YUYV luma taken: %d %d %d", l[0], l[1],
		 r[5]);
	JD_CHECK(fake_devs[0].nq == 4 && fake_devs[1].nq == 4,
		 "both buffers back with the driver after conversion (%d, %d queued)",
		 fake_devs[0].nq, fake_devs[1].nq);
	/* Raw for a GPU that takes the luma: each view as it came, rows packed, buffers back. */
	static uint8_t raw_l[2 * W * H], raw_r[2 * W * H];
	struct jd_capture_raw raw = {{raw_l, raw_r}, sizeof(raw_l), {JD_PIX_MJPEG, JD_PIX_MJPEG}};
	size_t last = 2 * W * H - 2;
	JD_CHECK(jd_capture_next_raw(&c, &raw, NULL, &truth) == 0, "a raw pair: %s", c.err);
	JD_CHECK(raw.fmt[0] == JD_PIX_YUYV && raw.fmt[1] == JD_PIX_YUYV, "raw layouts: %s %s",
		 jd_pixfmt_name(raw.fmt[0]), jd_pixfmt_name(raw.fmt[1]));
	JD_CHECK(raw_l[0] == 1 && raw_l[1] == 128 && raw_l[2] == 3 && raw_r[last + 1] == 128 &&
		     raw_r[last] == (uint8_t)(1 + last),
		 "YUYV bytes as they came: %d %d %d .. %d %d", raw_l[0], raw_l[1], raw_l[2],
		 raw_r[last], raw_r[last + 1]);
	JD_CHECK(fake_devs[0].nq == 4 && fake_devs[1].nq == 4, "raw: buffers back (%d, %d)",
		 fake_devs[0].nq, fake_devs[1].nq);
	raw.cap = W * H; /* too small for YUYV: dropped as short, never overrun */
	unsigned long short_before = c.drop_short;
	JD_CHECK(jd_capture_next_raw(&c, &raw, NULL, &truth) == -EAGAIN &&
		     c.drop_short > short_before && strstr(c.last_drop, "room for 76800"),
		 "a view larger than the room: %s", c.last_drop);
	JD_CHECK(fake_devs[0].nq == 4 && fake_devs[1].nq == 4, "short room: buffers back");
	/* An error-flagged frame on the left, a short one on the right: dropped, counted. */
	fake_devs[0].flag_error = 1;
	fake_devs[1].short_frame = 1;
	fake_devs[0].eintr = 1;
	for (int i = 0; i < 4; i++) {
		JD_CHECK(jd_capture_next(&c, &li, &ri, NULL, &truth) == 0, "pair %d: %s", i, c.err);
	}
	JD_CHECK(c.cam[0].stats.drop_flagged == 1 && c.cam[1].stats.drop_flagged == 1,
		 "one flagged, one short: %lu %lu", c.cam[0].stats.drop_flagged,
		 c.cam[1].stats.drop_flagged);
	JD_CHECK(strstr(c.last_drop, "dropped"), "the drop said why: %s", c.last_drop);
	JD_CHECK(c.pairs == 6, "%lu pairs", c.pairs);
	JD_CHECK(fake_devs[0].nq == 4 && fake_devs[1].nq == 4, "no buffer lost: %d %d",
		 fake_devs[0].nq, fake_devs[1].nq);

	/* Unplug the right camera: a fatal error, then reopen fails until it is back. */
	fake_devs[1].hup = 1;
	int rc = 0;
	for (int i = 0; i < 3 && rc == 0; i++) {
		rc = jd_capture_next(&c, &li, &ri, NULL, &truth);
	}
	JD_CHECK(rc == -ENODEV && strstr(c.err, "gone"), "unplug seen: %d %s", rc, c.err);
	fake_devs[1].present = 0;
	JD_CHECK(jd_capture_recover(&c) == -ENODEV, "reopen fails while absent: %s", c.err);
	JD_CHECK(fake_open_fds == 1 && fake_mappings == 4,
		 "the present camera reopened, the absent one holds nothing: %d fds, %d maps",
		 fake_open_fds, fake_mappings);
	fake_devs[1].present = 1;
	JD_CHECK(jd_capture_recover(&c) == 0, "reopen when back: %s", c.err);
	JD_CHECK(fake_open_fds == 2 && fake_mappings == 8,
		 "no leak across recoveries: %d fds, %d maps", fake_open_fds, fake_mappings);
	JD_CHECK(c.cam[0].stats.reopens == 1, "one recovery counted");
	JD_CHECK(jd_capture_next(&c, &li, &ri, NULL, &truth) == 0, "frames again: %s", c.err);

	/* A fatal streaming error (EIO) and a timeout are fatal too. */
	fake_devs[0].eio = 1;
	JD_CHECK(jd_capture_next(&c, &li, &ri, NULL, &truth) == -EIO, "EIO: %s", c.err);
	JD_CHECK(jd_capture_recover(&c) == 0, "recover after EIO");
	fake_devs[0].timeout = 1;
	JD_CHECK(jd_capture_next(&c, &li, &ri, NULL, &truth) == -ETIMEDOUT &&
		     strstr(c.err, "no frame in 200 ms"),
		 "timeout: %s", c.err);
	JD_CHECK(c.cam[0].stats.timeouts == 1, "timeout counted");
	JD_CHECK(jd_capture_recover(&c) == 0, "recover after a timeout");
	/* Requeueing a buffer the driver already has is refused, not passed on. */
	struct jd_cam_frame f = {.index = 0};
	JD_CHECK(jd_cam_requeue(&c.cam[0], &f) == -EINVAL, "requeue of a queued buffer");
	jd_capture_deinit(&c);
	JD_CHECK(fake_open_fds == 0 && fake_mappings == 0, "deinit releases all: %d fds, %d maps",
		 fake_open_fds, fake_mappings);
	free(mem);
}

/* A camera absent at boot (a USB camera plugged in later): waited for, not a boot error. */
static void test_late_camera(void)
{
	struct jd_capture_config cfg = config(JD_PIX_YUYV, 30);
	size_t bytes = jd_capture_mem_required(&cfg);
	void *mem = malloc(bytes);
	static uint8_t lp[W * H], rp[W * H];
	struct jd_image li = {lp, W, H, W}, ri = {rp, W, H, W};
	struct jd_capture c;
	int truth;

	fake_v4l2_reset();
	fake_devs[1].present = 0;
	JD_CHECK(jd_capture_init(&c, &cfg, mem, bytes, NULL) == -ENODEV && strstr(c.err, "fake1"),
		 "without waiting an absent camera fails boot: %s", c.err);
	cfg.wait_absent = 1;
	JD_CHECK(jd_capture_init(&c, &cfg, mem, bytes, NULL) == 0 && c.down, "waiting: %s", c.err);
	JD_CHECK(fake_open_fds == 0 && fake_mappings == 0, "nothing held while waiting: %d, %d",
		 fake_open_fds, fake_mappings);
	JD_CHECK(jd_capture_next(&c, &li, &ri, NULL, &truth) == -ENODEV, "no frames while down");
	JD_CHECK(jd_capture_recover(&c) == -ENODEV && c.down, "still absent");
	fake_devs[1].present = 1;
	JD_CHECK(jd_capture_recover(&c) == 0 && !c.down, "plugged in: %s", c.err);
	JD_CHECK(c.cam[0].stats.reopens == 0, "coming up is not a reopen");
	JD_CHECK(jd_capture_next(&c, &li, &ri, NULL, &truth) == 0, "frames: %s", c.err);
	jd_capture_deinit(&c);
	free(mem);
}

static void test_describe(void)
{
	char text[2048] = "";
	FILE *f = fmemopen(text, sizeof(text) - 1, "w");

	fake_v4l2_reset();
	fake_devs[0].formats[1] = V4L2_PIX_FMT_NV12;
	JD_CHECK(jd_v4l2_describe(&fake_v4l2_sys, "/dev/fake0", f) == 1, "a capture device");
	fake_devs[1].capture = 0;
	JD_CHECK(jd_v4l2_describe(&fake_v4l2_sys, "/dev/fake1", f) == 0, "not a capture node");
	JD_CHECK(jd_v4l2_describe(&fake_v4l2_sys, "/dev/nothing", f) == -ENOENT, "absent");
	fclose(f);
	JD_CHECK(strstr(text, "/dev/fake0: Fake camera (driver fake") && strstr(text, "YUYV") &&
		     strstr(text, "(usable)") && strstr(text, "640x480 fps: 30 15") &&
		     strstr(text, "320x240 fps: 30 15"),
		 "formats, sizes and rates listed:\n%s", text);
	JD_CHECK(strstr(text, "NV12") && !strstr(text, "NV12  (usable)") &&
		     strstr(text, "not a video capture node") &&
		     strstr(text, "/dev/nothing: cannot open"),
		 "unusable format unmarked, skipped and absent nodes said:\n%s", text);
	JD_CHECK(strstr(text, "  controls:") &&
		     strstr(text, "Gain                             0..255 step 1, default 0, now "
				  "64  (--gain)") &&
		     strstr(text, "(--exposure, 100 us units)"),
		 "controls listed with ranges:\n%s", text);
	JD_CHECK(fake_open_fds == 0, "describe closes what it opens");
}

/*
 * Camera controls: applied to both cameras and read back (a fixed exposure turns auto exposure
 * off), a control asked for that the driver lacks or refuses fails boot by name, one not asked
 * for is left alone; follow mode copies the left's exposure and gain to the right.
 */
static void test_controls(void)
{
	struct jd_capture_config cfg = config(JD_PIX_GREY, 25);
	struct jd_capture c;
	size_t bytes = jd_capture_mem_required(&cfg);
	void *mem = malloc(bytes);
	static uint8_t l[W * H], r[W * H];
	struct jd_image li = {l, W, H, W}, ri = {r, W, H, W};
	int truth;

	cfg.cam.ctl.set = 1u << JD_CTL_EXPOSURE | 1u << JD_CTL_GAIN | 1u << JD_CTL_AUTO_WB;
	cfg.cam.ctl.value[JD_CTL_EXPOSURE] = 8000; /* 8 ms: 80 of the driver's 100 us */
	cfg.cam.ctl.value[JD_CTL_GAIN] = 20;
	cfg.cam.ctl.value[JD_CTL_AUTO_WB] = 0;
	fake_v4l2_reset();
	fake_devs[1].has_ctl[3] = 0; /* the right camera has no white balance */
	cfg.cam.ctl.set &= ~(1u << JD_CTL_AUTO_WB);
	JD_CHECK(jd_capture_init(&c, &cfg, mem, bytes, NULL) == 0, "init: %s", c.err);
	for (int i = 0; i < 2; i++) {
		const struct jd_fake_dev_ctl_check {
			int k, want;
		} want[3] = {{0, 80}, {1, 20}, {2, 1}};
		for (int j = 0; j < 3; j++) {
			JD_CHECK(fake_devs[i].ctl[want[j].k] == want[j].want,
				 "camera %d control %d: %d", i, want[j].k,
				 fake_devs[i].ctl[want[j].k]);
		}
		JD_CHECK(c.cam[i].got.value[JD_CTL_EXPOSURE] == 8000 &&
			     c.cam[i].got.value[JD_CTL_GAIN] == 20 &&
			     c.cam[i].got.value[JD_CTL_AUTO_EXPOSURE] == 0,
			 "camera %d read back", i);
	}
	JD_CHECK((c.cam[0].got.set & 1u << JD_CTL_AUTO_WB) &&
		     !(c.cam[1].got.set & 1u << JD_CTL_AUTO_WB),
		 "a control not asked for and absent is left alone");
	jd_capture_deinit(&c);

	/* asked for and absent, or out of range: boot fails, naming it */
	cfg.cam.ctl.set |= 1u << JD_CTL_AUTO_WB;
	fake_v4l2_reset();
	fake_devs[1].has_ctl[3] = 0;
	JD_CHECK(jd_capture_init(&c, &cfg, mem, bytes, NULL) != 0 &&
		     strstr(c.err, "right camera /dev/fake1: control auto_white_balance 0: the "
				   "driver has no such control"),
		 "an absent control asked for: %s", c.err);
	jd_capture_deinit(&c);
	cfg.cam.ctl.set = 1u << JD_CTL_GAIN;
	cfg.cam.ctl.value[JD_CTL_GAIN] = 300;
	fake_v4l2_reset();
	JD_CHECK(jd_capture_init(&c, &cfg, mem, bytes, NULL) != 0 &&
		     strstr(c.err, "control gain 300: outside the driver's range"),
		 "out of range: %s", c.err);
	jd_capture_deinit(&c);

	/* follow mode: the left on auto, the right on manual and following */
	cfg.cam.ctl = (struct jd_cam_controls){0, {0}, 1};
	fake_v4l2_reset();
	JD_CHECK(jd_capture_init(&c, &cfg, mem, bytes, NULL) == 0, "follow init: %s", c.err);
	JD_CHECK(fake_devs[0].ctl[2] == 3 && fake_devs[1].ctl[2] == 1,
		 "left auto (%d), right manual (%d)", fake_devs[0].ctl[2], fake_devs[1].ctl[2]);
	fake_devs[0].ctl[0] = 321; /* the left's auto exposure moved */
	fake_devs[0].ctl[1] = 99;
	for (int i = 0; i < JD_CAM_FOLLOW_PAIRS; i++) {
		JD_CHECK(jd_capture_next(&c, &li, &ri, NULL, &truth) == 0, "pair %d: %s", i, c.err);
	}
	JD_CHECK(fake_devs[1].ctl[0] == 321 && fake_devs[1].ctl[1] == 99 && c.follow_failed == 0,
		 "the right follows: exposure %d, gain %d", fake_devs[1].ctl[0],
		 fake_devs[1].ctl[1]);
	jd_capture_deinit(&c);
	free(mem);
}

int main(void)
{
	test_describe();
	test_negotiation();
	test_streaming();
	test_late_camera();
	test_controls();
	return jd_test_done("unit.v4l2");
}
