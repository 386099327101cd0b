#include "confidence_cuda.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../algo/jd_status.h"

enum { THREADS = 128, ROW_THREADS = 256 };

int jd_cuda_conf_take(struct jd_cuda *cu, struct jd_cuda_frame *f, const struct jd_match_params *p)
{
	struct jd_cuda_conf *c = &f->conf;
	size_t n = (size_t)f->w * f->h;

	memset(c, 0, sizeof(*c));
	c->min_disp = p->min_disp;
	c->ndisp = p->ndisp;
	JD_TRY(jd_cuda_function(cu, "jd_conf_census_cuda", &c->census));
	JD_TRY(jd_cuda_function(cu, "jd_conf_support_cuda", &c->support));
	JD_TRY(jd_cuda_function(cu, "jd_conf_cuda", &c->conf));
	JD_TRY(jd_cuda_take(cu, 4 * n, &c->d_cl));
	JD_TRY(jd_cuda_take(cu, 4 * n, &c->d_cr));
	JD_TRY(jd_cuda_take(cu, n, &c->d_sup));
	JD_TRY(jd_cuda_take(cu, 4 * n, &c->d_reach));
	if (!cu->mapped) {
		JD_TRY(jd_cuda_take(cu, n, &c->d_conf));
	}
	for (int s = 0; s < JD_CUDA_SLOTS; s++) {
		void *buf;

		JD_TRY(jd_cuda_take_pinned(cu, n, &buf));
		c->h_conf[s] = buf;
	}
	c->taken = 1;
	return 0;
}

int jd__cuda_conf_run(struct jd_cuda *cu, struct jd_cuda_frame *f, jd_cudeviceptr map)
{
	struct jd_cuda_conf *c = &f->conf;
	struct jd_cuda_slot *s = &f->slot[f->cur];
	int w = f->w, h = f->h;
	/* mapped: straight into the slot's pinned buffer */
	jd_cudeviceptr out = cu->mapped ? jd_cuda_mapped(cu, c->h_conf[f->cur]) : c->d_conf;
	void *ac[] = {&s->d_left, &s->d_right, &w, &h, &c->d_cl, &c->d_cr};
	void *as[] = {&map, &w, &h, &c->d_sup, &c->d_reach, &c->min_disp, &c->ndisp};
	void *a[] = {&map,	&w,	     &h,   &c->d_cl,	 &c->d_cr,
		     &c->d_sup, &c->d_reach, &out, &c->min_disp, &c->ndisp};

	JD_TRY(
	    JD_CU(cu, cuLaunchKernel(c->census, (unsigned)((w + THREADS - 1) / THREADS),
				     (unsigned)h, 2, THREADS, 1, 1, 0, cu->stream[0], ac, NULL)));
	JD_TRY(JD_CU(cu, cuLaunchKernel(c->support, (unsigned)h, 1, 1, ROW_THREADS, 1, 1,
					(unsigned)w, cu->stream[0], as, NULL)));
	return JD_CU(cu, cuLaunchKernel(c->conf, (unsigned)h, 1, 1, ROW_THREADS, 1, 1,
					(unsigned)(5 * w), cu->stream[0], a, NULL));
}

int jd__cuda_conf_download(struct jd_cuda *cu, struct jd_cuda_frame *f)
{
	struct jd_cuda_conf *c = &f->conf;
	size_t n = (size_t)f->w * f->h;

	if (cu->mapped) {
		return 0;
	}
	cu->copied += n;
	return JD_CU(cu, cuMemcpyDtoHAsync_v2(c->h_conf[f->cur], c->d_conf, n, cu->stream[0]));
}
