#include "synth.h"

#include <math.h>
#include <stdint.h>

#define NBOX 3

struct surface {
	float x0, x1, y0, y1; /* extent in left-image pixels */
	float d0, dy;	      /* disparity = d0 + dy * y */
	uint32_t seed;
};

static uint32_t hash3(uint32_t x, uint32_t y, uint32_t s)
{
	uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u ^ s * 0xcb1ab31fu;

	h ^= h >> 13;
	h *= 0x5bd1e995u;
	h ^= h >> 15;
	return h;
}

/* Bilinear value noise on a 1.5-pixel lattice: continuous, so sub-pixel shifts render right. */
static float texture(const struct surface *s, float u, float v)
{
	float fu = u / 1.5f + 4096.0f, fv = v / 1.5f + 4096.0f;
	uint32_t iu = (uint32_t)fu, iv = (uint32_t)fv;
	float au = fu - (float)iu, av = fv - (float)iv;
	float a = (float)(hash3(iu, iv, s->seed) & 255);
	float b = (float)(hash3(iu + 1, iv, s->seed) & 255);
	float c = (float)(hash3(iu, iv + 1, s->seed) & 255);
	float d = (float)(hash3(iu + 1, iv + 1, s->seed) & 255);
	float top = a + (b - a) * au, bot = c + (d - c) * au;

	return 0.7f * (top + (bot - top) * av) + 40.0f + 20.0f * sinf(u * 0.05f + s->seed);
}

static int scene(uint32_t seed, int frame, int w, int h, int ndisp, struct surface *s)
{
	float dmax = (float)ndisp * 0.85f, dmin = (float)ndisp * 0.25f;
	/* seed 0 is the classic scene; others shift the boxes and the drift's phase */
	float phase = (float)(hash3(seed, 17, 29) % 628) / 100.0f * (seed != 0);
	float drift = 6.0f * sinf((float)frame * 0.2f + phase);

	/* The table: disparity grows towards the bottom, as for a camera looking down at it. */
	s[0] = (struct surface){
	    -1e9f, 1e9f, -1e9f, 1e9f, dmin, (dmax * 0.75f - dmin) / (float)h, 1 + seed * 131u};
	for (int i = 0; i < NBOX; i++) {
		float jitter =
		    seed ? (float)(hash3(seed, (uint32_t)i, 3) % 100) / 100.0f - 0.5f : 0.0f;
		float cx =
		    (float)w * (0.3f + 0.25f * (float)i + 0.08f * jitter) + drift * (float)(i + 1);
		float bw = (float)w * 0.12f, bh = (float)h * (0.18f + 0.06f * (float)i);
		float cy = (float)h * 0.62f;

		s[1 + i] = (struct surface){cx - bw / 2,
					    cx + bw / 2,
					    cy - bh / 2,
					    cy + bh / 2,
					    roundf(dmax * (0.8f + 0.07f * (float)i)),
					    0.0f,
					    (uint32_t)(7 + i) + seed * 131u};
	}
	return NBOX + 1;
}

/* The nearest surface that covers left-image point (u, v), or -1. */
static int nearest(const struct surface *s, int n, float u, float v, float *disp)
{
	int best = -1;

	for (int i = 0; i < n; i++) {
		if (u >= s[i].x0 && u < s[i].x1 && v >= s[i].y0 && v < s[i].y1) {
			float d = s[i].d0 + s[i].dy * v;
			if (best < 0 || d > *disp) {
				best = i;
				*disp = d;
			}
		}
	}
	return best;
}

int jd_synth_objects(uint32_t seed, int frame, int w, int h, int ndisp,
		     struct jd_synth_object out[JD_SYNTH_MAX_OBJECTS])
{
	struct surface s[NBOX + 1];
	int n = scene(seed, frame, w, h, ndisp, s), k = 0;

	for (int i = 1; i < n; i++) {
		float x0 = s[i].x0 < 0 ? 0 : s[i].x0, x1 = s[i].x1 > (float)w ? (float)w : s[i].x1;
		if (x1 <= x0) {
			continue; /* drifted out of the frame */
		}
		out[k++] = (struct jd_synth_object){x0, s[i].y0, x1, s[i].y1, s[i].d0};
	}
	return k;
}

void jd_synth_render(int frame, int ndisp, struct jd_image *left, struct jd_image *right,
		     struct jd_disp *gt)
{
	jd_synth_render_seeded(0, frame, ndisp, left, right, gt);
}

struct render_job {
	struct surface s[NBOX + 1];
	int n;
	struct jd_image *left, *right;
	struct jd_disp *gt;
};

/* One row of both views (and of the truth): rows are independent, so workers share them. */
static void render_row(void *ctx, int y, int worker)
{
	const struct render_job *job = ctx;
	const struct surface *s = job->s;
	int n = job->n;
	uint8_t *l = job->left->data + (long)y * job->left->stride;
	uint8_t *r = job->right->data + (long)y * job->right->stride;
	float fy = (float)y;

	(void)worker;
	for (int x = 0; x < job->left->width; x++) {
		float d = 0.0f;
		int i = nearest(s, n, (float)x, fy, &d);
		float v = texture(&s[i], (float)x, fy);

		l[x] = (uint8_t)(v > 255.0f ? 255.0f : v);
		if (job->gt) {
			jd_disp_row(job->gt, y)[x] = d;
		}
	}
	for (int x = 0; x < job->right->width; x++) {
		/* The right pixel sees the nearest surface whose shifted copy covers it. */
		int best = -1;
		float bd = 0.0f;

		for (int k = 0; k < n; k++) {
			float dk = s[k].d0 + s[k].dy * fy;
			float u = (float)x + dk;
			if (u >= s[k].x0 && u < s[k].x1 && fy >= s[k].y0 && fy < s[k].y1 &&
			    (best < 0 || dk > bd)) {
				best = k;
				bd = dk;
			}
		}
		float v = texture(&s[best], (float)x + bd, fy);
		r[x] = (uint8_t)(v > 255.0f ? 255.0f : v);
	}
}

void jd_synth_render_seeded(uint32_t seed, int frame, int ndisp, struct jd_image *left,
			    struct jd_image *right, struct jd_disp *gt)
{
	jd_synth_render_par(seed, frame, ndisp, left, right, gt, NULL);
}

void jd_synth_render_par(uint32_t seed, int frame, int ndisp, struct jd_image *left,
			 struct jd_image *right, struct jd_disp *gt, const struct jd_exec *ex)
{
	struct render_job job = {.left = left, .right = right, .gt = gt};

	job.n = scene(seed, frame, left->width, left->height, ndisp, job.s);
	jd_exec_run(ex, left->height, render_row, &job);
}
