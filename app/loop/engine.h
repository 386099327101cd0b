/*
 * The engine boot builds (app/loop/boot.h): every buffer carved once, the kernels chosen, the GPU
 * and its stages taken. Its functions run the frame loop's matching and GPU stages on it;
 * none allocates.
 */
#ifndef JD_APP_ENGINE_H
#define JD_APP_ENGINE_H

#include "../../algo/jd_image.h"
#include "../../algo/match/jd_params.h"
#include "../../algo/kernels.h"
#include "../../algo/geometry/rectify.h"
#include "../../algo/sense/sense.h"
#include "../../algo/match/tiling.h"
#include "../../hal/cuda/cuda.h"
#include "../../hal/cuda/bp_cuda.h"
#include "../../hal/cuda/cloud_cuda.h"
#include "../../hal/cuda/matcher_cuda.h"
#include "../../hal/cuda/sense_cuda.h"
#include "../../hal/pool.h"
#include "../../hal/cuda/tuning.h"
#include "../../hal/workers.h"

struct jd_engine {
	struct jd_budget budget;
	struct jd_arena arena;
	struct jd_workers workers;
	struct jd_image left, right; /* frame buffers in the arena */
	struct jd_disp disp, gt[2];  /* gt only when asked for: one per frame in flight */
	void *ws;
	size_t ws_bytes;
	void *loop_mem;		 /* the frame loop stages' boot memory: cameras, sensing */
	struct jd_tiling tiling; /* n == 1: whole frames */
	struct jd_disp strip;	 /* a strip's map when tiled */
	size_t loop_bytes;
	struct jd_kernels kernels; /* chosen once here: --backend / $JD_BACKEND, CPU, board */
	int gpu;		   /* the matcher runs on the GPU (CUDA kernels for it exist) */
	int cpu_pending;	   /* a CPU frame matched by submit, not yet collected */
	int gpu_rectify;	   /* the GPU can rectify raw frames (jd_engine_rectify_on_gpu()) */
	struct jd_cuda cuda;
	struct jd_cuda_matcher matcher; /* the GPU's and its stages (hal/cuda/matcher_cuda.h) */
	struct jd_tuning tuning;		 /* the tuning file boot read (GPU BP) */
	char bp_variant[JD_CUDA_BP_VARIANT_LEN]; /* the BP kernel it chose */
};

/**
 * From now on b->left/right take raw frames, which the GPU rectifies with these tables
 * (both cameras, built at boot) before matching; collect writes the matched frame's
 * rectified left back into b->left. @retval 0, -ENOTSUP (!b->gpu_rectify), -EINVAL, -EIO
 */
int jd_engine_rectify_on_gpu(struct jd_engine *b, const struct jd_remap map[2]);

/**
 * Match the pair in b->left/right into b->disp with the backend chosen at boot. Allocates
 * nothing. @retval 0 or a negative errno (a GPU failure is printed with the failed call)
 */
int jd_engine_match(struct jd_engine *b, const struct jd_match_params *p);

/*
 * The same split in two, so that the next frame's capture and upload overlap this one's
 * compute: submit queues the pair in b->left/right (they are free again on return), collect
 * writes the oldest queued frame's map into b->disp. On the CPU submit does the work and
 * collect returns at once. Up to jd_engine_depth() frames may be queued.
 * @retval 0, a negative errno, -EBUSY (queue full), -ENOENT (collect with nothing queued)
 */
int jd_engine_submit(struct jd_engine *b, const struct jd_match_params *p);
int jd_engine_collect(struct jd_engine *b);
int jd_engine_depth(const struct jd_engine *b);

/**
 * From now on the GPU lends what jd_engine_collect() returns instead of copying it: b->disp
 * points at the frame's pinned map, and a pair the GPU rectified stays in its slot
 * (jd_engine_gpu_pair()). Both stay as they are until the next jd_engine_submit(). No effect on
 * the CPU or with strips. @return 1 when it lends (the map and the pair), else 0
 */
int jd_engine_lend(struct jd_engine *b);

/**
 * Where the GPU lends (jd_engine_lend()): point b->left and b->right at
 * the pinned slot the next submit stages, so that the pair is written there once and not
 * copied at submit. Call before each capture. @retval 1 pointed, 0 (b->left/right as they were)
 */
int jd_engine_gpu_capture_into(struct jd_engine *b);

/**
 * Where the GPU rectifies and lends: the pinned buffers (cap bytes each) the next submit
 * sends as they are, so that a camera writes each view there in its own layout and the
 * device takes the luma (hal/cuda/frame_cuda.h). Call before each capture, then
 * jd_engine_gpu_raw_staged() with the layouts written. @retval 1, or 0 (capture to gray)
 */
int jd_engine_gpu_raw_into(struct jd_engine *b, unsigned char *data[2], size_t *cap);
/** @retval 0, or -EINVAL (no raw slot, or a layout the device cannot read) */
int jd_engine_gpu_raw_staged(struct jd_engine *b, const enum jd_pixfmt fmt[2]);

/**
 * What frames submitted from now on bring back to the host where the GPU matches whole
 * frames in copy mode (JD_CUDA_BACK_* bits of hal/cuda/frame_cuda.h; boot: all). No effect
 * on the CPU, with strips, or in mapped mode, where everything is on the host.
 */
void jd_engine_bring_back(struct jd_engine *b, unsigned what);

/**
 * What the frame jd_engine_collect() just returned has on the host (JD_CUDA_BACK_* bits):
 * all of it but where jd_engine_bring_back() left something on the device. Without the map
 * b->disp is not that frame's (lent: its data NULL); without the pair or the confidence
 * jd_engine_gpu_pair() and jd_engine_gpu_confidence() give none.
 */
unsigned jd_engine_on_host(struct jd_engine *b);

/** Does the GPU make each frame's confidence (jd_engine_gpu_confidence(), when on the host)? */
int jd_engine_gpu_makes_confidence(struct jd_engine *b);

/**
 * The rectified pair of the frame jd_engine_collect() just returned, where the GPU rectified
 * it and lends it (views, w bytes a row, valid until the next submit). @retval 1, or 0: none
 */
int jd_engine_gpu_pair(struct jd_engine *b, struct jd_image *l, struct jd_image *r);

/**
 * The confidence map (algo/match/confidence.h) the GPU made with the frame jd_engine_collect() just
 * returned, w bytes a row, valid until the next submit into its slot; NULL where the CPU must
 * make it (no GPU, or strips).
 */
const uint8_t *jd_engine_gpu_confidence(struct jd_engine *b);

/**
 * Compose the preview's picture (algo/preview_compose.h) on the GPU for the next frame
 * submitted, distrusting what has less than min_conf, colours over 0 .. dmax.
 * @return 1, or 0 where the CPU must compose it (no GPU, strips, no JD_BOOT_PREVIEW)
 */
int jd_engine_gpu_preview_want(struct jd_engine *b, int min_conf, float dmax);

/**
 * Make depth and the cloud (hal/cuda/cloud_cuda.h) on the GPU for each frame submitted from now
 * on: what (JD_CUDA_CLOUD_* bits, 0 stops) for camera cam, no depth below min_conf (the map's
 * mask). @return 1, or 0 where the CPU must make them (no GPU, strips, no JD_BOOT_CLOUD)
 */
int jd_engine_gpu_cloud_want(struct jd_engine *b, int what, int min_conf,
			     const struct jd_camera_model *cam);

/**
 * What the GPU made for the frame jd_engine_collect() just returned, now the caller's until
 * jd_cuda_cloud_release(); NULL: nothing made for it.
 */
struct jd_cuda_cloud_set *jd_engine_gpu_cloud(struct jd_engine *b);

/**
 * The picture the GPU composed for the frame jd_engine_collect() just returned (2w x h RGB,
 * writable, valid until the next submit), or NULL: none for this frame.
 */
uint8_t *jd_engine_gpu_preview(struct jd_engine *b);

/**
 * Sense on the GPU from now on (hal/cuda/sense_cuda.h): each frame's map is masked there by
 * min_conf as the caller masks b->disp (jd_confidence_mask()); with mask_map the map
 * jd_engine_collect() returns is already masked (the caller must not score it unmasked).
 * @return 1, or 0 where the CPU must sense (no GPU, or strips)
 */
int jd_engine_gpu_sense_start(struct jd_engine *b, int min_conf, int mask_map);

/**
 * jd_sense_run() on the frame jd_engine_collect() just returned, its per-pixel work on the
 * GPU, on the map masked there by the min_conf given to jd_engine_gpu_sense_start() (b->disp
 * is not read: it need not come back). The same result as on b->disp masked so.
 * @retval 0 or a negative errno (a GPU failure is printed)
 */
int jd_engine_gpu_sense(struct jd_engine *b, const struct jd_sense_params *sp,
			const struct jd_camera_model *cam, void *ws, size_t ws_bytes,
			struct jd_sense_result *out);

#endif
