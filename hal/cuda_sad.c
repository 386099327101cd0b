#include "cuda_sad.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../algo/jd_status.h"

enum { CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8, THREADS = 256 };

/* The kernel's shared-memory layout (algo/cuda/sad_cuda.cu). */
static size_t sad_smem(int w, int win)
{
	return (size_t)2 * win * w + sizeof(uint32_t) * (size_t)(w + win - 1) +
	       (size_t)4 * sizeof(uint32_t) * w;
}

size_t jd_cuda_sad_device_bytes(int w, int h)
{
	/* two 8-bit frames and two float maps (WTA, median), each as the carving rounds it */
	return 2 * jd_cuda_round((size_t)w * h) + 2 * jd_cuda_round(sizeof(float) * w * h);
}

size_t jd_cuda_sad_pinned_bytes(int w, int h)
{
	return 2 * jd_cuda_round((size_t)w * h) + jd_cuda_round(sizeof(float) * w * h);
}

double jd_cuda_sad_traffic(const struct jd_match_params *p, int w, int h)
{
	double n = (double)w * h;
	double post = (p->sad.lr_check && p->sad.fill ? 8 * n : 0) + (p->sad.median ? 8 * n : 0);

	return 2 * n + 4 * n + post; /* the pair in, the map out, then fill and median */
}

int jd_cuda_sad_init(struct jd_cuda_sad *s, struct jd_cuda *cu, const struct jd_match_params *p,
		     int w, int h)
{
	size_t n = (size_t)w * h;
	void *hl, *hr, *ho;

	memset(s, 0, sizeof(*s));
	s->cu = cu;
	s->w = w;
	s->h = h;
	s->smem = sad_smem(w, p->sad.window);
	if (s->smem > (size_t)cu->smem_optin) {
		snprintf(
		    cu->err, sizeof(cu->err),
		    "sad on %s: a %d-pixel row with window %d needs %zu bytes of shared memory, "
		    "the GPU has %d",
		    cu->name, w, p->sad.window, s->smem, cu->smem_optin);
		return -EINVAL;
	}
	JD_TRY(jd_cuda_function(cu, "jd_sad_rows_cuda", &s->fn));
	JD_TRY(JD_CU(cu, cuFuncSetAttribute(s->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
					    (int)s->smem)));
	JD_TRY(jd_cuda_take(cu, n, &s->d_left));
	JD_TRY(jd_cuda_take(cu, n, &s->d_right));
	JD_TRY(jd_cuda_take(cu, sizeof(float) * n, &s->d_out));
	JD_TRY(jd_cuda_take(cu, sizeof(float) * n, &s->d_med));
	JD_TRY(jd_cuda_post_init(&s->post, cu));
	JD_TRY(jd_cuda_take_pinned(cu, n, &hl));
	JD_TRY(jd_cuda_take_pinned(cu, n, &hr));
	JD_TRY(jd_cuda_take_pinned(cu, sizeof(float) * n, &ho));
	s->h_left = hl;
	s->h_right = hr;
	s->h_out = ho;
	return 0;
}

int jd_cuda_sad_run(struct jd_cuda_sad *s, const struct jd_match_params *p,
		    const struct jd_image *left, const struct jd_image *right, struct jd_disp *out)
{
	struct jd_cuda *cu = s->cu;
	jd_custream st = cu->stream[0];
	size_t n = (size_t)s->w * s->h;
	int w = s->w, h = s->h, stride = s->w, nd = p->ndisp, md = p->min_disp;
	int win = p->sad.window, lr = p->sad.lr_check, ostride = s->w;
	void *args[] = {&s->d_left, &s->d_right, &w,  &h,	 &stride, &nd,
			&md,	    &win,	 &lr, &s->d_out, &ostride};
	jd_cudeviceptr result;

	jd_image_pack(left, s->h_left);
	jd_image_pack(right, s->h_right);
	JD_TRY(JD_CU(cu, cuMemcpyHtoDAsync_v2(s->d_left, s->h_left, n, st)));
	JD_TRY(JD_CU(cu, cuMemcpyHtoDAsync_v2(s->d_right, s->h_right, n, st)));
	JD_TRY(jd_cuda_mark(cu, 0));
	JD_TRY(JD_CU(cu, cuLaunchKernel(s->fn, (unsigned)h, 1, 1, THREADS, 1, 1, (unsigned)s->smem,
					st, args, NULL)));
	/* The rest of jd_sad_ref(): fill after the left-right check, median. */
	JD_TRY(jd_cuda_post_run(&s->post, cu, s->d_out, s->d_med, w, h,
				p->sad.lr_check && p->sad.fill, p->sad.median, &result));
	JD_TRY(jd_cuda_mark(cu, 1));
	JD_TRY(JD_CU(cu, cuMemcpyDtoHAsync_v2(s->h_out, result, sizeof(float) * n, st)));
	JD_TRY(JD_CU(cu, cuStreamSynchronize(st)));
	JD_TRY(jd_cuda_kernel_ms(cu));
	for (int y = 0; y < h; y++) {
		memcpy(jd_disp_row(out, y), s->h_out + (size_t)y * w, sizeof(float) * w);
	}
	return 0;
}
