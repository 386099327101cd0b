/* The camera-to-base pose files (app/formats/extrinsics.h): both forms, units, every refusal. */
#include <math.h>
#include <string.h>

#include "extrinsics.h"
#include "jd_test.h"

static int near(const double *m, const double *want)
{
	for (int i = 0; i < 16; i++) {
		if (fabs(m[i] - want[i]) > 1e-9) {
			return 0;
		}
	}
	return 1;
}

int main(void)
{
	double m[16];
	char err[300];
	/* x 0.5 m, a half turn about x (easy_handeye's YAML) */
	static const double half_x[16] = {1, 0, 0, 500, 0, -1, 0, -100, 0, 0, -1, 800, 0, 0, 0, 1};

	JD_CHECK(jd_extrinsics_parse("pose",
				     "translation:\n  x: 0.5\n  y: -0.1\n  z: 0.8\n"
				     "rotation:\n  x: 1.0\n  y: 0\n  z: 0\n  w: 0\n",
				     m, err, sizeof(err)) == 0 &&
		     near(m, half_x),
		 "tf pose: %s", err);
	JD_CHECK(jd_extrinsics_parse("pose", "0.5 -0.1 0.8 1 0 0 0", m, err, sizeof(err)) == 0 &&
		     near(m, half_x),
		 "bare line");
	JD_CHECK(jd_extrinsics_parse("m",
				     "rows: 4\ncols: 4\ndt: d\ndata: [1, 0, 0, 500, 0, -1, 0, "
				     "-100, 0, 0, -1, 800, 0, 0, 0, 1]\nunits: mm\n",
				     m, err, sizeof(err)) == 0 &&
		     near(m, half_x),
		 "OpenCV matrix in mm: %s", err);
	float p[3] = {10, 20, 30}, q[3];
	jd_extrinsics_point(half_x, p, q);
	JD_CHECK(q[0] == 510 && q[1] == -120 && q[2] == 770, "point %g %g %g", (double)q[0],
		 (double)q[1], (double)q[2]);
	jd_extrinsics_dir(half_x, p, q);
	JD_CHECK(q[0] == 10 && q[1] == -20 && q[2] == -30, "direction");

	JD_CHECK(jd_extrinsics_parse("f", "1 2 3", m, err, sizeof(err)) == -EINVAL &&
		     strstr(err, "f: 3 numbers"),
		 "count: %s", err);
	JD_CHECK(jd_extrinsics_parse("f", "0 0 0 0.5 0 0 0", m, err, sizeof(err)) == -EINVAL &&
		     strstr(err, "norm 0.5"),
		 "quaternion norm: %s", err);
	JD_CHECK(jd_extrinsics_parse("f", "2 0 0 0  0 1 0 0  0 0 1 0  0 0 0 1", m, err,
				     sizeof(err)) == -EINVAL &&
		     strstr(err, "not a rotation"),
		 "scaled: %s", err);
	JD_CHECK(jd_extrinsics_parse("f", "-1 0 0 0  0 1 0 0  0 0 1 0  0 0 0 1", m, err,
				     sizeof(err)) == -EINVAL &&
		     strstr(err, "reflection"),
		 "mirror: %s", err);
	JD_CHECK(jd_extrinsics_parse("f", "1 0 0 0  0 1 0 0  0 0 1 0  0 0 1 1", m, err,
				     sizeof(err)) == -EINVAL &&
		     strstr(err, "last row"),
		 "last row: %s", err);
	JD_CHECK(jd_extrinsics_load("/nonexistent/pose.yaml", m, err, sizeof(err)) == -ENOENT &&
		     strstr(err, "--extrinsics /nonexistent/pose.yaml: cannot open"),
		 "missing: %s", err);
	return jd_test_done("unit.extrinsics");
}
