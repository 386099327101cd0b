#include "matcher.h"

#include <errno.h>

#include "bp.h"
#include "kernels.h"
#include "sad.h"
#include "sgm.h"

size_t jd_match_mem_required(const struct jd_match_params *p, int width, int height, int nworkers)
{
	switch (p->algo) {
	case JD_ALGO_SAD:
		return jd_sad_mem_required(p, width, height, nworkers);
	case JD_ALGO_SGM:
		return jd_sgm_mem_required(p, width, height, nworkers);
	case JD_ALGO_BP:
		return jd_bp_mem_required(p, width, height, nworkers);
	}
	return 0;
}

int jd_match_run(const struct jd_kernels *k, const struct jd_match_params *p,
		 const struct jd_image *left, const struct jd_image *right, struct jd_disp *out,
		 void *ws, size_t ws_bytes, const struct jd_exec *ex)
{
	if (left->width != right->width || left->height != right->height ||
	    out->width != left->width || out->height != left->height) {
		return -EINVAL;
	}
	if (!k) {
		k = &jd_kernels_ref;
	}
	switch (p->algo) {
	case JD_ALGO_SAD:
		return jd_sad_run(k, p, left, right, out, ws, ws_bytes, ex);
	case JD_ALGO_SGM:
		return jd_sgm_run(k, p, left, right, out, ws, ws_bytes, ex);
	case JD_ALGO_BP:
		return jd_bp_run(k, p, left, right, out, ws, ws_bytes, ex);
	}
	return -EINVAL;
}
