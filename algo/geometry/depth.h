/*
 * Depth from disparity, one rule for the dumps, the ROS 2 topics and sensing's callers:
 * Z = f * B / d on the rectified left camera (x right, y down, z forward), in the baseline's
 * unit (mm for struct jd_camera_model).
 */
#ifndef JD_ALGO_DEPTH_H
#define JD_ALGO_DEPTH_H

#include "jd_image.h"
#include "camera_model.h"

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

/** f * B in metres (the ROS 2 topics' unit), one rule for the CPU and the GPU. */
static inline float jd_fb_metres(const struct jd_camera_model *cam)
{
	return cam->f * cam->baseline_mm / 1000.0f;
}

/** The 3D point (mm) seen at pixel (x, y) at depth z mm. */
static inline void jd_point_mm(const struct jd_camera_model *cam, float x, float y, float z,
			       float p[3])
{
	p[0] = (x - cam->cx) * z / cam->f;
	p[1] = (y - cam->cy) * z / cam->f;
	p[2] = z;
}

/*
 * The depth image and the point cloud of a whole map (the ROS 2 topics; their GPU twins are
 * algo/cuda/cloud_cuda.cu, the same bits). fb = f * B in the unit wanted (metres for ROS).
 */

/** z = fb / d per pixel into out (w x h, packed), NaN where there is no depth. */
void jd_depth_image_ref(const struct jd_disp *disp, float fb, float *out);

/* a point of the cloud: x, y, z in fb's unit, the left view's grey (0..255) */
#define JD_CLOUD_POINT_FLOATS 4

/**
 * The points of the pixels with depth, in row order, into xyzi (JD_CLOUD_POINT_FLOATS a
 * point, w x h points at most): x = (u - cx) / f * z, y = (v - cy) / f * z.
 * @return the number of points
 */
long jd_point_cloud_ref(const struct jd_disp *disp, const struct jd_image *left,
			const struct jd_camera_model *cam, float fb, float *xyzi);

#endif
