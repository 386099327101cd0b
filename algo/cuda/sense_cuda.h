/*
 * The argument sensing's object-pixel kernel takes by value (sense_cuda.cu), shared with the
 * host that fills it (hal/cuda_sense.c): plain floats and ints, one layout in C and CUDA.
 */
#ifndef JD_ALGO_CUDA_SENSE_CUDA_H
#define JD_ALGO_CUDA_SENSE_CUDA_H

struct jd_sense_px_args {
	float f, cx, cy, baseline_mm;	/* the camera (jd_camera_model) */
	float a, b, c, n[3], k_mm;	/* the plane (jd_plane) */
	float plane_tol, min_height_mm, fixed_disp;
	int roi[4];			/* x0, y0, x1, y1 (exclusive) */
	int fixed;			/* the fixed threshold instead of the plane */
	int w, h;
};

#endif
