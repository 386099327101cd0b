#include "v4l2_list.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pixfmt.h"

/*
 * Every control the driver has, with its range and value; those jetdepth sets (--exposure,
 * --gain, --auto-exposure, --auto-white-balance) are marked.
 */
static void controls(const struct jd_v4l2_sys *sys, int fd, FILE *out)
{
	struct v4l2_queryctrl q = {.id = V4L2_CTRL_FLAG_NEXT_CTRL};
	int n = 0;

	while (n < 256 && jd_v4l2_xioctl(sys, fd, VIDIOC_QUERYCTRL, &q) == 0) {
		struct v4l2_control now = {.id = q.id};
		const char *ours =
		    q.id == V4L2_CID_EXPOSURE_ABSOLUTE	  ? "  (--exposure, 100 us units)"
		    : q.id == V4L2_CID_GAIN		  ? "  (--gain)"
		    : q.id == V4L2_CID_EXPOSURE_AUTO	  ? "  (--auto-exposure)"
		    : q.id == V4L2_CID_AUTO_WHITE_BALANCE ? "  (--auto-white-balance)"
							  : "";
		if (!(q.flags & (V4L2_CTRL_FLAG_DISABLED)) && q.type != V4L2_CTRL_TYPE_CTRL_CLASS) {
			fprintf(out, "%s", n++ ? "" : "  controls:\n");
			int have = jd_v4l2_xioctl(sys, fd, VIDIOC_G_CTRL, &now) == 0;
			fprintf(out, "    %-32s %d..%d step %d, default %d, now %s%d%s\n",
				(const char *)q.name, q.minimum, q.maximum, q.step, q.default_value,
				have ? "" : "(unread) ", have ? now.value : 0, ours);
		}
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
}

static void fourcc(uint32_t f, char out[5])
{
	for (int i = 0; i < 4; i++) {
		char c = (char)(f >> (8 * i) & 0xff);
		out[i] = c >= ' ' && c <= '~' ? c : '.';
	}
	out[4] = '\0';
}

static void intervals(const struct jd_v4l2_sys *sys, int fd, uint32_t pf, uint32_t w, uint32_t h,
		      FILE *out)
{
	for (uint32_t i = 0; i < 64; i++) {
		struct v4l2_frmivalenum iv = {
		    .index = i, .pixel_format = pf, .width = w, .height = h};

		if (jd_v4l2_xioctl(sys, fd, VIDIOC_ENUM_FRAMEINTERVALS, &iv) < 0) {
			break;
		}
		if (iv.type == V4L2_FRMIVAL_TYPE_DISCRETE && iv.discrete.numerator) {
			fprintf(out, " %.3g",
				(double)iv.discrete.denominator / iv.discrete.numerator);
		} else if (iv.stepwise.min.numerator && iv.stepwise.max.numerator) {
			fprintf(out, " %.3g-%.3g",
				(double)iv.stepwise.max.denominator / iv.stepwise.max.numerator,
				(double)iv.stepwise.min.denominator / iv.stepwise.min.numerator);
			break;
		}
	}
}

static void sizes(const struct jd_v4l2_sys *sys, int fd, uint32_t pf, FILE *out)
{
	for (uint32_t i = 0; i < 64; i++) {
		struct v4l2_frmsizeenum fs = {.index = i, .pixel_format = pf};

		if (jd_v4l2_xioctl(sys, fd, VIDIOC_ENUM_FRAMESIZES, &fs) < 0) {
			if (i == 0) {
				fprintf(out, "      (the driver lists no sizes)\n");
			}
			return;
		}
		if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
			fprintf(out, "      %ux%u fps:", fs.discrete.width, fs.discrete.height);
			intervals(sys, fd, pf, fs.discrete.width, fs.discrete.height, out);
			fputc('\n', out);
		} else {
			fprintf(out, "      %ux%u to %ux%u, step %ux%u fps:", fs.stepwise.min_width,
				fs.stepwise.min_height, fs.stepwise.max_width,
				fs.stepwise.max_height, fs.stepwise.step_width,
				fs.stepwise.step_height);
			intervals(sys, fd, pf, fs.stepwise.max_width, fs.stepwise.max_height, out);
			fputc('\n', out);
			return;
		}
	}
}

int jd_v4l2_describe(const struct jd_v4l2_sys *sys, const char *path, FILE *out)
{
	struct v4l2_capability cap;
	int fd = sys->open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;
		fprintf(out, "%s: cannot open: %s\n", path, strerror(e));
		return -e;
	}
	memset(&cap, 0, sizeof(cap));
	if (jd_v4l2_xioctl(sys, fd, VIDIOC_QUERYCAP, &cap) < 0) {
		int e = errno;
		fprintf(out, "%s: not a V4L2 device: %s\n", path, strerror(e));
		sys->close(fd);
		return -e;
	}
	uint32_t caps =
	    cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps : cap.capabilities;
	fprintf(out, "%s: %s (driver %s, bus %s)\n", path, (const char *)cap.card,
		(const char *)cap.driver, (const char *)cap.bus_info);
	if (!(caps & V4L2_CAP_VIDEO_CAPTURE)) {
		fprintf(out, "  not a video capture node (caps 0x%08x): skipped\n", caps);
		sys->close(fd);
		return 0;
	}
	fprintf(out, "  capture%s, formats:\n", caps & V4L2_CAP_STREAMING ? ", streaming" : "");
	for (uint32_t i = 0; i < 256; i++) {
		struct v4l2_fmtdesc d = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
		char fc[5];

		if (jd_v4l2_xioctl(sys, fd, VIDIOC_ENUM_FMT, &d) < 0) {
			break;
		}
		fourcc(d.pixelformat, fc);
		enum jd_pixfmt pf;
		fprintf(out, "    %s  %s%s\n", fc, (const char *)d.description,
			jd_pixfmt_of_fourcc(d.pixelformat, &pf) == 0 ? "  (usable)" : "");
		sizes(sys, fd, d.pixelformat, out);
	}
	controls(sys, fd, out);
	sys->close(fd);
	return 1;
}
