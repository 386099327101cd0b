#include "extrinsics.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Numbers of a matrix or pose file; OpenCV's matrix header fields are not part of it. */
static int numbers(const char *text, double *v, int max, int *mm)
{
	char word[32] = "";
	int n = 0;
	const char *p = text;

	*mm = 0;
	while (*p) {
		if (isalpha((unsigned char)*p) || *p == '_') {
			size_t k = 0;
			while (isalnum((unsigned char)*p) || *p == '_') {
				if (k + 1 < sizeof(word)) {
					word[k++] = *p;
				}
				p++;
			}
			word[k] = '\0';
			if (strcmp(word, "mm") == 0) {
				*mm = 1;
			}
			continue;
		}
		char *end;
		double x = strtod(p, &end);
		if (end == p ||
		    (!isdigit((unsigned char)*p) && *p != '-' && *p != '+' && *p != '.')) {
			p++;
			continue;
		}
		p = end;
		if (strcmp(word, "rows") == 0 || strcmp(word, "cols") == 0) {
			word[0] = '\0';
			continue; /* OpenCV's matrix header */
		}
		word[0] = '\0';
		if (n < max) {
			v[n] = x;
		}
		n++;
	}
	return n;
}

/*
 * A hand-eye translation in metres is a few metres at most: a camera more than
 * JD_EXTRINSICS_MAX_M from the robot's base is a file in millimetres without its unit line.
 */
#define JD_EXTRINSICS_MAX_M 20.0

static int plausible_metres(const char *name, const double t[3], int stride, char *err,
			    size_t errlen)
{
	double d = sqrt(t[0] * t[0] + t[stride] * t[stride] + t[2 * stride] * t[2 * stride]);

	if (d > JD_EXTRINSICS_MAX_M) {
		snprintf(err, errlen,
			 "%s: the translation (%g, %g, %g) is %g m from the robot's base: is the "
			 "file in millimetres? Add a line \"units: mm\" (no unit means metres)",
			 name, t[0], t[stride], t[2 * stride], d);
		return -EINVAL;
	}
	return 0;
}

int jd_extrinsics_parse(const char *name, const char *text, double m[16], char *err, size_t errlen)
{
	double v[16];
	int mm, n = numbers(text, v, 16, &mm);
	double scale = mm ? 1.0 : 1000.0;

	memset(m, 0, 16 * sizeof(double));
	if (n == 7) {
		double qx = v[3], qy = v[4], qz = v[5], qw = v[6];
		double q = sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
		if (!(fabs(q - 1.0) < 1e-3)) {
			snprintf(err, errlen,
				 "%s: quaternion (%g %g %g %g) has norm %g, not 1: not a "
				 "rotation (order: x y z qx qy qz qw)",
				 name, qx, qy, qz, qw, q);
			return -EINVAL;
		}
		if (!mm && plausible_metres(name, v, 1, err, errlen)) {
			return -EINVAL;
		}
		qx /= q, qy /= q, qz /= q, qw /= q;
		double r[9] = {1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw),
			       2 * (qx * qz + qy * qw),	    2 * (qx * qy + qz * qw),
			       1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw),
			       2 * (qx * qz - qy * qw),	    2 * (qy * qz + qx * qw),
			       1 - 2 * (qx * qx + qy * qy)};
		for (int i = 0; i < 3; i++) {
			m[4 * i + 0] = r[3 * i + 0];
			m[4 * i + 1] = r[3 * i + 1];
			m[4 * i + 2] = r[3 * i + 2];
			m[4 * i + 3] = v[i] * scale;
		}
		m[15] = 1.0;
		return 0;
	}
	if (n != 16) {
		snprintf(err, errlen,
			 "%s: %d numbers: need 16 (a 4x4 matrix) or 7 (x y z qx qy qz "
			 "qw)",
			 name, n);
		return -EINVAL;
	}
	if (fabs(v[12]) > 1e-6 || fabs(v[13]) > 1e-6 || fabs(v[14]) > 1e-6 ||
	    fabs(v[15] - 1.0) > 1e-6) {
		snprintf(err, errlen, "%s: the last row is %g %g %g %g, not 0 0 0 1", name, v[12],
			 v[13], v[14], v[15]);
		return -EINVAL;
	}
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++) {
			double dotp = 0.0;
			for (int k = 0; k < 3; k++) {
				dotp += v[4 * i + k] * v[4 * j + k];
			}
			if (fabs(dotp - (i == j)) > 1e-3) {
				snprintf(err, errlen,
					 "%s: the upper-left 3x3 is not a rotation (rows %d "
					 "and %d: dot product %g)",
					 name, i, j, dotp);
				return -EINVAL;
			}
		}
	}
	double det = v[0] * (v[5] * v[10] - v[6] * v[9]) - v[1] * (v[4] * v[10] - v[6] * v[8]) +
		     v[2] * (v[4] * v[9] - v[5] * v[8]);
	if (det < 0.0) {
		snprintf(err, errlen, "%s: the rotation is a reflection (determinant %g)", name,
			 det);
		return -EINVAL;
	}
	if (!mm && plausible_metres(name, v + 3, 4, err, errlen)) {
		return -EINVAL;
	}
	memcpy(m, v, sizeof(v));
	for (int i = 0; i < 3; i++) {
		m[4 * i + 3] *= scale;
	}
	return 0;
}

int jd_extrinsics_load(const char *path, double m[16], char *err, size_t errlen)
{
	char text[8192];
	FILE *f = fopen(path, "r");

	if (!f) {
		int e = errno;
		snprintf(err, errlen, "--extrinsics %s: cannot open: %s", path, strerror(e));
		return -ENOENT;
	}
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	int big = !feof(f);
	fclose(f);
	if (big) {
		snprintf(err, errlen, "--extrinsics %s: larger than %zu bytes: not a pose file",
			 path, sizeof(text) - 1);
		return -EINVAL;
	}
	text[n] = '\0';
	char name[600];
	snprintf(name, sizeof(name), "--extrinsics %s", path);
	return jd_extrinsics_parse(name, text, m, err, errlen);
}

void jd_extrinsics_point(const double m[16], const float p[3], float out[3])
{
	for (int i = 0; i < 3; i++) {
		out[i] = (float)(m[4 * i] * p[0] + m[4 * i + 1] * p[1] + m[4 * i + 2] * p[2] +
				 m[4 * i + 3]);
	}
}

void jd_extrinsics_dir(const double m[16], const float v[3], float out[3])
{
	for (int i = 0; i < 3; i++) {
		out[i] = (float)(m[4 * i] * v[0] + m[4 * i + 1] * v[1] + m[4 * i + 2] * v[2]);
	}
}
