#include "depth.h"

#include <math.h>

void jd_depth_image_ref(const struct jd_disp *disp, float fb, float *out)
{
	int w = disp->width;

	for (int y = 0; y < disp->height; y++) {
		const float *row = jd_disp_row(disp, y);
		float *o = out + (size_t)y * w;
		for (int x = 0; x < w; x++) {
			float z = jd_depth_fb(fb, row[x]);
			o[x] = isfinite(z) ? z : NAN; /* fb / d overflows for a tiny d: no depth */
		}
	}
}

long jd_point_cloud_ref(const struct jd_disp *disp, const struct jd_image *left,
			const struct jd_camera_model *cam, float fb, float *xyzi)
{
	float inv_f = 1.0f / cam->f; /* one division a pixel: the depth image's, to the bit */
	long n = 0;

	for (int y = 0; y < disp->height; y++) {
		const float *row = jd_disp_row(disp, y);
		const uint8_t *grey = jd_image_row(left, y);
		float ry = ((float)y - cam->cy) * inv_f;
		for (int x = 0; x < disp->width; x++) {
			float z = jd_depth_fb(fb, row[x]);
			if (!isfinite(z)) {
				continue;
			}
			float *p = xyzi + (size_t)n * JD_CLOUD_POINT_FLOATS;
			p[0] = ((float)x - cam->cx) * inv_f * z;
			p[1] = ry * z;
			p[2] = z;
			p[3] = grey[x];
			n++;
		}
	}
	return n;
}
