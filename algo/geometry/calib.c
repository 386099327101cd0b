#include "calib.h"

#include <errno.h>
#include <math.h>
#include <string.h>

void jd_rodrigues(const double v[3], double R[9])
{
	double th = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);

	if (th < 1e-12) {
		static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
		memcpy(R, I, sizeof(I));
		return;
	}
	double x = v[0] / th, y = v[1] / th, z = v[2] / th, c = cos(th), s = sin(th), t = 1 - c;
	double r[9] = {t * x * x + c,	  t * x * y - s * z, t * x * z + s * y,
		       t * x * y + s * z, t * y * y + c,     t * y * z - s * x,
		       t * x * z - s * y, t * y * z + s * x, t * z * z + c};
	memcpy(R, r, sizeof(r));
}

void jd_rodrigues_inv(const double R[9], double v[3])
{
	double c = (R[0] + R[4] + R[8] - 1) / 2;
	double th = acos(c < -1 ? -1 : c > 1 ? 1 : c);
	double s = sin(th);

	if (th < 1e-12) {
		v[0] = v[1] = v[2] = 0;
		return;
	}
	if (fabs(s) < 1e-6) {
		/* th near pi: the axis from the diagonal */
		double x = sqrt(fmax(0, (R[0] + 1) / 2)), y = sqrt(fmax(0, (R[4] + 1) / 2)),
		       z = sqrt(fmax(0, (R[8] + 1) / 2));
		y = R[1] < 0 ? -y : y;
		z = R[2] < 0 ? -z : z;
		v[0] = x * th;
		v[1] = y * th;
		v[2] = z * th;
		return;
	}
	v[0] = (R[7] - R[5]) / (2 * s) * th;
	v[1] = (R[2] - R[6]) / (2 * s) * th;
	v[2] = (R[3] - R[1]) / (2 * s) * th;
}

static void mul33(const double a[9], const double b[9], double out[9])
{
	double r[9];

	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++) {
			r[i * 3 + j] =
			    a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j];
		}
	}
	memcpy(out, r, sizeof(r));
}

static void transpose(const double a[9], double out[9])
{
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++) {
			out[j * 3 + i] = a[i * 3 + j];
		}
	}
}

/*
 * One principal point for both rectified views: the right's moved onto the left's, so that a
 * point at depth Z has disparity f B / Z (with cx' != cx it would be f B / Z + cx - cx').
 * Only the right view's map moves, by the whole shift; f, B and the left view stay.
 */
static void common_centre(struct jd_stereo_calib *c)
{
	double *pl = c->cam[0].P, *pr = c->cam[1].P;

	c->cx_right_file = pr[2];
	c->cy_right_file = pr[6];
	c->doffs = pl[2] - pr[2];
	pr[2] = pl[2];
	pr[6] = pl[6];
}

static int rectify_from_rt(struct jd_stereo_calib *c);

int jd_calib_rectify(struct jd_stereo_calib *c)
{
	if (!(c->cam[0].have_rect && c->cam[1].have_rect) && rectify_from_rt(c)) {
		return -EINVAL;
	}
	common_centre(c);
	return 0;
}

static int rectify_from_rt(struct jd_stereo_calib *c)
{
	double om[3], rr[9], rrt[9], t[3], ww[3], wr[9], uu[3] = {0, 0, 0};

	if (!c->have_rt) {
		return -EINVAL;
	}
	jd_rodrigues_inv(c->R, om);
	for (int i = 0; i < 3; i++) {
		om[i] *= -0.5;
	}
	jd_rodrigues(om, rr);
	for (int i = 0; i < 3; i++) {
		t[i] = rr[i * 3] * c->T[0] + rr[i * 3 + 1] * c->T[1] + rr[i * 3 + 2] * c->T[2];
	}
	double nt = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
	if (nt <= 0) {
		return -EINVAL;
	}
	uu[0] = t[0] > 0 ? 1 : -1; /* horizontal stereo: the baseline goes along x */
	ww[0] = t[1] * uu[2] - t[2] * uu[1];
	ww[1] = t[2] * uu[0] - t[0] * uu[2];
	ww[2] = t[0] * uu[1] - t[1] * uu[0];
	double nw = sqrt(ww[0] * ww[0] + ww[1] * ww[1] + ww[2] * ww[2]);
	if (nw > 0) {
		double a = acos(fabs(t[0]) / nt) / nw;
		for (int i = 0; i < 3; i++) {
			ww[i] *= a;
		}
	}
	jd_rodrigues(ww, wr);
	transpose(rr, rrt);
	mul33(wr, rrt, c->cam[0].R);
	mul33(wr, rr, c->cam[1].R);
	/* One rectified camera for both: the smaller focal length, the mean centre. */
	const double *k0 = c->cam[0].K, *k1 = c->cam[1].K;
	double f = fmin(k0[4], k1[4]), cx = (k0[2] + k1[2]) / 2, cy = (k0[5] + k1[5]) / 2;
	const double *r2 = c->cam[1].R;
	double tx = r2[0] * c->T[0] + r2[1] * c->T[1] + r2[2] * c->T[2];
	for (int i = 0; i < 2; i++) {
		double *P = c->cam[i].P;
		memset(P, 0, 12 * sizeof(double));
		P[0] = P[5] = f;
		P[2] = cx;
		P[6] = cy;
		P[10] = 1;
		P[3] = i ? tx * f : 0;
		c->cam[i].have_rect = 1;
	}
	return 0;
}

void jd_calib_model(const struct jd_stereo_calib *c, double *f, double *cx, double *cy,
		    double *baseline, double *units_mm)
{
	const double *pl = c->cam[0].P, *pr = c->cam[1].P;

	*f = pl[0];
	*cx = pl[2];
	*cy = pl[6];
	*baseline = pr[0] != 0 ? -pr[3] / pr[0] : 0;
	double b = fabs(*baseline);
	*units_mm = c->unit_mm > 0		? c->unit_mm
		    : b < JD_CALIB_METRES_BELOW ? 1000
		    : b >= JD_CALIB_MM_FROM	? 1
						: 0;
}

const char *jd_dist_name(enum jd_dist_model m, int ndist)
{
	if (m == JD_DIST_FISHEYE) {
		return "equidistant (fisheye)";
	}
	return ndist <= 5    ? "plumb_bob"
	       : ndist <= 8  ? "rational_polynomial"
	       : ndist <= 12 ? "thin prism"
			     : "tilted";
}

/* OpenCV's computeTiltProjectionMatrix: the sensor tilted by tauX, tauY (radians). */
static void tilt_matrix(double tx, double ty, double out[9])
{
	double cx = cos(tx), sx = sin(tx), cy = cos(ty), sy = sin(ty);
	const double rx[9] = {1, 0, 0, 0, cx, sx, 0, -sx, cx};
	const double ry[9] = {cy, 0, -sy, 0, 1, 0, sy, 0, cy};
	double rxy[9];

	mul33(ry, rx, rxy);
	const double pz[9] = {rxy[8], 0, -rxy[2], 0, rxy[8], -rxy[5], 0, 0, 1};
	mul33(pz, rxy, out);
}

/* The standard model: normalised (x, y) to the distorted, tilted (xd, yd). */
static void radtan(const double *D, const double *tilt, double x, double y, double *xd, double *yd)
{
	double x2 = x * x, y2 = y * y, r2 = x2 + y2, xy2 = 2 * x * y;
	double kr = (1 + ((D[4] * r2 + D[1]) * r2 + D[0]) * r2) /
		    (1 + ((D[7] * r2 + D[6]) * r2 + D[5]) * r2);
	double u = x * kr + D[2] * xy2 + D[3] * (r2 + 2 * x2) + D[8] * r2 + D[9] * r2 * r2;
	double v = y * kr + D[2] * (r2 + 2 * y2) + D[3] * xy2 + D[10] * r2 + D[11] * r2 * r2;
	double t0 = tilt[0] * u + tilt[1] * v + tilt[2], t1 = tilt[3] * u + tilt[4] * v + tilt[5];
	double t2 = tilt[6] * u + tilt[7] * v + tilt[8];
	double inv = t2 != 0 ? 1 / t2 : 1;

	*xd = t0 * inv;
	*yd = t1 * inv;
}

/* The fisheye model: the ray's angle theta, distorted to theta_d, at the ray's azimuth. */
static void fisheye(const double *D, double x, double y, double *xd, double *yd)
{
	double r = sqrt(x * x + y * y), th = atan(r), t2 = th * th;
	double thd = th * (1 + t2 * (D[0] + t2 * (D[1] + t2 * (D[2] + t2 * D[3]))));
	double s = r > 1e-8 ? thd / r : 1;

	*xd = x * s;
	*yd = y * s;
}

void jd_calib_map(const struct jd_stereo_calib *c, int i, int w, int h, float *mx, float *my)
{
	const struct jd_calib_camera *cam = &c->cam[i];
	const double *P = cam->P, *K = cam->K, *D = cam->D, *R = cam->R;
	double tilt[9];

	tilt_matrix(D[12], D[13], tilt);
	for (int v = 0; v < h; v++) {
		for (int u = 0; u < w; u++) {
			/* the rectified ray, back in the raw camera's frame (R^T) */
			double xr = (u - P[2]) / P[0], yr = (v - P[6]) / P[5];
			double X = R[0] * xr + R[3] * yr + R[6];
			double Y = R[1] * xr + R[4] * yr + R[7];
			double Z = R[2] * xr + R[5] * yr + R[8];
			size_t o = (size_t)v * w + u;
			if (Z <= 0) {
				mx[o] = my[o] = NAN;
				continue;
			}
			double xd, yd;
			if (cam->model == JD_DIST_FISHEYE) {
				fisheye(D, X / Z, Y / Z, &xd, &yd);
			} else {
				radtan(D, tilt, X / Z, Y / Z, &xd, &yd);
			}
			mx[o] = (float)(K[0] * xd + K[2]); /* no skew: as OpenCV's maps */
			my[o] = (float)(K[4] * yd + K[5]);
		}
	}
}
