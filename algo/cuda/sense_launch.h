/*
 * What sensing's object kernels take (sense_cuda.cu, sense_objects_cuda.cu), shared with the
 * host that fills it (hal/cuda/sense_cuda.c): plain floats and ints, one layout in C and CUDA.
 */
#ifndef JD_ALGO_CUDA_SENSE_LAUNCH_H
#define JD_ALGO_CUDA_SENSE_LAUNCH_H

struct jd_sense_px_args {
	float f, cx, cy, baseline_mm; /* the camera (jd_camera_model) */
	float a, b, c, n[3], k_mm;    /* the plane (jd_plane) */
	float e1[3], e2[3];	      /* the table's axes */
	float plane_tol, min_height_mm, fixed_disp;
	int roi[4]; /* x0, y0, x1, y1 (exclusive) */
	int fixed;  /* the fixed threshold instead of the plane */
	int w, h;
};

/* An object the measuring kernels take: its blob and its share of the pixel scratches. */
enum {
	JD_SOBJ_LABEL,
	JD_SOBJ_X0,
	JD_SOBJ_Y0,
	JD_SOBJ_X1,
	JD_SOBJ_Y1,
	JD_SOBJ_OFFSET,
	JD_SOBJ_INTS
};

/* The block the measuring kernels are built for and launched with. */
#define JD_SOBJ_THREADS 512

#endif
