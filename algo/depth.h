/*
 * Depth from disparity, one rule for the dumps, the ROS 2 topics and sensing's callers:
 * Z = f * B / d on the rectified left camera (x right, y down, z forward), in the baseline's
 * unit (mm for struct jd_camera_model).
 */
#ifndef JD_ALGO_DEPTH_H
#define JD_ALGO_DEPTH_H

#include "jd_image.h"
#include "sense.h"

/** Z of a disparity given fb = f * B in the unit wanted, or +inf where there is none. */
static inline float jd_depth_fb(float fb, float d)
{
	return d > 0 && jd_disp_is_valid(d) ? fb / d : INFINITY;
}

/** Z in mm of a disparity, or +inf where there is none (invalid, zero or negative). */
static inline float jd_depth_mm(const struct jd_camera_model *cam, float d)
{
	return jd_depth_fb(cam->f * cam->baseline_mm, d);
}

/** The 3D point (mm) seen at pixel (x, y) at depth z mm. */
static inline void jd_point_mm(const struct jd_camera_model *cam, float x, float y, float z,
			       float p[3])
{
	p[0] = (x - cam->cx) * z / cam->f;
	p[1] = (y - cam->cy) * z / cam->f;
	p[2] = z;
}

#endif
