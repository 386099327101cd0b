#include "box3d.h"

#include <math.h>
#include <string.h>

static void cross(const float a[3], const float b[3], float out[3])
{
	out[0] = a[1] * b[2] - a[2] * b[1];
	out[1] = a[2] * b[0] - a[0] * b[2];
	out[2] = a[0] * b[1] - a[1] * b[0];
}

void jd_quat_from_axes(const float x[3], const float y[3], const float z[3], float q[4])
{
	/* Shepperd's method: divide by the largest of the four candidates (no cancellation) */
	double m00 = x[0], m11 = y[1], m22 = z[2], tr = m00 + m11 + m22;
	double qx, qy, qz, qw;

	if (tr > 0) {
		double s = 2.0 * sqrt(tr + 1.0);
		qw = 0.25 * s;
		qx = (y[2] - z[1]) / s;
		qy = (z[0] - x[2]) / s;
		qz = (x[1] - y[0]) / s;
	} else if (m00 > m11 && m00 > m22) {
		double s = 2.0 * sqrt(1.0 + m00 - m11 - m22);
		qw = (y[2] - z[1]) / s;
		qx = 0.25 * s;
		qy = (y[0] + x[1]) / s;
		qz = (z[0] + x[2]) / s;
	} else if (m11 > m22) {
		double s = 2.0 * sqrt(1.0 + m11 - m00 - m22);
		qw = (z[0] - x[2]) / s;
		qx = (y[0] + x[1]) / s;
		qy = 0.25 * s;
		qz = (z[1] + y[2]) / s;
	} else {
		double s = 2.0 * sqrt(1.0 + m22 - m00 - m11);
		qw = (x[1] - y[0]) / s;
		qx = (z[0] + x[2]) / s;
		qy = (z[1] + y[2]) / s;
		qz = 0.25 * s;
	}
	double len = sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
	double sign = qw < 0 ? -1.0 : 1.0; /* one of the two equal quaternions: w >= 0 */
	q[0] = (float)(sign * qx / len);
	q[1] = (float)(sign * qy / len);
	q[2] = (float)(sign * qz / len);
	q[3] = (float)(sign * qw / len);
}

void jd_object_box(const struct jd_plane *pl, const struct jd_object *o, struct jd_box3d *out)
{
	static const float ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0}, ez[3] = {0, 0, 1};

	if (!pl->valid || o->length_mm <= 0) {
		memcpy(out->centre_mm, o->centroid_mm, sizeof(out->centre_mm));
		out->size_mm[0] = o->size_mm[0];
		out->size_mm[1] = o->size_mm[1];
		out->size_mm[2] = 0;
		jd_quat_from_axes(ex, ey, ez, out->q);
		return;
	}
	float up[3] = {-pl->n[0], -pl->n[1], -pl->n[2]}; /* n points from the camera to the table */
	float yaw = o->yaw_deg * (float)M_PI / 180.0f, u[3], v[3];
	for (int i = 0; i < 3; i++) {
		u[i] = cosf(yaw) * pl->e1[i] + sinf(yaw) * pl->e2[i];
		out->centre_mm[i] = o->footprint_mm[i] + up[i] * o->height_mm / 2;
	}
	cross(up, u, v);
	out->size_mm[0] = o->length_mm;
	out->size_mm[1] = o->width_mm;
	out->size_mm[2] = o->height_mm;
	jd_quat_from_axes(u, v, up, out->q);
}

int jd_table_pose(const struct jd_plane *pl, float origin_mm[3], float q[4])
{
	/* a table faces the camera (its tilt is at most max_table_tilt_deg): n[2] > 0 */
	if (!pl->valid || !(pl->n[2] > 1e-3f)) {
		return -1;
	}
	float up[3] = {-pl->n[0], -pl->n[1], -pl->n[2]}, y[3];
	origin_mm[0] = origin_mm[1] = 0;
	origin_mm[2] = pl->k_mm / pl->n[2];
	cross(up, pl->e1, y);
	jd_quat_from_axes(pl->e1, y, up, q);
	return 0;
}
