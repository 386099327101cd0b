/*
 * The stages around the matcher on its frame staging (hal/cuda/frame_cuda.h), as rows of one
 * table registered in the order a frame meets them: the remap before the matcher's kernels;
 * the confidence, sensing's mask, the preview's picture, and depth and the cloud after them.
 * Every row has the same operations: taken at boot, asked for by the loop (what it should
 * make of the next frames), queued on stream 0, its result brought back to the host with the
 * map, and collected. The frame staging runs the rows; the engine asks a stage by its bit.
 */
#ifndef JD_HAL_CUDA_STAGES_H
#define JD_HAL_CUDA_STAGES_H

#include "../../algo/match/jd_params.h"
#include "../../algo/sense/sense.h"
#include "cloud_cuda.h"
#include "frame_cuda.h"
#include "sense_cuda.h"

/* The stages, a bit each (jd_cuda_matcher_take()'s stages). */
enum {
	JD_CUDA_STAGE_REMAP = 1, /* rectify raw frames (hal/cuda/rectify_cuda.h) */
	JD_CUDA_STAGE_CONF = 2,	 /* the confidence map (hal/cuda/confidence_cuda.h) */
	JD_CUDA_STAGE_SENSE = 4, /* sensing's per-pixel work (hal/cuda/sense_cuda.h; needs CONF) */
	JD_CUDA_STAGE_PREVIEW = 8, /* the preview's picture (hal/cuda/preview_cuda.h; needs CONF) */
	JD_CUDA_STAGE_CLOUD = 16,  /* depth and the cloud (hal/cuda/cloud_cuda.h; needs CONF) */
};

/* What the loop asks a stage to make of the frames submitted from now on. */
struct jd_cuda_ask {
	int min_conf;			   /* below it a pixel is distrusted (every stage) */
	float dmax;			   /* the preview: its colour map's far end */
	int what;			   /* the cloud: JD_CUDA_CLOUD_* bits (0 stops) */
	const struct jd_camera_model *cam; /* the cloud: the camera */
	int mask_map;			   /* sensing: the map collected comes back masked too */
};

/* The state of the stages that keep it outside the frame staging (the matcher holds it). */
struct jd_cuda_rooms {
	struct jd_cuda_sense sense;
	struct jd_cuda_cloud cloud;
};

struct jd_cuda_stage {
	unsigned bit;
	const char *name;
	int before; /* on the pair, before the matcher's kernels (else on their map, after) */
	/* boot: take its buffers from cu (the carving: a counting context only counts them) */
	int (*take)(struct jd_cuda *cu, struct jd_cuda_frame *f, const struct jd_match_params *p,
		    struct jd_cuda_rooms *rooms);
	int (*taken)(const struct jd_cuda_frame *f);
	/* the loop's ask for the next frames (NULL: the stage always runs once taken) */
	void (*ask)(struct jd_cuda_frame *f, const struct jd_cuda_ask *a);
	/* queue its kernels for the frame f->cur on stream 0 (no effect when not asked for) */
	int (*queue)(struct jd_cuda *cu, struct jd_cuda_frame *f, jd_cudeviceptr map);
	/* copy mode: queue the download of what the slot brings back of it (NULL: nothing) */
	int (*bring_back)(struct jd_cuda *cu, struct jd_cuda_frame *f);
	/* the frame of slot idx is the host's now; called with -1 first, before the wait: no
	 * frame is (NULL: nothing to do) */
	void (*collected)(struct jd_cuda_frame *f, int idx);
	/* what the last collected frame has of it on the host (NULL: none; the cloud's set is
	 * the caller's until released) */
	void *(*result)(struct jd_cuda_frame *f);
};

/* The table, in the order a frame meets the stages (stages_cuda.c). */
extern const struct jd_cuda_stage jd_cuda_stages[];
extern const int jd_cuda_stage_count;

/**
 * Take the stages whose bits are in stages, in the table's order (boot only, after the
 * matcher's own buffers). @retval 0 or a negative errno (cu->err says why)
 */
int jd_cuda_stages_take(struct jd_cuda *cu, struct jd_cuda_frame *f,
			const struct jd_match_params *p, struct jd_cuda_rooms *rooms,
			unsigned stages);

/** Is the stage taken on f? */
int jd_cuda_stage_taken(const struct jd_cuda_frame *f, unsigned stage);

/**
 * Ask a stage to make what a says of the frames submitted from now on.
 * @return 1 where it is taken (the GPU makes it), else 0 (the caller must)
 */
int jd_cuda_stage_ask(struct jd_cuda_frame *f, unsigned stage, const struct jd_cuda_ask *a);

/** What the last collected frame has of the stage on the host, or NULL. */
void *jd_cuda_stage_result(struct jd_cuda_frame *f, unsigned stage);

/* The frame staging's calls (frame_cuda.c): every taken stage of one side, in order. */
int jd__cuda_stages_queue(struct jd_cuda *cu, struct jd_cuda_frame *f, int before,
			  jd_cudeviceptr map);
int jd__cuda_stages_bring_back(struct jd_cuda *cu, struct jd_cuda_frame *f);
void jd__cuda_stages_collected(struct jd_cuda_frame *f, int idx);

#endif
