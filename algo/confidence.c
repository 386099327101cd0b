#include "confidence.h"

#include <errno.h>

#include "jd_carve.h"

/* 5x5 windows: census bits and support neighbours both look 2 pixels around. */
#define R 2
#define NEIGHBOURS 24
/* A pixel whose disparity half its neighbours share claims its right-image column. */
#define TRUSTED_SUPPORT 12

struct conf_ws {
	uint32_t *census_l, *census_r;
	uint8_t *support; /* per worker, a row */
	float *claim;	  /* per worker, a row: the nearest disparity mapped to each column */
};

static void layout(struct jd_carve *c, int w, int h, int nworkers, struct conf_ws *ws)
{
	size_t n = (size_t)w * h;

	ws->census_l = jd_carve(c, sizeof(uint32_t) * n);
	ws->census_r = jd_carve(c, sizeof(uint32_t) * n);
	ws->support = jd_carve(c, (size_t)nworkers * w);
	ws->claim = jd_carve(c, sizeof(float) * nworkers * w);
}

size_t jd_confidence_mem_required(int width, int height, int nworkers)
{
	struct jd_carve c;
	struct conf_ws ws;

	jd_carve_init(&c, NULL, 0);
	layout(&c, width, height, nworkers, &ws);
	return jd_carve_total(&c);
}

struct conf_job {
	const struct jd_image *left, *right;
	const struct jd_disp *disp;
	uint8_t *conf;
	struct conf_ws ws;
};

/* Bit k set where the k-th neighbour (row-major, centre skipped) is darker than the centre. */
static void census_row(const struct jd_image *im, int y, uint32_t *out)
{
	int w = im->width;

	for (int x = 0; x < w; x++) {
		int c = jd_image_row(im, y)[x];
		uint32_t bits = 0;

		for (int dy = -R; dy <= R; dy++) {
			const uint8_t *row = jd_image_row(im, jd_clampi(y + dy, 0, im->height - 1));

			for (int dx = -R; dx <= R; dx++) {
				if (dy || dx) {
					bits = bits << 1 | (row[jd_clampi(x + dx, 0, w - 1)] < c);
				}
			}
		}
		out[x] = bits;
	}
}

static void census_rows(void *ctx, int y, int worker)
{
	const struct conf_job *job = ctx;
	size_t off = (size_t)y * job->left->width;

	(void)worker;
	census_row(job->left, y, job->ws.census_l + off);
	census_row(job->right, y, job->ws.census_r + off);
}

static int popcount24(uint32_t v)
{
	int n = 0;

	for (; v; v &= v - 1) {
		n++;
	}
	return n;
}

/* Neighbours in 5x5 within 1 px of d (0..24). */
static int support(const struct jd_disp *disp, int x, int y, float d)
{
	int n = 0;

	for (int yy = y - R; yy <= y + R; yy++) {
		if (yy < 0 || yy >= disp->height) {
			continue;
		}
		const float *row = jd_disp_row(disp, yy);
		for (int xx = x - R; xx <= x + R; xx++) {
			if (xx >= 0 && xx < disp->width && (xx != x || yy != y) &&
			    jd_disp_is_valid(row[xx]) && row[xx] - d <= 1.0f && d - row[xx] <= 1.0f) {
				n++;
			}
		}
	}
	return n;
}

/* The right-image column x - d rounded down (its neighbour up is claimed too). */
static int right_col(int x, float d)
{
	return x - (int)d - (d > (float)(int)d);
}

static void conf_row(void *ctx, int y, int worker)
{
	const struct conf_job *job = ctx;
	const float *d = jd_disp_row(job->disp, y);
	int w = job->disp->width;
	uint8_t *out = job->conf + (size_t)y * w, *sup = job->ws.support + (size_t)worker * w;
	float *claim = job->ws.claim + (size_t)worker * w;
	const uint32_t *cl = job->ws.census_l + (size_t)y * w, *cr = job->ws.census_r + (size_t)y * w;

	for (int x = 0; x < w; x++) {
		claim[x] = 0.0f;
	}
	for (int x = 0; x < w; x++) {
		int valid = jd_disp_is_valid(d[x]) && d[x] > 0.0f;
		int xr = valid ? right_col(x, d[x]) : -1;

		sup[x] = (uint8_t)(valid ? support(job->disp, x, y, d[x]) : 0);
		for (int k = 0; k < 2 && xr >= 0 && sup[x] >= TRUSTED_SUPPORT; k++) {
			if (xr + k < w && claim[xr + k] < d[x]) {
				claim[xr + k] = d[x];
			}
		}
	}
	for (int x = 0; x < w; x++) {
		int xr = right_col(x, d[x]);
		int near = (int)(d[x] + 0.5f);

		/*
		 * No depth, a match outside the right image (the band at the left edge), or a
		 * right-image column a nearer surface covers: nothing the right camera saw.
		 */
		if (!sup[x] && (!jd_disp_is_valid(d[x]) || !(d[x] > 0.0f))) {
			out[x] = 0;
			continue;
		}
		if (xr < 0 || x - near < 0 || claim[xr] > d[x] + 1.0f ||
		    (xr + 1 < w && claim[xr + 1] > d[x] + 1.0f)) {
			out[x] = 0;
			continue;
		}
		int s = sup[x];
		int agree = NEIGHBOURS - 2 * popcount24(cl[x] ^ cr[x - near]);
		agree = agree < 0 ? 0 : agree;
		long num = 254L * agree * s * s;

		out[x] = (uint8_t)(1 + num / (NEIGHBOURS * NEIGHBOURS * NEIGHBOURS));
	}
}

int jd_confidence_ref(const struct jd_image *left, const struct jd_image *right,
		      const struct jd_disp *disp, uint8_t *conf, void *ws, size_t ws_bytes,
		      const struct jd_exec *ex)
{
	int w = disp->width, h = disp->height;
	struct jd_carve c;
	struct conf_job job = {left, right, disp, conf, {0}};

	if (left->width != w || left->height != h || right->width != w || right->height != h) {
		return -EINVAL;
	}
	jd_carve_init(&c, ws, ws_bytes);
	layout(&c, w, h, jd_exec_workers(ex), &job.ws);
	if (c.overflow || !ws) {
		return -ENOMEM;
	}
	jd_exec_run(ex, h, census_rows, &job);
	jd_exec_run(ex, h, conf_row, &job);
	return 0;
}

void jd_confidence_mask(struct jd_disp *disp, const uint8_t *conf, int min)
{
	for (int y = 0; y < disp->height; y++) {
		float *row = jd_disp_row(disp, y);

		for (int x = 0; x < disp->width; x++) {
			if (conf[(size_t)y * disp->width + x] < min) {
				row[x] = JD_DISP_INVALID;
			}
		}
	}
}
