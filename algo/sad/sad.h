/* SAD block matching with winner-takes-all (robot-arm thesis), integer arithmetic. */
#ifndef JD_ALGO_SAD_H
#define JD_ALGO_SAD_H

#include <stddef.h>

#include "jd_exec.h"
#include "jd_image.h"
#include "jd_params.h"

/** Workspace bytes jd_sad_ref() needs for this size and worker count. */
size_t jd_sad_mem_required(const struct jd_match_params *p, int width, int height, int nworkers);

/**
 * Disparity of every left pixel: argmin over d of the window sum of |L - R(x - d)|.
 * Pixels outside either image replicate the nearest edge pixel, so every pixel gets a value;
 * ties go to the smallest disparity. Parameters must have passed jd_params_validate().
 * @retval 0 success
 * @retval -ENOMEM workspace smaller than jd_sad_mem_required()
 */
int jd_sad_ref(const struct jd_match_params *p, const struct jd_image *left,
	       const struct jd_image *right, struct jd_disp *out, void *ws, size_t ws_bytes,
	       const struct jd_exec *ex);

struct jd_kernels;

/** jd_sad_ref() through a kernel table (kernels.h): what the daemon runs. */
int jd_sad_run(const struct jd_kernels *k, const struct jd_match_params *p,
	       const struct jd_image *left, const struct jd_image *right, struct jd_disp *out,
	       void *ws, size_t ws_bytes, const struct jd_exec *ex);

#endif
