#include "preview_compose.h"

#include <math.h>

void jd_preview_colour(float d, float dmax, uint8_t out[3])
{
	if (!(d >= 0) || !isfinite(d) || dmax <= 0) {
		out[0] = out[1] = out[2] = 0;
		return;
	}
	float t = d / dmax;
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	/* three ramps of slope 4, clamped to 0 .. 1 (jd_algo builds without fused multiply-add) */
	float r = fminf(fmaxf(1.5f - fabsf(4 * t - 3), 0), 1);
	float g = fminf(fmaxf(1.5f - fabsf(4 * t - 2), 0), 1);
	float b = fminf(fmaxf(1.5f - fabsf(4 * t - 1), 0), 1);
	out[0] = (uint8_t)(255 * r);
	out[1] = (uint8_t)(255 * g);
	out[2] = (uint8_t)(255 * b);
}

void jd_preview_compose_ref(const struct jd_image *left, const struct jd_disp *disp,
			    const uint8_t *conf, int min_conf, float dmax, int step, uint8_t *rgb)
{
	int w = left->width, pw = jd_preview_scaled(w, step),
	    ph = jd_preview_scaled(left->height, step);

	for (int py = 0; py < ph; py++) {
		int y = py * step;
		const uint8_t *l = jd_image_row(left, y);
		const float *d = jd_disp_row(disp, y);
		const uint8_t *c = conf ? conf + (size_t)y * w : NULL;
		uint8_t *o = rgb + (size_t)py * pw * 6;

		for (int px = 0; px < pw; px++) {
			int x = px * step, distrusted = c && c[x] < min_conf;
			o[3 * px] = l[x];
			/* red where the depth is not trusted: green and blue at half */
			o[3 * px + 1] = o[3 * px + 2] = (uint8_t)(distrusted ? l[x] / 2 : l[x]);
			jd_preview_colour(distrusted ? JD_DISP_INVALID : d[x], dmax,
					  o + 3 * (pw + px));
		}
	}
}
