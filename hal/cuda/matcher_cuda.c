#include "matcher_cuda.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../algo/jd_status.h"

/* Each matcher's entries, adapted to the table's one shape. */

static int sad_take(struct jd_cuda_matcher *m, struct jd_cuda *cu, const struct jd_match_params *p,
		    int w, int h, const char *variant)
{
	(void)variant;
	JD_TRY(jd_cuda_sad_init(&m->u.sad, cu, p, w, h));
	m->frame = &m->u.sad.frame;
	return 0;
}

static int sad_submit(struct jd_cuda_matcher *m, const struct jd_match_params *p,
		      const struct jd_image *left, const struct jd_image *right)
{
	return jd_cuda_sad_submit(&m->u.sad, p, left, right);
}

static int sgm_take(struct jd_cuda_matcher *m, struct jd_cuda *cu, const struct jd_match_params *p,
		    int w, int h, const char *variant)
{
	(void)variant;
	JD_TRY(jd_cuda_sgm_init(&m->u.sgm, cu, p, w, h));
	m->frame = &m->u.sgm.frame;
	return 0;
}

static int sgm_submit(struct jd_cuda_matcher *m, const struct jd_match_params *p,
		      const struct jd_image *left, const struct jd_image *right)
{
	return jd_cuda_sgm_submit(&m->u.sgm, p, left, right);
}

static int bp_take(struct jd_cuda_matcher *m, struct jd_cuda *cu, const struct jd_match_params *p,
		   int w, int h, const char *variant)
{
	JD_TRY(jd_cuda_bp_init(&m->u.bp, cu, p, w, h, variant));
	m->frame = &m->u.bp.frame;
	return 0;
}

static int bp_submit(struct jd_cuda_matcher *m, const struct jd_match_params *p,
		     const struct jd_image *left, const struct jd_image *right)
{
	return jd_cuda_bp_submit(&m->u.bp, p, left, right);
}

static const struct jd_cuda_matcher_ops matchers[] = {
    {JD_ALGO_SAD, sad_take, sad_submit, jd_cuda_sad_traffic},
    {JD_ALGO_SGM, sgm_take, sgm_submit, jd_cuda_sgm_traffic},
    {JD_ALGO_BP, bp_take, bp_submit, jd_cuda_bp_traffic},
};

static const struct jd_cuda_matcher_ops *find(enum jd_algo algo)
{
	for (size_t i = 0; i < sizeof(matchers) / sizeof(matchers[0]); i++) {
		if (matchers[i].algo == algo) {
			return &matchers[i];
		}
	}
	return NULL;
}

int jd_cuda_matcher_take(struct jd_cuda_matcher *m, struct jd_cuda *cu,
			 const struct jd_match_params *p, int w, int h, const char *variant,
			 unsigned stages)
{
	memset(m, 0, sizeof(*m));
	m->ops = find(p->algo);
	m->cu = cu;
	if (!m->ops) {
		snprintf(cu->err, sizeof(cu->err), "no GPU matcher for %s", jd_algo_name(p->algo));
		return -EINVAL;
	}
	JD_TRY(m->ops->take(m, cu, p, w, h, variant));
	return jd_cuda_stages_take(cu, m->frame, p, &m->rooms, stages);
}

int jd_cuda_matcher_carve(struct jd_cuda *cu, void *arg)
{
	const struct jd_cuda_matcher_carving *k = arg;

	return jd_cuda_matcher_take(k->m, cu, k->p, k->w, k->h, k->variant, k->stages);
}

int jd_cuda_matcher_submit(struct jd_cuda_matcher *m, const struct jd_match_params *p,
			   const struct jd_image *left, const struct jd_image *right)
{
	return m->ops->submit(m, p, left, right);
}

int jd_cuda_matcher_collect(struct jd_cuda_matcher *m, struct jd_disp *out)
{
	return jd_cuda_frame_collect(m->cu, m->frame, out);
}

int jd_cuda_matcher_run(struct jd_cuda_matcher *m, const struct jd_match_params *p,
			const struct jd_image *left, const struct jd_image *right,
			struct jd_disp *out)
{
	JD_TRY(jd_cuda_matcher_submit(m, p, left, right));
	return jd_cuda_matcher_collect(m, out);
}

double jd_cuda_matcher_traffic(const struct jd_match_params *p, int w, int h)
{
	const struct jd_cuda_matcher_ops *ops = find(p->algo);

	return ops ? ops->traffic(p, w, h) : 0;
}
