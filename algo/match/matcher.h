/* One entry point for the three matchers, so callers size and run them alike. */
#ifndef JD_ALGO_MATCHER_H
#define JD_ALGO_MATCHER_H

#include <stddef.h>

#include "jd_exec.h"
#include "jd_image.h"
#include "jd_params.h"

/** Workspace bytes for p->algo at this size with this many workers. */
size_t jd_match_mem_required(const struct jd_match_params *p, int width, int height, int nworkers);

struct jd_kernels;

/**
 * Run p->algo with the kernels of @p k (kernels.h; NULL: the reference C). Parameters must have
 * passed jd_params_validate(); left, right and out must share one size.
 * @retval 0 success
 * @retval -EINVAL sizes differ
 * @retval -ENOMEM workspace too small
 */
int jd_match_run(const struct jd_kernels *k, const struct jd_match_params *p,
		 const struct jd_image *left, const struct jd_image *right, struct jd_disp *out,
		 void *ws, size_t ws_bytes, const struct jd_exec *ex);

/**
 * Where p's matcher's own workspace starts inside a jd_match_run() workspace (after the
 * ranked pair, when p ranks), for tests that inspect its stages.
 */
void *jd_match_matcher_ws(const struct jd_match_params *p, int width, int height, void *ws);

#endif
