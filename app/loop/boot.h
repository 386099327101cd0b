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

/* The backend, GPU memory and tuning file asked for (the command line, $JD_BACKEND). */
struct jd_boot_choices {
	enum jd_backend backend;
	enum jd_gpu_memory gpu_memory;
	const char *tuning_path; /* the GPU tuning file to read (NULL: none, the defaults) */
};

/* What boot is given: everything it sizes and chooses from, in one place. */
struct jd_boot_config {
	const struct jd_match_params *p;
	int w, h, threads;
	int gt_maps;	   /* ground-truth maps to carve, 0 to 2 (the synthetic camera's) */
	size_t loop_bytes; /* the frame loop's own stages: cameras, sensing (0: none) */
	/*
	 * The GPU stages the loop may ask for besides the confidence and sensing, which come
	 * anyway (JD_CUDA_STAGE_* bits of hal/cuda/stages_cuda.h; 0: none): REMAP where frames
	 * arrive unrectified, CLOUD where ROS 2 topics are published (JD_CUDA_CLOUD_SETS pinned
	 * sets, 20 bytes a pixel each), PREVIEW where someone may watch (6 bytes a pixel, device
	 * and pinned). Each is taken where whole frames go to the GPU (not with strips).
	 */
	unsigned stages;
	const struct jd_board *board; /* its memory ceiling bounds the budget (NULL: the RAM) */
	FILE *log;		      /* where the budget goes (NULL: silent) */
	struct jd_boot_choices choices;
};

/**
 * Size every buffer, print the budget, map, carve and seal the arenas, start the workers.
 * @retval 0, or a negative errno with the reason printed to stderr
 */
int jd_boot_init(struct jd_engine *b, const struct jd_boot_config *c);

void jd_boot_deinit(struct jd_engine *b);

#endif
