#include "rectifier.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "../../algo/jd_carve.h"
#include "../../algo/kernels/kernels.h"

/* Both tables and the float maps they are built from; one layout sizes (base NULL) and carves. */
static void layout(struct jd_carve *c, struct jd_rectifier *r, int w, int h, float **mx, float **my)
{
	size_t n = (size_t)w * h;

	for (int i = 0; i < 2; i++) {
		r->map[i] = (struct jd_remap){w, h, jd_carve(c, sizeof(int32_t) * n),
					      jd_carve(c, sizeof(int32_t) * n)};
	}
	*mx = jd_carve(c, sizeof(float) * n);
	*my = jd_carve(c, sizeof(float) * n);
}

size_t jd_rectifier_mem_required(int w, int h)
{
	struct jd_carve c;
	struct jd_rectifier r;
	float *mx, *my;

	jd_carve_init(&c, NULL, 0);
	layout(&c, &r, w, h, &mx, &my);
	return jd_carve_total(&c);
}

int jd_rectifier_init(struct jd_rectifier *r, const struct jd_stereo_calib *c, int w, int h,
		      void *mem, size_t bytes)
{
	struct jd_carve mc;
	float *mx, *my;

	jd_carve_init(&mc, mem, bytes);
	layout(&mc, r, w, h, &mx, &my);
	if (mc.overflow) {
		return -ENOMEM;
	}
	for (int i = 0; i < 2; i++) {
		jd_calib_map(c, i, w, h, mx, my);
		jd_remap_from_float(&r->map[i], mx, my);
	}
	return 0;
}

void jd_rectifier_apply(const struct jd_rectifier *r, const struct jd_kernels *k,
			const struct jd_image *raw_left, const struct jd_image *raw_right,
			struct jd_image *left, struct jd_image *right, const struct jd_exec *ex)
{
	jd_remap_fn remap = k && k->remap ? k->remap : jd_remap_ref;

	remap(&r->map[0], raw_left, left, ex);
	remap(&r->map[1], raw_right, right, ex);
}

/* 1 where both cameras' maps land inside their raw w x h images. */
static unsigned char *coverage(const struct jd_stereo_calib *c, int w, int h)
{
	size_t n = (size_t)w * h;
	float *mx = malloc(sizeof(float) * n), *my = malloc(sizeof(float) * n);
	unsigned char *ok = malloc(n);

	if (!mx || !my || !ok) {
		free(mx);
		free(my);
		free(ok);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		ok[i] = 1;
	}
	for (int cam = 0; cam < 2; cam++) {
		jd_calib_map(c, cam, w, h, mx, my);
		for (size_t i = 0; i < n; i++) {
			ok[i] &= mx[i] >= 0 && mx[i] <= w - 1 && my[i] >= 0 && my[i] <= h - 1;
		}
	}
	free(mx);
	free(my);
	return ok;
}

int jd_rectified_valid_region(const struct jd_stereo_calib *c, int w, int h, int roi[4])
{
	unsigned char *ok = coverage(c, w, h);
	int x0 = 0, y0 = 0, x1 = w, y1 = h;

	if (!ok) {
		return -1;
	}
	/* Shrink the frame's rectangle from its worst side until every pixel is covered. */
	for (;;) {
		long bad[4] = {0, 0, 0,
			       0}; /* uncovered pixels on the left, top, right, bottom edge */
		for (int y = y0; y < y1; y++) {
			bad[0] += !ok[(size_t)y * w + x0];
			bad[2] += !ok[(size_t)y * w + x1 - 1];
		}
		for (int x = x0; x < x1; x++) {
			bad[1] += !ok[(size_t)y0 * w + x];
			bad[3] += !ok[(size_t)(y1 - 1) * w + x];
		}
		int worst = 0;
		for (int k = 1; k < 4; k++) {
			worst = bad[k] > bad[worst] ? k : worst;
		}
		if (bad[worst] == 0) {
			break;
		}
		if (worst == 0) {
			x0++;
		} else if (worst == 1) {
			y0++;
		} else if (worst == 2) {
			x1--;
		} else {
			y1--;
		}
		if (x0 >= x1 || y0 >= y1) {
			free(ok);
			return -1;
		}
	}
	free(ok);
	roi[0] = x0;
	roi[1] = y0;
	roi[2] = x1;
	roi[3] = y1;
	return 0;
}
