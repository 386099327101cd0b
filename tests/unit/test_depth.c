/*
 * algo/geometry/depth.h: the depth image and the point cloud of a small map worked by hand. Pixels
 * with no depth (invalid, zero, negative, NaN, a disparity so small that fb / d overflows)
 * are NaN in the image and absent from the cloud; the cloud keeps row order; x and y follow
 * the principal point and the focal length.
 */
#include <math.h>
#include <string.h>

#include "depth.h"
#include "jd_test.h"

int main(void)
{
	/* 4 x 2, stride 5 (the fifth column is outside the map and must not be read) */
	float d[10] = {2.0f, JD_DISP_INVALID, 0.0f, 4.0f, 9.0f, -1.0f, NAN, 8.0f, 1e-40f, 9.0f};
	struct jd_disp disp = {d, 4, 2, 5};
	uint8_t grey[8] = {10, 20, 30, 40, 50, 60, 70, 80};
	struct jd_image left = {grey, 4, 2, 4};
	/* f 100 px, principal point (1.5, 0.5), baseline 80 mm: fb = 8 m px */
	struct jd_camera_model cam = {100.0f, 1.5f, 0.5f, 80.0f};
	float fb = jd_fb_metres(&cam), z[8], pts[8 * JD_CLOUD_POINT_FLOATS];

	JD_CHECK(fb == 8.0f, "fb %g m px, 8 expected", (double)fb);
	jd_depth_image_ref(&disp, fb, z);
	JD_CHECK(z[0] == 4.0f && z[3] == 2.0f && z[6] == 1.0f, "depth %g %g %g, 4 2 1 expected",
		 (double)z[0], (double)z[3], (double)z[6]);
	static const int none[] = {1, 2, 4, 5, 7};
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		JD_CHECK(isnan(z[none[i]]), "pixel %d: depth %g where there is none", none[i],
			 (double)z[none[i]]);
	}
	long n = jd_point_cloud_ref(&disp, &left, &cam, fb, pts);
	JD_CHECK(n == 3, "%ld points, 3 expected", n);
	/* (u, v, z, grey): (0, 0, 4, 10), (3, 0, 2, 40), (2, 1, 1, 70) */
	float want[3][4] = {{-1.5f / 100 * 4, -0.5f / 100 * 4, 4, 10},
			    {1.5f / 100 * 2, -0.5f / 100 * 2, 2, 40},
			    {0.5f / 100 * 1, 0.5f / 100 * 1, 1, 70}};
	for (int k = 0; k < 3 && n == 3; k++) {
		float *p = pts + k * JD_CLOUD_POINT_FLOATS;
		for (int c = 0; c < 4; c++) {
			JD_CHECK(fabsf(p[c] - want[k][c]) <= 1e-6f,
				 "point %d coordinate %d: %g, %g "
				 "expected",
				 k, c, (double)p[c], (double)want[k][c]);
		}
		JD_CHECK(p[2] == z[k == 0   ? 0
				   : k == 1 ? 3
					    : 6],
			 "point %d: z is not the image's", k);
	}
	return jd_test_done("unit.depth");
}
