#include "sgm_priv.h"

struct census_job {
	const struct jd_image *im;
	uint64_t *out;
};

int jd_sgm_cost_max(enum jd_sgm_cost cost)
{
	return cost == JD_SGM_COST_AD ? 255 : JD_CENSUS_BITS;
}

static void census_row(void *ctx, int y, int worker)
{
	const struct census_job *job = ctx;
	const struct jd_image *im = job->im;
	const uint8_t *rows[JD_CENSUS_H];
	uint64_t *out = job->out + (size_t)y * im->width;

	(void)worker;
	for (int j = 0; j < JD_CENSUS_H; j++) {
		rows[j] = jd_image_row(im, jd_clampi(y + j - JD_CENSUS_H / 2, 0, im->height - 1));
	}
	for (int x = 0; x < im->width; x++) {
		out[x] = jd__census_pixel(rows, x, im->width);
	}
}

void jd_census_ref(const struct jd_image *im, uint64_t *out, const struct jd_exec *ex)
{
	struct census_job job = {im, out};

	jd_exec_run(ex, im->height, census_row, &job);
}

struct cost_job {
	const struct jd_match_params *p;
	const struct jd_image *l, *r;
	const uint64_t *cl, *cr;
	uint8_t *cost;
};

static void cost_row(void *ctx, int y, int worker)
{
	const struct cost_job *job = ctx;
	const struct jd_match_params *p = job->p;
	int w = job->l->width;
	int nd = p->ndisp;
	uint8_t cmax = (uint8_t)jd_sgm_cost_max(p->sgm.cost);
	int census = p->sgm.cost == JD_SGM_COST_CENSUS;
	const uint8_t *lrow = jd_image_row(job->l, y);
	const uint8_t *rrow = jd_image_row(job->r, y);
	const uint64_t *cl = job->cl + (size_t)y * w;
	const uint64_t *cr = job->cr + (size_t)y * w;

	(void)worker;
	for (int x = 0; x < w; x++) {
		uint8_t *c = job->cost + ((size_t)y * w + x) * nd;

		for (int d = 0; d < nd; d++) {
			c[d] = jd__sgm_cost_one(census, cmax, lrow, rrow, cl[x], cr, x,
						x - p->min_disp - d);
		}
	}
}

void jd_sgm_cost_ref(const struct jd_match_params *p, const struct jd_image *left,
		     const struct jd_image *right, const uint64_t *census_l,
		     const uint64_t *census_r, uint8_t *cost, const struct jd_exec *ex)
{
	struct cost_job job = {p, left, right, census_l, census_r, cost};

	jd_exec_run(ex, left->height, cost_row, &job);
}
