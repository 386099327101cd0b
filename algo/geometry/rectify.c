#include "rectify.h"

#include <math.h>

/* Positions beyond this many pixels are "no source" (and stay far from int32 overflow). */
#define FAR 1.0e6f

static int32_t to_fixed(float v)
{
	if (!(v > -FAR && v < FAR)) {
		return INT32_MIN / 2; /* NaN or far away: outside */
	}
	return (int32_t)lrintf(v * (float)JD_REMAP_ONE);
}

void jd_remap_from_float(struct jd_remap *map, const float *mx, const float *my)
{
	size_t n = (size_t)map->width * map->height;

	for (size_t i = 0; i < n; i++) {
		map->sx[i] = to_fixed(mx[i]);
		map->sy[i] = to_fixed(my[i]);
	}
}

struct remap_job {
	const struct jd_remap *map;
	const struct jd_image *src;
	struct jd_image *dst;
};

static void remap_row(void *ctx, int y, int worker)
{
	const struct remap_job *job = ctx;
	const struct jd_image *s = job->src;
	const int32_t *sx = job->map->sx + (size_t)y * job->map->width;
	const int32_t *sy = job->map->sy + (size_t)y * job->map->width;
	uint8_t *out = job->dst->data + (size_t)y * job->dst->stride;

	(void)worker;
	for (int x = 0; x < job->map->width; x++) {
		int x0 = sx[x] >> JD_REMAP_FRAC_BITS, fx = sx[x] & (JD_REMAP_ONE - 1);
		int y0 = sy[x] >> JD_REMAP_FRAC_BITS, fy = sy[x] & (JD_REMAP_ONE - 1);

		if (x0 < 0 || y0 < 0 || x0 >= s->width || y0 >= s->height) {
			out[x] = 0;
			continue;
		}
		int x1 = x0 + 1 < s->width ? x0 + 1 : x0, y1 = y0 + 1 < s->height ? y0 + 1 : y0;
		const uint8_t *r0 = jd_image_row(s, y0), *r1 = jd_image_row(s, y1);
		int gx = JD_REMAP_ONE - fx, gy = JD_REMAP_ONE - fy;
		int v = r0[x0] * gx * gy + r0[x1] * fx * gy + r1[x0] * gx * fy + r1[x1] * fx * fy;

		out[x] = (uint8_t)((v + 512) >> 10);
	}
}

void jd_remap_ref(const struct jd_remap *map, const struct jd_image *src, struct jd_image *dst,
		  const struct jd_exec *ex)
{
	struct remap_job job = {map, src, dst};

	jd_exec_run(ex, map->height, remap_row, &job);
}
