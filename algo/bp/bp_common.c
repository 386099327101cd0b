#include <math.h>

#include "bp_priv.h"

struct census_job {
	const float *in;
	float *out;
	int w, h;
};

static void census_row(void *arg, int y, int worker)
{
	const struct census_job *job = arg;
	int w = job->w, r = JD_BP_CENSUS_RADIUS;

	(void)worker;
	for (int x = 0; x < w; x++) {
		float c = job->in[(size_t)y * w + x] - JD_BP_CENSUS_T;
		uint32_t code = 0;

		for (int dy = -r; dy <= r; dy++) {
			const float *row = job->in + (size_t)jd_clampi(y + dy, 0, job->h - 1) * w;

			for (int dx = -r; dx <= r; dx++) {
				if (dx || dy) {
					code = code << 1 | (row[jd_clampi(x + dx, 0, w - 1)] < c);
				}
			}
		}
		memcpy(&job->out[(size_t)y * w + x], &code, sizeof(code));
	}
}

void jd_bp_census(const float *in, int w, int h, float *out, const struct jd_exec *ex)
{
	struct census_job job = {in, out, w, h};

	jd_exec_run(ex, h, census_row, &job);
}

void jd_bp_message_1d(float *h, int nd, float disc_k)
{
	float lo, cap;

	/* The minimum of h is also the minimum after both passes, so the cap is known early. */
	lo = h[0];
	for (int d = 1; d < nd; d++) {
		h[d] = jd__minf(h[d], h[d - 1] + 1.0f);
		lo = jd__minf(lo, h[d]);
	}
	cap = lo + disc_k;
	h[nd - 1] = jd__minf(h[nd - 1], cap);
	for (int d = nd - 2; d >= 0; d--) {
		h[d] = jd__minf(jd__minf(h[d], h[d + 1] + 1.0f), cap);
	}
	for (int d = 0; d < nd; d++) {
		h[d] -= lo; /* normalised by the minimum: exact, where the mean was not */
	}
}

void jd_bp_gauss(float sigma, struct jd_bp_gauss *g)
{
	float norm = 0.0f;

	g->rad = 0;
	if (sigma <= 0.0f) {
		return;
	}
	/* Separable Gaussian, radius ceil(4 sigma) as in F&H's smooth(). */
	g->rad = (int)ceilf(sigma * 4.0f);
	if (g->rad > JD_BP_GAUSS_TAPS - 1) {
		g->rad = JD_BP_GAUSS_TAPS - 1;
	}
	for (int i = 0; i <= g->rad; i++) {
		g->k[i] = expf(-0.5f * ((float)i / sigma) * ((float)i / sigma));
		norm += i == 0 ? g->k[i] : 2.0f * g->k[i];
	}
	for (int i = 0; i <= g->rad; i++) {
		g->k[i] /= norm;
	}
}

void jd_bp_prepare_image(const struct jd_image *im, float sigma, float *out, float *tmp)
{
	int w = im->width, h = im->height;
	struct jd_bp_gauss g;

	for (int y = 0; y < h; y++) {
		const uint8_t *row = jd_image_row(im, y);
		for (int x = 0; x < w; x++) {
			out[(size_t)y * w + x] = (float)row[x];
		}
	}
	jd_bp_gauss(sigma, &g);
	if (!g.rad) {
		return;
	}
	/* along rows, then columns; edges replicated (the GPU's jd_bp_smooth_cuda the same) */
	const float *k = g.k;
	int rad = g.rad;
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			const float *r = out + (size_t)y * w;
			float s = k[0] * r[x];
			for (int i = 1; i <= rad; i++) {
				s += k[i] * (r[jd_clampi(x - i, 0, w - 1)] +
					     r[jd_clampi(x + i, 0, w - 1)]);
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

float jd_bp_disc_k(const struct jd_match_params *p)
{
	return jd_bp_quantise(p->bp.disc_k > 0.0f ? p->bp.disc_k : (float)p->ndisp / 7.5f);
}
