/*
 * How well a capture's two devices pair: their timestamps' skew, what clock they say, and the
 * right camera's exposure following the left's.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "../../algo/jd_sort.h"
#include "capture_priv.h"

/*
 * A pair of two devices: its timestamp skew into the ring; the first says each camera's clock
 * (boot's log), so that an integrator sees a driver whose timestamps cannot pair.
 */
void jd__capture_note_pair(struct jd_capture *c, const struct jd_cam_frame *l,
			   const struct jd_cam_frame *r)
{
	uint64_t d = l->ts_ns > r->ts_ns ? l->ts_ns - r->ts_ns : r->ts_ns - l->ts_ns;

	if (c->cfg.kind != JD_CAPTURE_V4L2) {
		return;
	}
	c->skew_us[c->skew_at] = d / 1000 > UINT32_MAX ? UINT32_MAX : (uint32_t)(d / 1000);
	c->skew_at = (c->skew_at + 1) % JD_CAPTURE_SKEW_N;
	c->skew_n += c->skew_n < JD_CAPTURE_SKEW_N;
	for (int i = 0; i < 2 && c->log && !c->clock_said; i++) {
		fprintf(c->log, "camera %s %s: timestamps %s\n", c->cam[i].label, c->cam[i].device,
			c->cam[i].stats.clock ? c->cam[i].stats.clock : "not said by the driver");
	}
	c->clock_said = 1;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int jd_capture_skew(struct jd_capture *c, double *last_ms, double *median_ms, double *p99_ms)
{
	const int n = c->skew_n;

	if (n == 0) {
		return -ENODATA;
	}
	memcpy(c->skew_sorted, c->skew_us, sizeof(uint32_t) * (size_t)n);
	jd_sort(c->skew_sorted, (size_t)n, sizeof(uint32_t), cmp_u32);
	*last_ms = c->skew_us[(c->skew_at + JD_CAPTURE_SKEW_N - 1) % JD_CAPTURE_SKEW_N] / 1e3;
	*median_ms = c->skew_sorted[n / 2] / 1e3;
	*p99_ms = c->skew_sorted[(n * 99) / 100] / 1e3;
	return 0;
}

void jd__capture_follow(struct jd_capture *c)
{
	static const enum jd_cam_control follow[2] = {JD_CTL_EXPOSURE, JD_CTL_GAIN};

	for (int i = 0; i < 2; i++) {
		int v;
		if (jd_cam_control(&c->cam[0], follow[i], &v, 0) == 0 &&
		    jd_cam_control(&c->cam[1], follow[i], &v, 1) != 0) {
			c->follow_failed++;
		}
	}
}
