#include "rectify_cuda.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../algo/jd_status.h"

enum { THREADS = 128 };

int jd_cuda_remap_take(struct jd_cuda *cu, struct jd_cuda_frame *f)
{
	struct jd_cuda_remap *rm = &f->remap;
	size_t n = (size_t)f->w * f->h;

	memset(rm, 0, sizeof(*rm));
	JD_TRY(jd_cuda_function(cu, "jd_remap_cuda", &rm->fn));
	JD_TRY(jd_cuda_function(cu, "jd_luma_deep_cuda", &rm->luma_fn));
	for (int c = 0; c < 2; c++) {
		JD_TRY(jd_cuda_take(cu, sizeof(int32_t) * n, &rm->d_sx[c]));
		JD_TRY(jd_cuda_take(cu, sizeof(int32_t) * n, &rm->d_sy[c]));
		JD_TRY(jd_cuda_take(cu, n, &rm->d_luma[c]));
	}
	for (int s = 0; s < JD_CUDA_SLOTS; s++) {
		for (int c = 0; c < 2; c++) {
			void *p;

			JD_TRY(jd_cuda_take_pinned(cu, JD_CUDA_RAW_BPP * n, &p));
			rm->h_raw[s][c] = p;
			rm->fmt[s][c] = JD_PIX_GREY;
			if (cu->mapped) {
				/* read where the camera wrote it: nothing crosses */
				rm->d_raw[s][c] = jd_cuda_mapped(cu, p);
			} else {
				JD_TRY(jd_cuda_take(cu, JD_CUDA_RAW_BPP * n, &rm->d_raw[s][c]));
			}
		}
	}
	rm->taken = 1;
	return 0;
}

int jd_cuda_remap_load(struct jd_cuda *cu, struct jd_cuda_frame *f, const struct jd_remap map[2],
		       struct jd_image *left_out, struct jd_image *right_out)
{
	struct jd_cuda_remap *rm = &f->remap;
	size_t bytes = sizeof(int32_t) * (size_t)f->w * f->h;

	if (!rm->taken) {
		snprintf(cu->err, sizeof(cu->err),
			 "rectification tables loaded before being taken");
		return -EINVAL;
	}
	for (int c = 0; c < 2; c++) {
		if (map[c].width != f->w || map[c].height != f->h) {
			snprintf(cu->err, sizeof(cu->err),
				 "rectification table %d is %dx%d, the frames are %dx%d", c,
				 map[c].width, map[c].height, f->w, f->h);
			return -EINVAL;
		}
		/* From pageable memory, once at boot: the driver stages it; then wait. */
		JD_TRY(
		    JD_CU(cu, cuMemcpyHtoDAsync_v2(rm->d_sx[c], map[c].sx, bytes, cu->stream[0])));
		JD_TRY(
		    JD_CU(cu, cuMemcpyHtoDAsync_v2(rm->d_sy[c], map[c].sy, bytes, cu->stream[0])));
	}
	JD_TRY(JD_CU(cu, cuStreamSynchronize(cu->stream[0])));
	rm->left_out = left_out;
	rm->right_out = right_out;
	rm->loaded = 1;
	return 0;
}

/* Where the luma of a raw layout sits: every step bytes from byte off. */
static void luma_at(enum jd_pixfmt fmt, int *step, int *off)
{
	*step = jd_pixfmt_pixel_bytes(fmt); /* packed: the luma bytes are a pixel apart */
	*off = fmt == JD_PIX_UYVY;	    /* YUYV: Y at even bytes; UYVY: at odd ones */
}

size_t jd__cuda_remap_raw_bytes(const struct jd_cuda_frame *f, int slot, int c)
{
	return jd_pixfmt_frame_bytes(f->remap.fmt[slot][c], f->w, f->h);
}

/*
 * A deep mono or raw Bayer view to luma on the device (algo/cuda/convert_cuda.cu), into
 * d_luma[c]: the remap then reads that as GREY. Others are read by the remap as they came.
 */
static int luma_step(struct jd_cuda *cu, struct jd_cuda_frame *f, int c, jd_cudeviceptr *src,
		     enum jd_pixfmt *fmt)
{
	struct jd_cuda_remap *rm = &f->remap;
	int w = f->w, h = f->h, bits = jd_pixfmt_bits(*fmt), bayer = jd_pixfmt_is_bayer(*fmt);
	int r_col, r_row;

	*src = rm->d_raw[f->cur][c];
	if (!bayer && bits == 8) {
		return 0;
	}
	jd_pixfmt_bayer_red(*fmt, &r_col, &r_row);
	void *args[] = {src, &w, &h, &bits, &bayer, &r_col, &r_row, &rm->d_luma[c]};
	JD_TRY(
	    JD_CU(cu, cuLaunchKernel(rm->luma_fn, (unsigned)((w + THREADS - 1) / THREADS),
				     (unsigned)h, 1, THREADS, 1, 1, 0, cu->stream[0], args, NULL)));
	*src = rm->d_luma[c];
	*fmt = JD_PIX_GREY;
	return 0;
}

int jd__cuda_remap_run(struct jd_cuda *cu, struct jd_cuda_frame *f)
{
	struct jd_cuda_remap *rm = &f->remap;
	struct jd_cuda_slot *s = &f->slot[f->cur];
	int w = f->w, h = f->h, step[2], off[2];
	jd_cudeviceptr src[2];
	enum jd_pixfmt fmt[2] = {rm->fmt[f->cur][0], rm->fmt[f->cur][1]};

	for (int c = 0; c < 2; c++) {
		JD_TRY(luma_step(cu, f, c, &src[c], &fmt[c]));
		luma_at(fmt[c], &step[c], &off[c]);
	}
	void *args[] = {
	    &rm->d_sx[0], &rm->d_sy[0], &rm->d_sx[1], &rm->d_sy[1], &src[0], &src[1], &s->d_left,
	    &s->d_right,  &step[0],	&off[0],      &step[1],	    &off[1], &w,      &h};

	return JD_CU(cu,
		     cuLaunchKernel(rm->fn, (unsigned)((w + THREADS - 1) / THREADS), (unsigned)h, 2,
				    THREADS, 1, 1, 0, cu->stream[0], args, NULL));
}

int jd__cuda_remap_download(struct jd_cuda *cu, struct jd_cuda_frame *f)
{
	struct jd_cuda_slot *s = &f->slot[f->cur];
	size_t n = (size_t)f->w * f->h;

	if (cu->mapped || !(s->back & JD_CUDA_BACK_PAIR)) {
		return 0; /* mapped: the kernel wrote it into the slot's h_left/h_right */
	}
	/* The rectified pair comes back with the map (same stream, so before its event). */
	JD_TRY(JD_CU(cu, cuMemcpyDtoHAsync_v2(s->h_left, s->d_left, n, cu->stream[0])));
	cu->copied += 2 * n;
	return JD_CU(cu, cuMemcpyDtoHAsync_v2(s->h_right, s->d_right, n, cu->stream[0]));
}
