/* The capture configuration the V4L2 tests start from: two fake devices at W x H. */
#ifndef JD_TEST_V4L2_CONFIG_H
#define JD_TEST_V4L2_CONFIG_H

#include <string.h>

#include "capture.h"
#include "fake_v4l2.h"

enum { W = 320, H = 240 };

static inline struct jd_capture_config config(enum jd_pixfmt fmt, double fps)
{
	struct jd_capture_config cfg = {.kind = JD_CAPTURE_V4L2, .v4l2 = {.sys = &fake_v4l2_sys}};

	strcpy(cfg.v4l2.device[0], "/dev/fake0");
	strcpy(cfg.v4l2.device[1], "/dev/fake1");
	cfg.cam = (struct jd_cam_config){W, H, fps, fmt, 4, 200, {0, {0}, 0}};
	return cfg;
}

#endif
