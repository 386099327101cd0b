/*
 * The staging every GPU matcher shares: the 8-bit pair packed into pinned memory and
 * uploaded, the finished float map downloaded and copied out, with the kernel clock (device
 * events) around what runs between. Carved at boot like the rest.
 */
#ifndef JD_HAL_CUDA_FRAME_H
#define JD_HAL_CUDA_FRAME_H

#include "../algo/jd_image.h"
#include "cuda.h"

struct jd_cuda_frame {
	int w, h;
	jd_cudeviceptr d_left, d_right, d_out; /* d_out: w * h floats, the map kernels write */
	uint8_t *h_left, *h_right;	       /* pinned staging */
	float *h_out;
};

/** Bytes jd_cuda_frame_take() carves, device and pinned alike. */
size_t jd_cuda_frame_bytes(int w, int h);

/** Take the buffers (boot only). @retval 0, -ENOMEM, -EPERM (sealed) */
int jd_cuda_frame_take(struct jd_cuda *cu, struct jd_cuda_frame *f, int w, int h);

/** Pack and upload the pair on stream 0, then start the kernel clock. @retval 0 or -EIO */
int jd_cuda_frame_upload(struct jd_cuda *cu, const struct jd_cuda_frame *f,
			 const struct jd_image *left, const struct jd_image *right);

/**
 * Stop the kernel clock, download map (w * h floats on the device), wait, record the kernel
 * time and copy the map into out. @retval 0 or -EIO
 */
int jd_cuda_frame_finish(struct jd_cuda *cu, const struct jd_cuda_frame *f, jd_cudeviceptr map,
			 struct jd_disp *out);

#endif
