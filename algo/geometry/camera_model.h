/*
 * The rectified left camera as depth needs it: focal length and principal point in px,
 * baseline in mm. Geometry's type: depth, the cloud, the cameras and sensing all read it.
 */
#ifndef JD_ALGO_CAMERA_MODEL_H
#define JD_ALGO_CAMERA_MODEL_H

/** The rectified left camera: focal length and principal point in px, baseline in mm. */
struct jd_camera_model {
	float f, cx, cy, baseline_mm;
};

#endif
