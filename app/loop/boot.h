/*
 * Boot for the commands that match: size every buffer from the parameters (the GPU's by
 * counting what its carving takes), print the budget, map one arena, carve it, seal it, start
 * the workers. It builds the engine (app/loop/engine.h); after jd_boot_init() nothing allocates.
 */
#ifndef JD_APP_BOOT_H
#define JD_APP_BOOT_H

#include <stdio.h>

#include "../../algo/match/jd_params.h"
#include "../../hal/board.h"
#include "../../hal/cuda/cuda.h"
#include "engine.h"

/* What the frame loop asks of boot besides the matcher (jd_boot_init()'s stages). */
enum {
	/* Each is taken where whole frames go to the GPU (not with strips). */
	/* frames arrive unrectified: the GPU takes the memory to rectify them (b->gpu_rectify;
	 * jd_engine_rectify_on_gpu()) */
	JD_BOOT_RAW_FRAMES = 1,
	/* the ROS 2 topics are published: the GPU takes the memory to make depth and the cloud
	 * (hal/cuda/cloud_cuda.h: JD_CUDA_CLOUD_SETS pinned sets, 20 bytes a pixel each) */
	JD_BOOT_CLOUD = 2,
	/* someone may watch the preview: the GPU takes one picture, 6 bytes a pixel device and
	 * pinned (hal/cuda/preview_cuda.h; jd_engine_gpu_preview_want()) */
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
	enum jd_backend backend;      /* what was asked for (the command line, $JD_BACKEND) */
	enum jd_gpu_memory gpu_memory;
	const char *tuning_path; /* the GPU tuning file to read (NULL: none, the defaults) */
};

/**
 * Size every buffer, print the budget, map, carve and seal the arenas, start the workers.
 * @retval 0, or a negative errno with the reason printed to stderr
 */
int jd_boot_init(struct jd_engine *b, const struct jd_boot_config *c);

void jd_boot_deinit(struct jd_engine *b);

#endif
