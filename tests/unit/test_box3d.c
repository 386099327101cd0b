/*
 * algo/geometry/box3d.h: objects' boxes and the table's frame as poses (the ROS 2 topics'
 * geometry). A table tilted 40 degrees about x, an object on it with a known yaw: the box's axes,
 * centre and size; the quaternion of known rotations; the table's origin on the optical axis.
 */
#include <math.h>
#include <string.h>

#include "box3d.h"
#include "jd_test.h"

/* the columns of q's rotation */
static void axes(const float q[4], float x[3], float y[3], float z[3])
{
	float a = q[0], b = q[1], c = q[2], w = q[3];
	float m[3][3] = {{1 - 2 * (b * b + c * c), 2 * (a * b - c * w), 2 * (a * c + b * w)},
			 {2 * (a * b + c * w), 1 - 2 * (a * a + c * c), 2 * (b * c - a * w)},
			 {2 * (a * c - b * w), 2 * (b * c + a * w), 1 - 2 * (a * a + b * b)}};
	for (int i = 0; i < 3; i++) {
		x[i] = m[i][0];
		y[i] = m[i][1];
		z[i] = m[i][2];
	}
}

static int near3(const float a[3], const float b[3], float tol)
{
	return fabsf(a[0] - b[0]) <= tol && fabsf(a[1] - b[1]) <= tol && fabsf(a[2] - b[2]) <= tol;
}

int main(void)
{
	/* quaternions of known rotations: identity, 90 degrees about z, 180 about x */
	float q[4], x[3], y[3], z[3];
	const float ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0}, ez[3] = {0, 0, 1};
	const float mex[3] = {-1, 0, 0}, mey[3] = {0, -1, 0}, mez[3] = {0, 0, -1};
	jd_quat_from_axes(ex, ey, ez, q);
	JD_CHECK(fabsf(q[3] - 1) < 1e-6f && fabsf(q[0]) + fabsf(q[1]) + fabsf(q[2]) < 1e-6f,
		 "identity: %g %g %g %g", q[0], q[1], q[2], q[3]);
	jd_quat_from_axes(ey, mex, ez, q);
	JD_CHECK(fabsf(q[2] - sqrtf(0.5f)) < 1e-6f && fabsf(q[3] - sqrtf(0.5f)) < 1e-6f,
		 "90 about z: %g %g %g %g", q[0], q[1], q[2], q[3]);
	jd_quat_from_axes(ex, mey, mez, q);
	JD_CHECK(fabsf(fabsf(q[0]) - 1) < 1e-6f, "180 about x: %g %g %g %g", q[0], q[1], q[2],
		 q[3]);
	axes(q, x, y, z);
	JD_CHECK(near3(x, ex, 1e-6f) && near3(y, mey, 1e-6f) && near3(z, mez, 1e-6f),
		 "180 about x: axes back");

	/* a table 500 mm away along its normal, tilted 40 degrees: n towards the table */
	struct jd_plane pl;
	memset(&pl, 0, sizeof(pl));
	float t = 40.0f * (float)M_PI / 180.0f;
	pl.valid = 1;
	pl.n[0] = 0;
	pl.n[1] = sinf(t);
	pl.n[2] = cosf(t);
	pl.k_mm = 500;
	pl.e1[0] = 1; /* the camera's x lies on this table */
	pl.e2[0] = pl.n[1] * pl.e1[2] - pl.n[2] * pl.e1[1];
	pl.e2[1] = pl.n[2] * pl.e1[0] - pl.n[0] * pl.e1[2];
	pl.e2[2] = pl.n[0] * pl.e1[1] - pl.n[1] * pl.e1[0];
	float origin[3];
	JD_CHECK(jd_table_pose(&pl, origin, q) == 0, "table pose");
	const float on_axis[3] = {0, 0, 500 / cosf(t)};
	JD_CHECK(near3(origin, on_axis, 1e-3f), "table origin %g %g %g", origin[0], origin[1],
		 origin[2]);
	axes(q, x, y, z);
	const float up[3] = {-pl.n[0], -pl.n[1], -pl.n[2]};
	JD_CHECK(near3(z, up, 1e-5f) && near3(x, pl.e1, 1e-5f), "table axes");

	/* an object 100 mm tall, 80 x 40 mm, long axis 30 degrees from e1 towards e2 */
	struct jd_object o;
	memset(&o, 0, sizeof(o));
	o.yaw_deg = 30;
	o.length_mm = 80;
	o.width_mm = 40;
	o.height_mm = 100;
	for (int i = 0; i < 3; i++) {
		o.footprint_mm[i] = on_axis[i] + 50 * pl.e1[i];
	}
	struct jd_box3d b;
	jd_object_box(&pl, &o, &b);
	axes(b.q, x, y, z);
	float u[3], centre[3];
	for (int i = 0; i < 3; i++) {
		u[i] = cosf(30 * (float)M_PI / 180) * pl.e1[i] +
		       sinf(30 * (float)M_PI / 180) * pl.e2[i];
		centre[i] = o.footprint_mm[i] + 50 * up[i];
	}
	JD_CHECK(near3(x, u, 1e-5f) && near3(z, up, 1e-5f), "box axes: x %g %g %g", x[0], x[1],
		 x[2]);
	JD_CHECK(near3(b.centre_mm, centre, 1e-3f), "box centre %g %g %g", b.centre_mm[0],
		 b.centre_mm[1], b.centre_mm[2]);
	JD_CHECK(b.size_mm[0] == 80 && b.size_mm[1] == 40 && b.size_mm[2] == 100, "box size");

	/* without a table: the camera's axes at the centroid, no depth extent */
	pl.valid = 0;
	o.centroid_mm[2] = 700;
	o.size_mm[0] = 60;
	o.size_mm[1] = 90;
	jd_object_box(&pl, &o, &b);
	JD_CHECK(b.q[3] == 1 && b.centre_mm[2] == 700 && b.size_mm[0] == 60 && b.size_mm[1] == 90 &&
		     b.size_mm[2] == 0,
		 "no table: %g %g", b.q[3], b.size_mm[2]);
	JD_CHECK(jd_table_pose(&pl, origin, q) == -1, "no table: no pose");
	return jd_test_done("box3d");
}
