#include "camera.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *jd_cam_control_name(enum jd_cam_control k)
{
	static const char *const names[JD_CTL_COUNT] = {"exposure_us", "gain", "auto_exposure",
							"auto_white_balance"};

	return (unsigned)k < JD_CTL_COUNT ? names[k] : "?";
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
