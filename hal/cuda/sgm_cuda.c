#include "sgm_cuda.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../algo/cuda/sgm_cuda.h"
#include "../../algo/jd_status.h"

enum {
	THREADS = 128,
	SELECT_THREADS = 256, /* a row's selection */
	CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

/* The row selection's shared memory: a right-view key (uint32) and a winner (int16) a pixel. */
static unsigned select_smem(int w)
{
	return (unsigned)(6 * (size_t)w);
}

/* The sum volume: a pixel's uint16 sums every this many, even so that pairs stay aligned. */
static int sum_stride(int nd)
{
	return (nd + 1) / 2 * 2;
}

static size_t sum_bytes(int nd, int w, int h)
{
	return 2 * (size_t)w * h * (size_t)sum_stride(nd);
}

double jd_cuda_sgm_traffic(const struct jd_match_params *p, int w, int h)
{
	const struct jd_sgm_params *g = &p->sgm;
	double n = (double)w * h, sum = (double)sum_bytes(p->ndisp, w, h);
	double t = 0;

	if (g->cost == JD_SGM_COST_CENSUS) {
		t += 2 * n + 16 * n; /* census of both views */
	}
	t += sum; /* zeroing the sum */
	/*
	 * paths: each direction reads both views' census (or images) to make its costs and adds
	 * into every sum (an atomic read and write)
	 */
	t += g->paths * ((g->cost == JD_SGM_COST_CENSUS ? 16 * n : 2 * n) + 2 * sum);
	t += sum + 4 * n; /* selection (right-view winners on chip), the map */
	t += (g->fill ? 8 * n : 0) + (g->median ? 8 * n : 0);
	return t;
}

int jd_cuda_sgm_init(struct jd_cuda_sgm *s, struct jd_cuda *cu, const struct jd_match_params *p,
		     int w, int h)
{
	static const char *const names[JD_CUDA_SGM_NFN] = {
	    "jd_census_cuda", "jd_sgm_aggregate_cuda", "jd_sgm_select_row_cuda"};
	size_t n = (size_t)w * h;

	memset(s, 0, sizeof(*s));
	s->cu = cu;
	s->w = w;
	s->h = h;
	s->nd = p->ndisp;
	for (int i = 0; i < JD_CUDA_SGM_NFN; i++) {
		JD_TRY(jd_cuda_function(cu, names[i], &s->fn[i]));
	}
	JD_TRY(jd_cuda_frame_take(cu, &s->frame, w, h));
	JD_TRY(jd_cuda_frame_rank_take(cu, &s->frame, p));
	JD_TRY(jd_cuda_take(cu, 8 * n, &s->d_cl));
	JD_TRY(jd_cuda_take(cu, 8 * n, &s->d_cr));
	JD_TRY(jd_cuda_take(cu, sum_bytes(p->ndisp, w, h), &s->d_sum));
	JD_TRY(jd_cuda_take(cu, 4 * n, &s->d_spare));
	if (select_smem(w) > 48 * 1024) {
		if (select_smem(w) > (unsigned)cu->smem_optin) {
			snprintf(
			    cu->err, sizeof(cu->err),
			    "SGM selection needs %u bytes of shared memory a row at width %d, %s "
			    "gives %d",
			    select_smem(w), w, cu->name, cu->smem_optin);
			return -ENOMEM;
		}
		JD_TRY(JD_CU(cu, cuFuncSetAttribute(s->fn[JD_CUDA_SGM_SELECT],
						    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
						    (int)select_smem(w))));
	}
	return jd_cuda_post_init(&s->post, cu);
}

static int launch(struct jd_cuda *cu, jd_cufunction f, unsigned gx, unsigned gy, unsigned block,
		  unsigned smem, void **args)
{
	return JD_CU(cu,
		     cuLaunchKernel(f, gx, gy, 1, block, 1, 1, smem, cu->stream[0], args, NULL));
}

/* Directions first .. first + count - 1 of the path kernel's table, adding into d_sum. */
static int launch_paths(struct jd_cuda_sgm *s, const struct jd_match_params *p, int first,
			int count)
{
	const struct jd_sgm_params *g = &p->sgm;
	int w = s->w, h = s->h, nd = s->nd, stride = s->w, sstride = sum_stride(nd);
	int p1 = g->p1, p2 = g->p2, adapt = g->p2_adapt, paths = g->paths;
	int lines = w + h - 1; /* the most any direction has: the diagonals */
	unsigned smem = (unsigned)(JD_SGM_AGGREGATE_WARPS * 2 * (nd + 2) * sizeof(int16_t));
	int md = p->min_disp, census = g->cost == JD_SGM_COST_CENSUS;
	void *ap[] = {&s->d_cl, &s->d_cr, &s->d_guide, &s->d_right, &stride,  &w,
		      &h,	&nd,	  &md,	       &census,	    &sstride, &paths,
		      &p1,	&p2,	  &adapt,      &first,	    &s->d_sum};

	return launch(s->cu, s->fn[JD_CUDA_SGM_AGGREGATE],
		      (unsigned)((lines + JD_SGM_AGGREGATE_WARPS - 1) / JD_SGM_AGGREGATE_WARPS),
		      (unsigned)count, 32 * JD_SGM_AGGREGATE_WARPS, smem, ap);
}

int jd_cuda_sgm_path_one(struct jd_cuda_sgm *s, const struct jd_match_params *p, int dir)
{
	if (dir < 0 || dir >= p->sgm.paths) {
		return -EINVAL;
	}
	JD_TRY(JD_CU(s->cu,
		     cuMemsetD8Async(s->d_sum, 0, sum_bytes(s->nd, s->w, s->h), s->cu->stream[0])));
	return launch_paths(s, p, dir, 1);
}

int jd_cuda_sgm_submit(struct jd_cuda_sgm *s, const struct jd_match_params *p,
		       const struct jd_image *left, const struct jd_image *right)
{
	struct jd_cuda *cu = s->cu;
	struct jd_cuda_frame *f = &s->frame;
	const struct jd_sgm_params *g = &p->sgm;
	int w = s->w, h = s->h, nd = s->nd, md = p->min_disp, stride = s->w;
	int census = g->cost == JD_SGM_COST_CENSUS;
	unsigned gx = (unsigned)((w + THREADS - 1) / THREADS); /* a thread per pixel */
	jd_cudeviceptr result, dl, dr;

	JD_TRY(jd_cuda_frame_rank_check(cu, f, p));
	JD_TRY(jd_cuda_frame_upload(cu, f, left, right));
	jd_cuda_frame_pair(f, &dl, &dr);
	s->d_guide = dl;
	s->d_right = dr;
	if (census) {
		void *al[] = {&dl, &w, &h, &stride, &s->d_cl};
		void *ar[] = {&dr, &w, &h, &stride, &s->d_cr};
		JD_TRY(launch(cu, s->fn[JD_CUDA_SGM_CENSUS], gx, (unsigned)h, THREADS, 0, al));
		JD_TRY(launch(cu, s->fn[JD_CUDA_SGM_CENSUS], gx, (unsigned)h, THREADS, 0, ar));
	}
	int sstride = sum_stride(nd);
	JD_TRY(JD_CU(cu, cuMemsetD8Async(s->d_sum, 0, sum_bytes(nd, w, h), cu->stream[0])));
	JD_TRY(launch_paths(s, p, 0, g->paths));
	int uniq = g->uniqueness, sub = g->subpixel, lr = g->lr_check, lrd = g->lr_max_diff;
	jd_cudeviceptr raw, scratch;
	jd_cuda_post_buffers(cu, g->median, f->d_out, s->d_spare, &raw, &scratch);
	void *as[] = {&s->d_sum, &w, &nd, &sstride, &md, &uniq, &sub, &lr, &lrd, &raw};
	JD_TRY(launch(cu, s->fn[JD_CUDA_SGM_SELECT], (unsigned)h, 1, SELECT_THREADS, select_smem(w),
		      as));
	/* The rest of jd_sgm_ref(): fill, median (into the spare map). */
	JD_TRY(jd_cuda_post_run(&s->post, cu, raw, scratch, w, h, g->fill, g->median, &result));
	return jd_cuda_frame_finish(cu, f, result);
}
