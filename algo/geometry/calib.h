/*
 * A stereo calibration and what follows from it: the rectified camera model (focal length,
 * principal point, baseline) and the undistort + rectify maps of each camera. Pure math on
 * numbers already read (app/formats/calib_yaml.c reads the two file formats).
 *
 * Conventions as OpenCV and ROS use them: K the camera matrix, D the distortion (below), R
 * the rectifying rotation, P the 3x4 projection of the rectified camera; for the right
 * camera P[0][3] = -f * B. Without R/P (an OpenCV file with only M1 D1 M2 D2 R T) they are
 * computed as OpenCV's stereoRectify does (Bouguet: each camera turned half-way, then both
 * so that the baseline lies along x), with the smaller focal length and the mean centre.
 */
#ifndef JD_ALGO_CALIB_H
#define JD_ALGO_CALIB_H

#include "rectify.h"

/*
 * Distortion models, as OpenCV computes them (initUndistortRectifyMap and its fisheye twin):
 *  - JD_DIST_RADTAN: OpenCV's standard model, D = k1 k2 p1 p2 [k3 [k4 k5 k6 [s1 s2 s3 s4
 *    [tauX tauY]]]] (4, 5, 8, 12 or 14 numbers; the missing ones are 0). ROS's plumb_bob (5)
 *    and rational_polynomial (8) and Kalibr's radtan (4) are this model.
 *  - JD_DIST_FISHEYE: OpenCV's fisheye model, D = k1 k2 k3 k4 on the angle of the ray;
 *    ROS's and Kalibr's equidistant.
 */
enum jd_dist_model { JD_DIST_RADTAN, JD_DIST_FISHEYE };
#define JD_DIST_MAX 14

struct jd_calib_camera {
	int width, height; /* 0 when the file does not say */
	double K[9], D[JD_DIST_MAX], R[9], P[12];
	enum jd_dist_model model;
	int ndist;     /* how many of D the file gave */
	int have_rect; /* R and P given */
};

/** "plumb_bob" etc.: the model's name with ndist numbers, for messages. */
const char *jd_dist_name(enum jd_dist_model m, int ndist);

/* Which file format the numbers came from (app/formats), for messages naming the keys. */
enum jd_calib_format { JD_CALIB_OPENCV, JD_CALIB_ROS, JD_CALIB_KALIBR };

struct jd_stereo_calib {
	struct jd_calib_camera cam[2];
	enum jd_calib_format format;
	int intrinsics_file, extrinsics_file; /* which of the files given held K, D / R, T, P */
	double R[9], T[3]; /* right from left: X2 = R X1 + T (OpenCV); have_rt says given */
	int have_rt;
	double
	    unit_mm; /* the length unit in mm where the file states it (units: mm, cm, m), else 0 */
	/*
	 * The file's right rectified principal point, where it differs from the left's (OpenCV's
	 * stereoRectify without CALIB_ZERO_DISPARITY, a ROS pair): jetdepth rectifies the right
	 * view onto the left's (jd_calib_rectify()), so that disparity is f B / Z everywhere
	 * (sensing, depth, the cloud, ROS 2, calib check). doffs = cx - cx' (px): what a pair
	 * rectified elsewhere with the file's own P2 has added to every disparity.
	 */
	double cx_right_file, cy_right_file, doffs;
};

/* A doffs below this (px) is rounding in the file, not an offset worth a word. */
#define JD_CALIB_DOFFS_PX 0.005

/**
 * Fill R and P of both cameras from K, D, R, T when the file had none; then put the right
 * rectified camera's principal point on the left's (doffs above says how far it was).
 * @retval 0 or -EINVAL
 */
int jd_calib_rectify(struct jd_stereo_calib *c);

/**
 * The rectified model: f = P_left[0][0], (cx, cy) = P_left[0][2], P_left[1][2], baseline =
 * -P_right[0][3] / P_right[0][0], in the calibration's length unit. units_mm: the unit the
 * file states (unit_mm); else guessed from the baseline, which a robot's rig has from
 * about 1.5 cm to 1 m: |B| < JD_CALIB_METRES_BELOW is metres (1000), |B| from
 * JD_CALIB_MM_FROM up is millimetres (1), and in between 0: unknown, for it could be
 * millimetres or centimetres (6.2 is a 62 mm rig in cm), and the caller must refuse it.
 */
#define JD_CALIB_METRES_BELOW 1.0
#define JD_CALIB_MM_FROM 25.0
void jd_calib_model(const struct jd_stereo_calib *c, double *f, double *cx, double *cy,
		    double *baseline, double *units_mm);

/**
 * The rectify map of camera i for a w x h output: for each rectified pixel, where it comes
 * from in the raw image (through P^-1, R^T, the distortion, K). mx, my: w*h floats each;
 * NaN where the ray points behind the camera.
 */
void jd_calib_map(const struct jd_stereo_calib *c, int i, int w, int h, float *mx, float *my);

/** Rotation matrix from a rotation vector and back (Rodrigues). */
void jd_rodrigues(const double v[3], double R[9]);
void jd_rodrigues_inv(const double R[9], double v[3]);

#endif
