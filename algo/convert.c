#include "convert.h"
#include "convert_priv.h"

#include <stddef.h>

void jd_gray_from_rgb_ref(const uint8_t *rgb, int n, uint8_t *out)
{
	for (int i = 0; i < n; i++) {
		const uint8_t *p = rgb + 3 * i;
		out[i] = (uint8_t)((77 * p[0] + 150 * p[1] + 29 * p[2] + 128) >> 8);
	}
}

void jd_gray_from_samples(const uint8_t *row, int n, int channels, int wide, unsigned maxval,
			  uint8_t *out)
{
	for (int i = 0; i < n; i++) {
		int v[3];
		for (int c = 0; c < channels; c++) {
			const uint8_t *s = row + ((size_t)i * channels + c) * (wide ? 2 : 1);
			unsigned x = wide ? (unsigned)s[0] << 8 | s[1] : s[0];
			x = x > maxval ? maxval : x;
			v[c] = (int)(maxval == 255 ? x : (x * 255u + maxval / 2) / maxval);
		}
		out[i] = channels == 1 ? (uint8_t)v[0]
				       : (uint8_t)((77 * v[0] + 150 * v[1] + 29 * v[2] + 128) >> 8);
	}
}

void jd_gray_from_yuyv_ref(const uint8_t *yuyv, int n, uint8_t *out)
{
	for (int i = 0; i < n; i++) {
		out[i] = yuyv[2 * i];
	}
}

void jd_gray_from_uyvy_ref(const uint8_t *uyvy, int n, uint8_t *out)
{
	for (int i = 0; i < n; i++) {
		out[i] = uyvy[2 * i + 1];
	}
}

void jd_gray_from_mono16_ref(const uint8_t *row, int n, int bits, uint8_t *out)
{
	for (int i = 0; i < n; i++) {
		out[i] = jd__top8(jd_sample16(row + 2 * i), bits);
	}
}

void jd_gray_from_bayer_ref(const uint8_t *up, const uint8_t *row, const uint8_t *down, int n,
			    int bits, int r_col, int r_row, uint8_t *out)
{
	for (int i = 0; i < n; i++) {
		out[i] = jd__bayer_pixel(up, row, down, n, bits, r_col, r_row, i);
	}
}

int jd_bayer_mirror_row(int i, int n)
{
	return jd__mirror(i, n);
}
