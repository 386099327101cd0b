/*
 * Objects and the table as poses a robot can use (ROS 2's Detection3D boxes and the table's
 * PoseStamped, app/ros2/): an oriented box per object and the table's frame, in the rectified
 * left camera's frame (x right, y down, z forward; mm), orientation as a unit quaternion.
 */
#ifndef JD_ALGO_BOX3D_H
#define JD_ALGO_BOX3D_H

#include "sense.h"

struct jd_box3d {
	float centre_mm[3];
	float size_mm[3]; /* along the box's x, y, z axes */
	float q[4];	  /* x, y, z, w: the box's axes in the camera frame */
};

/**
 * The object's box. With a table: x along its long axis (yaw from the table's e1 towards e2),
 * z up from the table (towards the camera's side), centred halfway up from its footprint;
 * size length x width x height. Without one: centred on the object's 3D centroid, axes
 * the camera's, size its width x height at that depth and no extent in depth (0).
 */
void jd_object_box(const struct jd_plane *pl, const struct jd_object *o, struct jd_box3d *out);

/**
 * The table's frame: its origin where the optical axis meets the plane, z its normal towards
 * the camera, x the table's e1. Then the plane's distance from the camera is the origin's
 * component along -z (pl->k_mm). @retval 0, or -1 without a table
 */
int jd_table_pose(const struct jd_plane *pl, float origin_mm[3], float q[4]);

/** The unit quaternion (x, y, z, w) of the rotation whose columns are the axes x, y, z. */
void jd_quat_from_axes(const float x[3], const float y[3], const float z[3], float q[4]);

#endif
