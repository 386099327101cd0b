#include "matcher.h"

#include <errno.h>

#include "jd_carve.h"
#include "kernels.h"
#include "matcher_table.h"
#include "prefilter.h"

static size_t matcher_mem(const struct jd_match_params *p, int width, int height, int nworkers)
{
	const struct jd_matcher *m = jd_matcher_of(p->algo);

	return m ? m->mem_required(p, width, height, nworkers) : 0;
}

/* The rank-transformed pair, ahead of the matcher's own workspace. */
static size_t rank_bytes(const struct jd_match_params *p, int width, int height)
{
	struct jd_carve c;

	jd_carve_init(&c, NULL, 0);
	if (jd_prefilter_rank_on(p)) {
		jd_carve(&c, 2 * (size_t)width * height);
	}
	return jd_carve_total(&c);
}

size_t jd_match_mem_required(const struct jd_match_params *p, int width, int height, int nworkers)
{
	return rank_bytes(p, width, height) + matcher_mem(p, width, height, nworkers);
}

static int run_matcher(const struct jd_kernels *k, const struct jd_match_params *p,
		       const struct jd_image *left, const struct jd_image *right,
		       struct jd_disp *out, void *ws, size_t ws_bytes, const struct jd_exec *ex)
{
	const struct jd_matcher *m = jd_matcher_of(p->algo);

	return m ? m->run(k, p, left, right, out, ws, ws_bytes, ex) : -EINVAL;
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
	size_t skip = rank_bytes(p, left->width, left->height);
	if (!skip) {
		return run_matcher(k, p, left, right, out, ws, ws_bytes, ex);
	}
	if (!ws || ws_bytes < skip) {
		return -ENOMEM;
	}
	int w = left->width, h = left->height;
	uint8_t *base = ws;
	struct jd_image rl = {base, w, h, w}, rr = {base + (size_t)w * h, w, h, w};

	jd_rank_ref(left, jd_rank_window(p), &rl, ex);
	jd_rank_ref(right, jd_rank_window(p), &rr, ex);
	return run_matcher(k, p, &rl, &rr, out, base + skip, ws_bytes - skip, ex);
}

void *jd_match_matcher_ws(const struct jd_match_params *p, int width, int height, void *ws)
{
	return (uint8_t *)ws + rank_bytes(p, width, height);
}
