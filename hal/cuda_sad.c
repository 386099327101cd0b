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
	/* the frame staging and the median's map */
	return jd_cuda_frame_bytes(w, h, 1) + jd_cuda_round(sizeof(float) * w * h);
}

size_t jd_cuda_sad_pinned_bytes(int w, int h)
{
	return jd_cuda_frame_bytes(w, h, 1);
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
	JD_TRY(jd_cuda_frame_take(cu, &s->frame, w, h, 1));
	JD_TRY(jd_cuda_take(cu, sizeof(float) * (size_t)w * h, &s->d_med));
	return jd_cuda_post_init(&s->post, cu);
}

int jd_cuda_sad_submit(struct jd_cuda_sad *s, const struct jd_match_params *p,
		       const struct jd_image *left, const struct jd_image *right)
{
	struct jd_cuda *cu = s->cu;
	struct jd_cuda_frame *f = &s->frame;
	int w = s->w, h = s->h, stride = s->w, nd = p->ndisp, md = p->min_disp;
	int win = p->sad.window, lr = p->sad.lr_check, ostride = s->w;
	jd_cudeviceptr result, dl, dr;
	void *args[] = {&dl, &dr, &w, &h, &stride, &nd, &md, &win, &lr, &f->d_out, &ostride};

	JD_TRY(jd_cuda_frame_upload(cu, f, left, right));
	dl = jd_cuda_frame_in(f)->d_left;
	dr = jd_cuda_frame_in(f)->d_right;
	JD_TRY(JD_CU(cu, cuLaunchKernel(s->fn, (unsigned)h, 1, 1, THREADS, 1, 1, (unsigned)s->smem,
					cu->stream[0], args, NULL)));
	/* The rest of jd_sad_ref(): fill after the left-right check, median. */
	JD_TRY(jd_cuda_post_run(&s->post, cu, f->d_out, s->d_med, w, h,
				p->sad.lr_check && p->sad.fill, p->sad.median, &result));
	return jd_cuda_frame_finish(cu, f, result);
}

int jd_cuda_sad_collect(struct jd_cuda_sad *s, struct jd_disp *out)
{
	return jd_cuda_frame_collect(s->cu, &s->frame, out);
}

int jd_cuda_sad_run(struct jd_cuda_sad *s, const struct jd_match_params *p,
		    const struct jd_image *left, const struct jd_image *right, struct jd_disp *out)
{
	JD_TRY(jd_cuda_sad_submit(s, p, left, right));
	return jd_cuda_sad_collect(s, out);
}
