/*
 * The engine boot builds (app/loop/boot.h): every buffer carved once, the kernels chosen, the GPU
 * and its stages taken. Its functions run the frame loop's matching and GPU stages on it;
 * none allocates.
 */
#ifndef JD_APP_ENGINE_H
#define JD_APP_ENGINE_H

#include "../../algo/jd_image.h"
#include "../../algo/match/jd_params.h"
#include "../../algo/kernels/kernels.h"
#include "../../algo/geometry/rectify.h"
#include "../../algo/sense/sense.h"
#include "../../algo/match/tiling.h"
#include "../../hal/cuda/cuda.h"
#include "../../hal/cuda/bp_cuda.h"
#include "../../hal/cuda/cloud_cuda.h"
#include "../../hal/cuda/matcher_cuda.h"
#include "../../hal/cuda/sense_cuda.h"
#include "../../hal/cuda/stages_cuda.h"
#include "../../hal/pool.h"
#include "../../hal/cuda/tuning.h"
#include "../../hal/workers.h"

struct jd_engine {
	struct jd_budget budget;
	struct jd_arena arena;
	struct jd_workers workers;
	struct jd_image left, right; /* in the arena (lending: the slot last submitted) */
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
	struct jd_tuning tuning;	/* the tuning file boot read (GPU BP) */
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
 * points at the frame's pinned map, and the frame's pair stays in its slot
 * (jd_engine_collected()). Both stay as they are until the next jd_engine_submit(). No effect on
 * the CPU or with strips. @return 1 when it lends (the map and the pair), else 0
 */
int jd_engine_lend(struct jd_engine *b);

/*
 * Where capture writes each frame, given once at boot: the k-th frame submitted from then on
 * goes into dest[(first + k) % n] (boot's warm-up frame used a slot already). On the
 * CPU (or with strips) n is 1 and the destination is b->left/right. Where the GPU lends
 * (jd_engine_lend()) they are its pinned slots, so that a pair is written once and never
 * copied at submit: the gray pair (pair[]), or where the GPU rectifies each view as the camera
 * gave it (raw[], raw_cap bytes each; the device takes the luma).
 */
struct jd_engine_dest {
	struct jd_image pair[2];
	unsigned char *raw[2]; /* NULL: capture the gray pair */
	size_t raw_cap;
};

/**
 * The destinations (boot, after jd_engine_lend() and jd_engine_rectify_on_gpu()), and in
 * *first the one the next frame goes into. @return n
 */
int jd_engine_destinations(struct jd_engine *b, struct jd_engine_dest dest[JD_CUDA_SLOTS],
			   int *first);

/**
 * jd_engine_submit() of the frame captured into dest (one of jd_engine_destinations()'):
 * its raw views in the layouts raw_fmt, or (raw_fmt NULL) its gray pair.
 * @retval as jd_engine_submit(), or -EINVAL (a layout the device cannot read)
 */
int jd_engine_submit_frame(struct jd_engine *b, const struct jd_match_params *p,
			   const struct jd_engine_dest *dest, const enum jd_pixfmt raw_fmt[2]);

/**
 * What frames submitted from now on bring back to the host where the GPU matches whole
 * frames in copy mode (JD_CUDA_BACK_* bits of hal/cuda/frame_cuda.h; boot: all). No effect
 * on the CPU, with strips, or in mapped mode, where everything is on the host.
 */
void jd_engine_bring_back(struct jd_engine *b, unsigned what);

/* What the frame jd_engine_collect() just returned has on the host, in one look. */
struct jd_engine_frame {
	struct jd_disp *map;	 /* b->disp; NULL where the map stayed on the device */
	struct jd_image pair[2]; /* its rectified pair (views; where the GPU lends, its slot's,
				    valid until the next submit) */
	int has_pair;		 /* 0: the pair stayed on the device */
	const uint8_t *conf;	 /* the GPU's confidence (w bytes a row); NULL: the CPU makes
				    it (jd_engine_gpu_ask()), or it stayed on the device */
};

/**
 * What the frame jd_engine_collect() just returned has on the host: all of it but where
 * jd_engine_bring_back() left something on the device.
 */
void jd_engine_collected(struct jd_engine *b, struct jd_engine_frame *out);

/**
 * Ask a GPU stage around the matcher (JD_CUDA_STAGE_*, hal/cuda/stages_cuda.h) to make what a
 * says of each frame submitted from now on (a may be NULL for a stage that takes no ask: the
 * confidence). @return 1 where the GPU makes it, 0 where the caller must (no GPU, strips, the
 * stage not taken at boot)
 */
int jd_engine_gpu_ask(struct jd_engine *b, unsigned stage, const struct jd_cuda_ask *a);

/**
 * What a GPU stage made of the frame jd_engine_collect() just returned, on the host (NULL:
 * nothing: not made, or left on the device): JD_CUDA_STAGE_CONF its confidence map (w bytes
 * a row), JD_CUDA_STAGE_PREVIEW its picture (2w x h RGB, writable), JD_CUDA_STAGE_CLOUD its
 * depth and cloud (struct jd_cuda_cloud_set, the caller's until jd_cuda_cloud_release()).
 * Valid until the next submit into its slot.
 */
void *jd_engine_gpu_result(struct jd_engine *b, unsigned stage);

/**
 * jd_sense_run() on the frame jd_engine_collect() just returned, its per-pixel work on the
 * GPU, on the map masked there by the min_conf of the sensing stage's ask (b->disp is not
 * read: it need not come back). The same result as on b->disp masked so.
 * @retval 0 or a negative errno (a GPU failure is printed)
 */
int jd_engine_gpu_sense(struct jd_engine *b, const struct jd_sense_params *sp,
			const struct jd_camera_model *cam, void *ws, size_t ws_bytes,
			struct jd_sense_result *out);

#endif
