/*
 * Rectification on the GPU for every matcher (SAD, SGM, BP): the boot takes the tables'
 * device memory with the frame staging, loads the tables once they are built, and from then
 * on every frame is uploaded raw (in the camera's layout: GREY, YUYV or UYVY) and converted
 * and rectified by algo/cuda/rectify_cuda.cu before matching, with the same bytes as
 * jd_gray_from_yuyv_ref() then jd_remap_ref().
 */
#ifndef JD_HAL_CUDA_RECTIFY_H
#define JD_HAL_CUDA_RECTIFY_H

#include "../../algo/geometry/rectify.h"
#include "frame_cuda.h"

/** Take the tables' and raw frames' memory (boot, before sealing; 8-bit staging only). */
int jd_cuda_remap_take(struct jd_cuda *cu, struct jd_cuda_frame *f);

/**
 * Upload both cameras' tables (each f->w x f->h) and rectify every later frame on the GPU;
 * left_out and right_out (may be NULL) receive each collected frame's rectified images (the
 * preview, the dumps and the confidence map use them). Waits for the copy; allocates
 * nothing. @retval 0, -EINVAL (not taken, sizes differ), -EIO
 */
int jd_cuda_remap_load(struct jd_cuda *cu, struct jd_cuda_frame *f, const struct jd_remap map[2],
		       struct jd_image *left_out, struct jd_image *right_out);

/* Used by the frame staging (frame_cuda.c, stages_cuda.c): the bytes of a slot's raw image c
 * as staged, the remap once the raw pair is on the device, and the rectified pair's way back
 * into the slot (copy mode, when the slot asks for it). */
size_t jd__cuda_remap_raw_bytes(const struct jd_cuda_frame *f, int slot, int c);
int jd__cuda_remap_run(struct jd_cuda *cu, struct jd_cuda_frame *f);
int jd__cuda_remap_download(struct jd_cuda *cu, struct jd_cuda_frame *f);

#endif
