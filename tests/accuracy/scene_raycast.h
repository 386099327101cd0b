/*
 * Tabletop scenes ray-cast into a rectified stereo pair, with the truth of every object: the
 * table a plane, boxes (any yaw), spheres and cylinders standing on it, a wall where it ends.
 * Every surface carries a 3D value-noise texture of its world point, so both cameras see
 * the same texture; 2x2 samples a pixel, Lambertian light, and a little sensor noise.
 * The truth is the left view's: which object each pixel sees, and per object its visible
 * pixels and the mean of their 3D points. With k1, k2 the images are raw (distorted), as a
 * camera gives them; the truth is then the undistorted view's (render once without them).
 */
#ifndef JD_TEST_SCENE_RAYCAST_H
#define JD_TEST_SCENE_RAYCAST_H

#include <stdint.h>

#include "jd_image.h"
#include "camera_model.h"

enum { JD_SCENE_MAX = 8 };

enum jd_scene_kind { JD_SCENE_BOX, JD_SCENE_SPHERE, JD_SCENE_CYLINDER, JD_SCENE_WALL };

/*
 * On the table at (u, v) mm from where the optical axis meets it (+u right, +v towards the
 * camera); a wall is a box never to be reported.
 */
struct jd_scene_obj {
	enum jd_scene_kind kind;
	double u, v;
	double sx, sy, height; /* box and wall: half sides and height; cylinder: radius sx */
	double yaw_deg;	       /* box: about the table's normal */
	double albedo;	       /* 0..1 */
};

struct jd_scene {
	struct jd_camera_model cam;
	int w, h;
	double tilt_deg, azimuth_deg, distance_mm; /* the table: its normal, its distance */
	double table_v_min; /* the table ends here (towards the far side); 0: no end */
	int n;
	struct jd_scene_obj o[JD_SCENE_MAX];
	uint32_t seed; /* texture and sensor noise */
	double k1, k2; /* the lenses' radial distortion (OpenCV's radtan), both cameras */
	/* the truth, filled by jd_scene_render() */
	long area[JD_SCENE_MAX];
	double centroid[JD_SCENE_MAX][3];
	double distance[JD_SCENE_MAX];
};

/** A scene at w x h with focal length f, baseline 60 mm, the table tilted and at distance. */
void jd_scene_init(struct jd_scene *s, int w, int h, double f, double tilt_deg, double azimuth_deg,
		   double distance_mm);

/**
 * Render the pair (w x h, stride w) and the left view's labels (-1: no object, else the
 * object's index); with labels, fills the truth (NULL: neither).
 */
void jd_scene_render(struct jd_scene *s, struct jd_image *left, struct jd_image *right,
		     int8_t *label);

#endif
