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
			r[i * 3 + j] = a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j];
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

int jd_calib_rectify(struct jd_stereo_calib *c)
{
	double om[3], rr[9], rrt[9], t[3], ww[3], wr[9], uu[3] = {0, 0, 0};

	if (c->cam[0].have_rect && c->cam[1].have_rect) {
		return 0;
	}
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
	*units_mm = c->unit_mm > 0		 ? c->unit_mm
		    : b < JD_CALIB_METRES_BELOW ? 1000
		    : b >= JD_CALIB_MM_FROM	 ? 1
						 : 0;
}

void jd_calib_map(const struct jd_stereo_calib *c, int i, int w, int h, float *mx, float *my)
{
	const struct jd_calib_camera *cam = &c->cam[i];
	const double *P = cam->P, *K = cam->K, *D = cam->D, *R = cam->R;

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
			double x = X / Z, y = Y / Z, r2 = x * x + y * y;
			double rad = 1 + D[0] * r2 + D[1] * r2 * r2 + D[4] * r2 * r2 * r2;
			double xd = x * rad + 2 * D[2] * x * y + D[3] * (r2 + 2 * x * x);
			double yd = y * rad + D[2] * (r2 + 2 * y * y) + 2 * D[3] * x * y;
			mx[o] = (float)(K[0] * xd + K[1] * yd + K[2]);
			my[o] = (float)(K[4] * yd + K[5]);
		}
	}
}
