/*
 * MJPEG/JPEG frames to 8-bit luma with libjpeg-turbo's TurboJPEG API: one decoder handle per
 * camera, made at boot; every frame decodes straight into the caller's (pool) image. The
 * size is checked against what boot sized for before anything is written, and a corrupt or
 * truncated frame is an error (TJFLAG_STOPONWARNING), never grey rows or a crash.
 * (libjpeg's own per-image working memory comes and goes inside each decode call.)
 *
 * A failed header read leaves libjpeg-turbo 2.x's handle mid-header, and every later frame
 * then fails too ("SOS before SOF"): one damaged frame would blind the camera. So after any
 * failure the handle is reset, proved on a constant header, and replaced by a spare made at
 * init if the reset did not take; nothing is allocated after init.
 */
#ifndef JD_HAL_JPEG_H
#define JD_HAL_JPEG_H

#include <stddef.h>

#include "../../algo/jd_image.h"

struct jd_jpeg {
	void *tj;	      /* tjhandle */
	void *spare;	      /* a second handle for a reset that did not take; NULL once used */
	void *retired;	      /* the handle the spare replaced, destroyed at deinit */
	unsigned long resets; /* failures the handle was reset after */
	char err[256];
};

/** @retval 0 or -ENOMEM (the decoder or its spare could not start) */
int jd_jpeg_init(struct jd_jpeg *j);
void jd_jpeg_deinit(struct jd_jpeg *j);

/**
 * The JPEG's size, from its header.
 * @retval 0
 * @retval -EBADMSG not a readable JPEG (j->err); the handle is ready for the next frame
 * @retval -EIO     as -EBADMSG, and the handle could not be made ready again (spare used up)
 */
int jd_jpeg_size(struct jd_jpeg *j, const void *data, size_t bytes, int *w, int *h);

/**
 * Decode data (bytes long) into out, whose size must be the JPEG's.
 * @retval 0
 * @retval -EBADMSG not a JPEG, corrupt or truncated (j->err says which, with the library's
 *         message); out may hold part of the frame
 * @retval -ERANGE  the JPEG's size differs from out's (nothing written)
 * @retval -EIO     as -EBADMSG, and the handle could not be made ready again
 */
int jd_jpeg_decode_gray(struct jd_jpeg *j, const void *data, size_t bytes, struct jd_image *out);

#endif
