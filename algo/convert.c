#include "convert.h"

void jd_gray_from_rgb_ref(const uint8_t *rgb, int n, uint8_t *out)
{
	for (int i = 0; i < n; i++) {
		const uint8_t *p = rgb + 3 * i;
		out[i] = (uint8_t)((77 * p[0] + 150 * p[1] + 29 * p[2] + 128) >> 8);
	}
}

void jd_gray_from_yuyv_ref(const uint8_t *yuyv, int n, uint8_t *out)
{
	for (int i = 0; i < n; i++) {
		out[i] = yuyv[2 * i];
	}
}
