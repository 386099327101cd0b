/*
 * From a calibration to rectified frames: the two cameras' undistort + rectify lookup
 * tables, built once (boot, or once per `jetdepth sense`) into the caller's memory, then
 * applied to each raw pair with bilinear interpolation (algo/geometry/rectify.h: integer, so every
 * backend gives the same bytes).
 */
#ifndef JD_APP_RECTIFIER_H
#define JD_APP_RECTIFIER_H

#include "../../algo/geometry/calib.h"
#include "../../algo/jd_exec.h"
#include "../../algo/geometry/rectify.h"

struct jd_rectifier {
	struct jd_remap map[2];
};

/** Memory jd_rectifier_init() carves for w x h frames (tables, and the floats to build them). */
size_t jd_rectifier_mem_required(int w, int h);

/** Build both tables in mem. @retval 0 or -ENOMEM */
int jd_rectifier_init(struct jd_rectifier *r, const struct jd_stereo_calib *c, int w, int h,
		      void *mem, size_t bytes);

/**
 * Rectify a raw pair into out (the tables' size) with the kernel table's remap (the NEON one
 * where boot chose it: the same bytes as the reference); k NULL: the reference.
 */
struct jd_kernels;
void jd_rectifier_apply(const struct jd_rectifier *r, const struct jd_kernels *k,
			const struct jd_image *raw_left, const struct jd_image *raw_right,
			struct jd_image *left, struct jd_image *right, const struct jd_exec *ex);

/**
 * The rectangle of the rectified w x h view whose every pixel both cameras see:
 * roi = x0, y0, x1, y1 (exclusive). Allocates its scratch (a tool, not the frame loop).
 * @retval 0, or -1 when there is none
 */
int jd_rectified_valid_region(const struct jd_stereo_calib *c, int w, int h, int roi[4]);

#endif
