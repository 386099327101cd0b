/*
 * Depth and the point cloud (algo/geometry/depth.h) on the GPU, as a stage of the frame staging
 * (hal/cuda/frame_cuda.h), for the ROS 2 topics: while they are subscribed (jd_cuda_cloud_want())
 * every frame finished gets them, made after sensing from the map masked by its confidence,
 * into one of a few pinned sets. The set is lent to whoever claims it after collect
 * (jd_cuda_cloud_claim()) until jd_cuda_cloud_release(), which any thread may call; a set
 * not claimed is free again at the next collect. With no set free a frame goes without (the
 * caller makes them on the CPU). The bits are jd_depth_image_ref()'s and
 * jd_point_cloud_ref()'s (tests/gpu).
 */
#ifndef JD_HAL_CUDA_CLOUD_H
#define JD_HAL_CUDA_CLOUD_H

#include "../../algo/geometry/camera_model.h"
#include "frame_cuda.h"

/* two frames in flight, and the two a publisher holds (the one it reads, the one waiting) */
#define JD_CUDA_CLOUD_SETS (JD_CUDA_SLOTS + 2)

/* What a frame gets made (bits). */
enum { JD_CUDA_CLOUD_DEPTH = 1, JD_CUDA_CLOUD_POINTS = 2 };

struct jd_cuda_cloud_set {
	float *depth;  /* pinned, w * h, metres (NaN: none) */
	float *points; /* pinned, x y z intensity per point, w * h points at most */
	int *npoints;  /* pinned */
	int made;      /* JD_CUDA_CLOUD_* made for its frame */
	int busy;      /* written or lent (atomic): not free */
};

struct jd_cuda_cloud {
	jd_cufunction depth_fn, count_fn, write_fn;
	jd_cudeviceptr d_counts;		     /* h row counts */
	jd_cudeviceptr d_depth, d_points, d_npoints; /* copy mode: where the kernels write */
	struct jd_cuda_cloud_set set[JD_CUDA_CLOUD_SETS];
	int in_slot[JD_CUDA_SLOTS]; /* the set each frame in flight is given (-1: none) */
	int last;		    /* the last collected frame's, not claimed yet (-1: none) */
	int want;		    /* JD_CUDA_CLOUD_* for each frame finished (0: off) */
	int min_conf;
	float fb, cx, cy, inv_f;
	int taken;
};

/**
 * Take the stage's buffers into cl and hang it on f (boot only, after jd_cuda_conf_take()).
 * @retval 0, -ENOMEM, -EPERM (sealed), -ENOENT (no kernel), -EINVAL (no confidence stage)
 */
int jd_cuda_cloud_take(struct jd_cuda *cu, struct jd_cuda_frame *f, struct jd_cuda_cloud *cl);

/**
 * Make what (JD_CUDA_CLOUD_* bits, 0: nothing) for each frame finished from now on, in metres
 * for camera cam (fb = jd_fb_metres()), with no depth where the confidence is below min_conf.
 * No effect when the stage is not taken.
 */
void jd_cuda_cloud_want(struct jd_cuda_frame *f, int what, int min_conf,
			const struct jd_camera_model *cam);

/** The set of the last frame collected, now the caller's (NULL: it has none). */
struct jd_cuda_cloud_set *jd_cuda_cloud_claim(struct jd_cuda_frame *f);

/** Give a claimed set back (any thread; token: the set). */
void jd_cuda_cloud_release(void *token);

/* The stage's row (stages_cuda.c): queue it for the frame being finished on stream 0, after
 * sensing; bring its set back (copy mode); the frame in slot idx was collected (-1: none). */
int jd__cuda_cloud_run(struct jd_cuda *cu, struct jd_cuda_frame *f, jd_cudeviceptr map);
int jd__cuda_cloud_download(struct jd_cuda *cu, struct jd_cuda_frame *f);
void jd__cuda_cloud_collected(struct jd_cuda_frame *f, int idx);

#endif
