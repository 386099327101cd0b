#include <math.h>

#include "bp_priv.h"


void jd_bp_message_1d(float *h, int nd, float disc_k)
{
	float lo, cap, sum = 0.0f, mean;

	/* The minimum of h is also the minimum after both passes, so the cap is known early. */
	lo = h[0];
	for (int d = 1; d < nd; d++) {
		h[d] = jd__minf(h[d], h[d - 1] + 1.0f);
		lo = jd__minf(lo, h[d]);
	}
	cap = lo + disc_k;
	/* Backward pass, cap and sum in one descending sweep (capping inside is exact). */
	h[nd - 1] = jd__minf(h[nd - 1], cap);
	sum = h[nd - 1];
	for (int d = nd - 2; d >= 0; d--) {
		h[d] = jd__minf(jd__minf(h[d], h[d + 1] + 1.0f), cap);
		sum += h[d];
	}
	mean = sum / (float)nd;
	for (int d = 0; d < nd; d++) {
		h[d] -= mean;
	}
}


void jd_bp_prepare_image(const struct jd_image *im, float sigma, float *out, float *tmp)
{
	int w = im->width, h = im->height;
	float k[64];
	int rad;
	float norm = 0.0f;

	for (int y = 0; y < h; y++) {
		const uint8_t *row = jd_image_row(im, y);
		for (int x = 0; x < w; x++) {
			out[(size_t)y * w + x] = (float)row[x];
		}
	}
	if (sigma <= 0.0f) {
		return;
	}
	/* Separable Gaussian, radius ceil(4 sigma) as in F&H's smooth(); edges replicated. */
	rad = (int)ceilf(sigma * 4.0f);
	if (rad > 63) {
		rad = 63;
	}
	for (int i = 0; i <= rad; i++) {
		k[i] = expf(-0.5f * ((float)i / sigma) * ((float)i / sigma));
		norm += i == 0 ? k[i] : 2.0f * k[i];
	}
	for (int i = 0; i <= rad; i++) {
		k[i] /= norm;
	}
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			const float *r = out + (size_t)y * w;
			float s = k[0] * r[x];
			for (int i = 1; i <= rad; i++) {
				s += k[i] * (r[jd_clampi(x - i, 0, w - 1)] + r[jd_clampi(x + i, 0, w - 1)]);
			}
			tmp[(size_t)y * w + x] = s;
		}
	}
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			float s = k[0] * tmp[(size_t)y * w + x];
			for (int i = 1; i <= rad; i++) {
				s += k[i] * (tmp[(size_t)jd_clampi(y - i, 0, h - 1) * w + x] +
					     tmp[(size_t)jd_clampi(y + i, 0, h - 1) * w + x]);
			}
			out[(size_t)y * w + x] = s;
		}
	}
}
