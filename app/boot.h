/*
 * Boot for the commands that match: size every buffer from the parameters, print the budget,
 * map one arena, carve it, seal it, start the workers. After jd_boot_init() nothing allocates.
 */
#ifndef JD_APP_BOOT_H
#define JD_APP_BOOT_H

#include <stdio.h>

#include "../algo/jd_image.h"
#include "../algo/jd_params.h"
#include "../algo/kernels.h"
#include "../algo/rectify.h"
#include "../algo/tiling.h"
#include "../hal/board.h"
#include "../hal/cuda.h"
#include "../hal/cuda_bp.h"
#include "../hal/cuda_cloud.h"
#include "../hal/cuda_sad.h"
#include "../hal/cuda_sense.h"
#include "../hal/cuda_sgm.h"
#include "../hal/pool.h"
#include "../hal/tuning.h"
#include "../hal/workers.h"

struct jd_boot {
	struct jd_budget budget;
	struct jd_arena arena;
	struct jd_workers workers;
	struct jd_image left, right; /* frame buffers in the arena */
	struct jd_disp disp, gt[2];  /* gt only when asked for: one per frame in flight */
	void *ws;
	size_t ws_bytes;
	void *loop_mem; /* the frame loop stages' boot memory: cameras, sensing */
	struct jd_tiling tiling; /* n == 1: whole frames */
	struct jd_disp strip;	 /* a strip's map when tiled */
	size_t loop_bytes;
	struct jd_kernels kernels; /* chosen once here: --backend / $JD_BACKEND, CPU, board */
	int gpu;		   /* the matcher runs on the GPU (CUDA kernels for it exist) */
	int cpu_pending;	   /* a CPU frame matched by submit, not yet collected */
	int gpu_rectify;	   /* the GPU can rectify raw frames (jd_boot_rectify_on_gpu) */
	struct jd_cuda cuda;
	struct jd_cuda_sad sad_gpu;
	struct jd_cuda_sgm sgm_gpu;
	struct jd_cuda_bp bp_gpu;
	struct jd_cuda_sense sense_gpu; /* taken with the GPU confidence stage */
	struct jd_cuda_cloud cloud_gpu; /* taken with JD_BOOT_CLOUD */
	struct jd_tuning tuning;	/* the tuning file boot read (GPU BP) */
	char bp_variant[JD_CUDA_BP_VARIANT_LEN]; /* the BP kernel it chose */
};

/* What the frame loop asks of boot besides the matcher (jd_boot_init()'s stages). */
enum {
	/* Each is taken where whole frames go to the GPU (not with strips). */
	/* frames arrive unrectified: the GPU takes the memory to rectify them (b->gpu_rectify;
	 * jd_boot_rectify_on_gpu()) */
	JD_BOOT_RAW_FRAMES = 1,
	/* the ROS 2 topics are published: the GPU takes the memory to make depth and the cloud
	 * (hal/cuda_cloud.h: JD_CUDA_CLOUD_SETS pinned sets, 20 bytes a pixel each) */
	JD_BOOT_CLOUD = 2,
	/* someone may watch the preview: the GPU takes one picture, 6 bytes a pixel device and
	 * pinned (hal/cuda_preview.h; jd_boot_gpu_preview_want()) */
	JD_BOOT_PREVIEW = 4,
};

/* What boot is given: everything it sizes and chooses from, in one place. */
struct jd_boot_config {
	const struct jd_match_params *p;
	int w, h, threads;
	int gt_maps;	   /* ground-truth maps to carve, 0 to 2 (the synthetic camera's) */
	size_t loop_bytes; /* the frame loop's own stages: cameras, sensing (0: none) */
	unsigned stages;   /* JD_BOOT_* bits (0: none) */
	const struct jd_board *board; /* its memory ceiling bounds the budget (NULL: the RAM) */
	FILE *log;		      /* where the budget goes (NULL: silent) */
	enum jd_backend backend;      /* what was asked for (jd_cli_boot_choices()) */
	enum jd_gpu_memory gpu_memory;
	const char *tuning_path; /* the GPU tuning file to read */
};

/**
 * Size every buffer, print the budget, map, carve and seal the arenas, start the workers.
 * @retval 0, or a negative errno with the reason printed to stderr
 */
int jd_boot_init(struct jd_boot *b, const struct jd_boot_config *c);

/**
 * From now on b->left/right take raw frames, which the GPU rectifies with these tables
 * (both cameras, built at boot) before matching; collect writes the matched frame's
 * rectified left back into b->left. @retval 0, -ENOTSUP (!b->gpu_rectify), -EINVAL, -EIO
 */
int jd_boot_rectify_on_gpu(struct jd_boot *b, const struct jd_match_params *p,
			   const struct jd_remap map[2]);

void jd_boot_deinit(struct jd_boot *b);

/**
 * Match the pair in b->left/right into b->disp with the backend chosen at boot. Allocates
 * nothing. @retval 0 or a negative errno (a GPU failure is printed with the failed call)
 */
int jd_boot_match(struct jd_boot *b, const struct jd_match_params *p);

/*
 * The same split in two, so that the next frame's capture and upload overlap this one's
 * compute: submit queues the pair in b->left/right (they are free again on return), collect
 * writes the oldest queued frame's map into b->disp. On the CPU submit does the work and
 * collect returns at once. Up to jd_boot_depth() frames may be queued.
 * @retval 0, a negative errno, -EBUSY (queue full), -ENOENT (collect with nothing queued)
 */
int jd_boot_submit(struct jd_boot *b, const struct jd_match_params *p);
int jd_boot_collect(struct jd_boot *b, const struct jd_match_params *p);
int jd_boot_depth(const struct jd_boot *b);

/**
 * From now on the GPU lends what jd_boot_collect() returns instead of copying it: b->disp
 * points at the frame's pinned map, and a pair the GPU rectified stays in its slot
 * (jd_boot_gpu_pair()). Both stay as they are until the next jd_boot_submit(). No effect on
 * the CPU or with strips. @return 1 when it lends (the map and the pair), else 0
 */
int jd_boot_lend(struct jd_boot *b, const struct jd_match_params *p);

/**
 * Where the GPU lends (jd_boot_lend()): point b->left and b->right at
 * the pinned slot the next submit stages, so that the pair is written there once and not
 * copied at submit. Call before each capture. @retval 1 pointed, 0 (b->left/right as they were)
 */
int jd_boot_gpu_capture_into(struct jd_boot *b, const struct jd_match_params *p);

/**
 * Where the GPU rectifies and lends: the pinned buffers (cap bytes each) the next submit
 * sends as they are, so that a camera writes each view there in its own layout and the
 * device takes the luma (hal/cuda_frame.h). Call before each capture, then
 * jd_boot_gpu_raw_staged() with the layouts written. @retval 1, or 0 (capture to gray)
 */
int jd_boot_gpu_raw_into(struct jd_boot *b, const struct jd_match_params *p,
			 unsigned char *data[2], size_t *cap);
/** @retval 0, or -EINVAL (no raw slot, or a layout the device cannot read) */
int jd_boot_gpu_raw_staged(struct jd_boot *b, const struct jd_match_params *p,
			   const enum jd_pixfmt fmt[2]);

/**
 * The rectified pair of the frame jd_boot_collect() just returned, where the GPU rectified
 * it and lends it (views, w bytes a row, valid until the next submit). @retval 1, or 0: none
 */
int jd_boot_gpu_pair(struct jd_boot *b, const struct jd_match_params *p, struct jd_image *l,
		     struct jd_image *r);

/**
 * The confidence map (algo/confidence.h) the GPU made with the frame jd_boot_collect() just
 * returned, w bytes a row, valid until the next submit into its slot; NULL where the CPU must
 * make it (no GPU, or strips).
 */
const uint8_t *jd_boot_gpu_confidence(struct jd_boot *b, const struct jd_match_params *p);

/**
 * Compose the preview's picture (algo/preview_compose.h) on the GPU for the next frame
 * submitted, distrusting what has less than min_conf, colours over 0 .. dmax.
 * @return 1, or 0 where the CPU must compose it (no GPU, strips, no JD_BOOT_PREVIEW)
 */
int jd_boot_gpu_preview_want(struct jd_boot *b, const struct jd_match_params *p, int min_conf,
			     float dmax);

/**
 * Make depth and the cloud (hal/cuda_cloud.h) on the GPU for each frame submitted from now
 * on: what (JD_CUDA_CLOUD_* bits, 0 stops) for camera cam, no depth below min_conf (the map's
 * mask). @return 1, or 0 where the CPU must make them (no GPU, strips, no JD_BOOT_CLOUD)
 */
int jd_boot_gpu_cloud_want(struct jd_boot *b, const struct jd_match_params *p, int what,
			   int min_conf, const struct jd_camera_model *cam);

/**
 * What the GPU made for the frame jd_boot_collect() just returned, now the caller's until
 * jd_cuda_cloud_release(); NULL: nothing made for it.
 */
struct jd_cuda_cloud_set *jd_boot_gpu_cloud(struct jd_boot *b, const struct jd_match_params *p);

/**
 * The picture the GPU composed for the frame jd_boot_collect() just returned (2w x h RGB,
 * writable, valid until the next submit), or NULL: none for this frame.
 */
uint8_t *jd_boot_gpu_preview(struct jd_boot *b, const struct jd_match_params *p);

/**
 * Sense on the GPU from now on (hal/cuda_sense.h): each frame's map is masked there by
 * min_conf as the caller masks b->disp (jd_confidence_mask()); with mask_map the map
 * jd_boot_collect() returns is already masked (the caller must not score it unmasked).
 * @return 1, or 0 where the CPU must sense (no GPU, or strips)
 */
int jd_boot_gpu_sense_start(struct jd_boot *b, int min_conf, int mask_map);

/**
 * jd_sense_run() on the frame jd_boot_collect() just returned, its per-pixel work on the
 * GPU: b->disp must be masked by the min_conf given to jd_boot_gpu_sense_start(). The same
 * result. @retval 0 or a negative errno (a GPU failure is printed)
 */
int jd_boot_gpu_sense(struct jd_boot *b, const struct jd_sense_params *sp,
		      const struct jd_camera_model *cam, void *ws, size_t ws_bytes,
		      struct jd_sense_result *out);

#endif
