#include "confidence.h"

#include <errno.h>
#include <math.h>

#include "jd_carve.h"

/* 5x5 windows: census bits and support neighbours both look 2 pixels around. */
#define R 2
#define NEIGHBOURS 24
/* A pixel whose disparity half its neighbours share claims its right-image column. */
#define TRUSTED_SUPPORT 12

struct conf_ws {
	uint32_t *census_l, *census_r;
	uint8_t *support; /* w * h: each pixel's support, 0 where it has no disparity */
	float *reach; /* w * h: per row, the largest trusted disparity from x to the reach's end */
	float *claim; /* per worker, a row: the nearest disparity mapped to each column */
};

static void layout(struct jd_carve *c, int w, int h, int nworkers, struct conf_ws *ws)
{
	size_t n = (size_t)w * h;

	ws->census_l = jd_carve(c, sizeof(uint32_t) * n);
	ws->census_r = jd_carve(c, sizeof(uint32_t) * n);
	ws->support = jd_carve(c, n);
	ws->reach = jd_carve(c, sizeof(float) * n);
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
	const struct jd_conf_search *search;
	uint8_t *conf;
	struct conf_ws ws;
};

/*
 * Bit k set where the k-th neighbour (row-major, centre skipped) is darker than the centre;
 * outside the image the edge repeats. One neighbour offset at a time over the whole row, so
 * the compiler vectorises the columns (the pixel-by-pixel form took 27 % of a 720p frame).
 */
static void census_row(const struct jd_image *im, int y, uint32_t *out)
{
	int w = im->width;
	const uint8_t *c = jd_image_row(im, y);

	for (int x = 0; x < w; x++) {
		out[x] = 0;
	}
	for (int dy = -R; dy <= R; dy++) {
		const uint8_t *row = jd_image_row(im, jd_clampi(y + dy, 0, im->height - 1));

		for (int dx = -R; dx <= R; dx++) {
			if (!dy && !dx) {
				continue;
			}
			int lo = dx < 0 ? -dx : 0, hi = dx > 0 ? w - dx : w;
			for (int x = 0; x < lo && x < w; x++) {
				out[x] = out[x] << 1 | (row[jd_clampi(x + dx, 0, w - 1)] < c[x]);
			}
			for (int x = lo; x < hi; x++) {
				out[x] = out[x] << 1 | (row[x + dx] < c[x]);
			}
			for (int x = hi > lo ? hi : lo; x < w; x++) {
				out[x] = out[x] << 1 | (row[jd_clampi(x + dx, 0, w - 1)] < c[x]);
			}
		}
	}
}

/* Bits set in v (SWAR: a loop over the set bits cost a branch a bit). */
static int popcount24(uint32_t v)
{
	v = v - ((v >> 1) & 0x55555555u);
	v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
	return (int)((((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/*
 * Each pixel's neighbours in 5x5 within 1 px of its disparity (0..24) into sup; rows[] are
 * the map's rows y-2..y+2 (NULL outside). Offset by offset over the row, as the census.
 * NaN and inf fail the comparison: invalid neighbours do not count.
 */
static void support_row(const float *const rows[2 * R + 1], int w, uint8_t *sup)
{
	const float *d = rows[R];

	for (int x = 0; x < w; x++) {
		sup[x] = 0;
	}
	for (int k = 0; k <= 2 * R; k++) {
		const float *row = rows[k];
		if (!row) {
			continue;
		}
		for (int dx = -R; dx <= R; dx++) {
			if (k == R && !dx) {
				continue;
			}
			int lo = dx < 0 ? -dx : 0, hi = dx > 0 ? w - dx : w;
			for (int x = lo; x < hi; x++) {
				sup[x] = (uint8_t)(sup[x] + (fabsf(row[x + dx] - d[x]) <= 1.0f));
			}
		}
	}
}

/*
 * The first pass, a row: the census of both images, each pixel's support (0 without a
 * disparity) and the row's reach, right to left from its end: the largest trusted disparity
 * in columns x .. end - 1.
 */
static void census_support_rows(void *ctx, int y, int worker)
{
	const struct conf_job *job = ctx;
	int w = job->left->width;
	size_t off = (size_t)y * w;
	const float *d = jd_disp_row(job->disp, y);
	uint8_t *sup = job->ws.support + off;
	float *reach = job->ws.reach + off;
	const float *rows[2 * R + 1];

	(void)worker;
	census_row(job->left, y, job->ws.census_l + off);
	census_row(job->right, y, job->ws.census_r + off);
	for (int k = 0; k <= 2 * R; k++) {
		int yy = y + k - R;
		rows[k] = yy >= 0 && yy < job->disp->height ? jd_disp_row(job->disp, yy) : NULL;
	}
	support_row(rows, w, sup);
	for (int x = 0; x < w; x++) {
		sup[x] = (uint8_t)(jd_disp_is_valid(d[x]) && d[x] > 0.0f ? sup[x] : 0);
	}
	int end = job->search ? jd_confidence_reach_end(w, job->search) : 0;
	for (int x = end - 1; x >= 0; x--) {
		float v = sup[x] >= TRUSTED_SUPPORT ? d[x] : 0.0f;
		float next = x + 1 < end ? reach[x + 1] : 0.0f;
		reach[x] = v > next ? v : next;
	}
}

/* The right-image column x - d rounded down (its neighbour up is claimed too). */
static int right_col(int x, float d)
{
	return x - (int)d - (d > (float)(int)d);
}

/* The reach of rows y - JD_CONF_REACH_ROWS .. y + JD_CONF_REACH_ROWS at column x: their max. */
static float reach_rows(const struct conf_job *job, int x, int y)
{
	int w = job->disp->width, h = job->disp->height;
	float best = 0.0f;

	for (int yy = y - JD_CONF_REACH_ROWS; yy <= y + JD_CONF_REACH_ROWS; yy++) {
		float v = yy >= 0 && yy < h ? job->ws.reach[(size_t)yy * w + x] : 0.0f;
		best = v > best ? v : best;
	}
	return best;
}

static void conf_row(void *ctx, int y, int worker)
{
	const struct conf_job *job = ctx;
	const float *d = jd_disp_row(job->disp, y);
	int w = job->disp->width;
	uint8_t *out = job->conf + (size_t)y * w;
	const uint8_t *sup = job->ws.support + (size_t)y * w;
	float *claim = job->ws.claim + (size_t)worker * w;
	const uint32_t *cl = job->ws.census_l + (size_t)y * w,
		       *cr = job->ws.census_r + (size_t)y * w;

	for (int x = 0; x < w; x++) {
		claim[x] = 0.0f;
	}
	for (int x = 0; x < w; x++) {
		int xr = sup[x] ? right_col(x, d[x]) : -1; /* sup 0 where invalid */

		for (int k = 0; k < 2 && xr >= 0 && sup[x] >= TRUSTED_SUPPORT; k++) {
			if (xr + k < w && claim[xr + k] < d[x]) {
				claim[xr + k] = d[x];
			}
		}
	}
	int end = job->search ? jd_confidence_reach_end(w, job->search) : 0;
	for (int x = 0; x < w; x++) {
		int xr = right_col(x, d[x]);
		int near = (int)(d[x] + 0.5f);

		/*
		 * No depth, a match outside the right image (the band at the left edge) or in its
		 * first columns (the true match may lie a fraction of a pixel outside, and a match
		 * a pixel or two off there is most of what was published where none exists), or
		 * a right-image column a nearer surface covers: nothing the right camera saw.
		 */
		if (!sup[x] && (!jd_disp_is_valid(d[x]) || !(d[x] > 0.0f))) {
			out[x] = 0;
			continue;
		}
		if (xr < JD_CONF_EDGE_COLS || x - near < 0 || claim[xr] > d[x] + 1.0f ||
		    (xr + 1 < w && claim[xr + 1] > d[x] + 1.0f)) {
			out[x] = 0;
			continue;
		}
		int s = sup[x];
		int agree = NEIGHBOURS - 2 * popcount24(cl[x] ^ cr[x - near]);
		agree = agree < 0 ? 0 : agree;
		long num = 254L * agree * s * s;

		out[x] =
		    jd_confidence_cut((uint8_t)(1 + num / (NEIGHBOURS * NEIGHBOURS * NEIGHBOURS)),
				      x, x < end ? reach_rows(job, x, y) : 0.0f, job->search);
	}
}

int jd_confidence_ref(const struct jd_image *left, const struct jd_image *right,
		      const struct jd_disp *disp, const struct jd_conf_search *s, uint8_t *conf,
		      void *ws, size_t ws_bytes, const struct jd_exec *ex)
{
	int w = disp->width, h = disp->height;
	struct jd_carve c;
	struct conf_job job = {left, right, disp, s, conf, {0}};

	if (left->width != w || left->height != h || right->width != w || right->height != h) {
		return -EINVAL;
	}
	jd_carve_init(&c, ws, ws_bytes);
	layout(&c, w, h, jd_exec_workers(ex), &job.ws);
	if (c.overflow || !ws) {
		return -ENOMEM;
	}
	jd_exec_run(ex, h, census_support_rows, &job);
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
