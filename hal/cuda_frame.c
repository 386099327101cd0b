#include "cuda_frame.h"

#include <string.h>

#include "../algo/jd_status.h"

size_t jd_cuda_frame_bytes(int w, int h)
{
	size_t n = (size_t)w * h;

	return 2 * jd_cuda_round(n) + jd_cuda_round(sizeof(float) * n);
}

int jd_cuda_frame_take(struct jd_cuda *cu, struct jd_cuda_frame *f, int w, int h)
{
	size_t n = (size_t)w * h;
	void *hl, *hr, *ho;

	f->w = w;
	f->h = h;
	JD_TRY(jd_cuda_take(cu, n, &f->d_left));
	JD_TRY(jd_cuda_take(cu, n, &f->d_right));
	JD_TRY(jd_cuda_take(cu, sizeof(float) * n, &f->d_out));
	JD_TRY(jd_cuda_take_pinned(cu, n, &hl));
	JD_TRY(jd_cuda_take_pinned(cu, n, &hr));
	JD_TRY(jd_cuda_take_pinned(cu, sizeof(float) * n, &ho));
	f->h_left = hl;
	f->h_right = hr;
	f->h_out = ho;
	return 0;
}

int jd_cuda_frame_upload(struct jd_cuda *cu, const struct jd_cuda_frame *f,
			 const struct jd_image *left, const struct jd_image *right)
{
	size_t n = (size_t)f->w * f->h;

	jd_image_pack(left, f->h_left);
	jd_image_pack(right, f->h_right);
	JD_TRY(JD_CU(cu, cuMemcpyHtoDAsync_v2(f->d_left, f->h_left, n, cu->stream[0])));
	JD_TRY(JD_CU(cu, cuMemcpyHtoDAsync_v2(f->d_right, f->h_right, n, cu->stream[0])));
	return jd_cuda_mark(cu, 0);
}

int jd_cuda_frame_finish(struct jd_cuda *cu, const struct jd_cuda_frame *f, jd_cudeviceptr map,
			 struct jd_disp *out)
{
	size_t n = (size_t)f->w * f->h;

	JD_TRY(jd_cuda_mark(cu, 1));
	JD_TRY(JD_CU(cu, cuMemcpyDtoHAsync_v2(f->h_out, map, sizeof(float) * n, cu->stream[0])));
	JD_TRY(JD_CU(cu, cuStreamSynchronize(cu->stream[0])));
	JD_TRY(jd_cuda_kernel_ms(cu));
	for (int y = 0; y < f->h; y++) {
		memcpy(jd_disp_row(out, y), f->h_out + (size_t)y * f->w, sizeof(float) * f->w);
	}
	return 0;
}
