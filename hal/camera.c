#include "camera.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const names[JD_PIX_COUNT] = {"GREY", "YUYV", "UYVY", "MJPG"};

const char *jd_pixfmt_name(enum jd_pixfmt f)
{
	return (unsigned)f < JD_PIX_COUNT ? names[f] : "?";
}

int jd_pixfmt_parse(const char *s, enum jd_pixfmt *out)
{
	for (int i = 0; i < JD_PIX_COUNT; i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = (enum jd_pixfmt)i;
			return 0;
		}
	}
	if (strcmp(s, "MJPEG") == 0 || strcmp(s, "GRAY") == 0) {
		*out = s[0] == 'M' ? JD_PIX_MJPEG : JD_PIX_GREY;
		return 0;
	}
	return -EINVAL;
}

int jd_pixfmt_pixel_bytes(enum jd_pixfmt f)
{
	return f == JD_PIX_GREY ? 1 : 2;
}

size_t jd_pixfmt_frame_bytes(enum jd_pixfmt f, int w, int h)
{
	return (size_t)w * h * (size_t)jd_pixfmt_pixel_bytes(f);
}

int jd_cam_fail(struct jd_camera *c, int rc, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(c->err, sizeof(c->err), "%s camera %s: ", c->label, c->device);

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(c->err)) {
		vsnprintf(c->err + n, sizeof(c->err) - (size_t)n, fmt, ap);
	}
	va_end(ap);
	return rc;
}

void jd_cam_note(struct jd_camera *c, const char *fmt, ...)
{
	size_t n = strlen(c->err);
	va_list ap;

	if (n == 0) {
		int k = snprintf(c->err, sizeof(c->err), "%s camera %s: ", c->label, c->device);
		n = k > 0 && (size_t)k < sizeof(c->err) ? (size_t)k : sizeof(c->err) - 1;
	} else if (n + 2 < sizeof(c->err)) {
		memcpy(c->err + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(c->err + n, sizeof(c->err) - n, fmt, ap);
	va_end(ap);
}

void jd_cam_count_frame(struct jd_camera *c, uint64_t ts_ns)
{
	struct jd_cam_stats *s = &c->stats;

	s->frames++;
	if (s->fps_n == 0 || ts_ns < s->fps_t0) {
		s->fps_t0 = ts_ns;
		s->fps_n = 1;
		return;
	}
	s->fps_n++;
	if (ts_ns - s->fps_t0 >= 1000000000ull) {
		s->fps = (double)(s->fps_n - 1) * 1e9 / (double)(ts_ns - s->fps_t0);
		s->fps_t0 = ts_ns;
		s->fps_n = 1;
	}
}
