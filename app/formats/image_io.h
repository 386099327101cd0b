/*
 * Reading 8-bit gray images (PGM/PPM, PNG, JPEG) and disparity maps (PFM), and writing
 * disparity maps (PFM, 16-bit KITTI PNG, colour PNG). Files are written to a temporary name
 * and renamed, so a failed run never leaves a half-written output.
 */
#ifndef JD_APP_IMAGE_IO_H
#define JD_APP_IMAGE_IO_H

#include <stddef.h>

#include "../../algo/jd_image.h"

/* Larger images are refused before any allocation: 16384 x 16384 covers every sensor we know. */
#define JD_IMAGE_MAX_SIDE 16384
/* the largest file read: a float PFM of the largest side, with room for its header */
#define JD_IMAGE_MAX_FILE ((1 << 30) + (1 << 20))

/**
 * Read PGM/PPM (P5/P6), PNG or JPEG as 8-bit gray (colour: Y = 0.299 R + 0.587 G + 0.114 B,
 * rounded). The pixels are malloc'ed (desk tools only; the daemon reads into pools).
 * @retval 0 success
 * @retval -ENOENT / -EIO / -EINVAL with err = "FILE: reason"
 */
int jd_image_read(const char *path, struct jd_image *out, char *err, size_t errlen);

/** Read a PFM disparity map (Pf, either byte order, rows bottom-to-top on disk). */
int jd_pfm_read(const char *path, struct jd_disp *out, char *err, size_t errlen);

/** Write PFM (invalid = +inf, little-endian, rows bottom-to-top). */
int jd_pfm_write(const char *path, const struct jd_disp *d, char *err, size_t errlen);

/** Write a 16-bit PNG with disparity * 256 (KITTI), 0 = invalid. */
int jd_png16_write(const char *path, const struct jd_disp *d, char *err, size_t errlen);

/**
 * Write a colour-mapped PNG in the preview's colours (jd_preview_colour() over dmin .. dmax):
 * near = warm, far = cool, invalid = black.
 */
int jd_color_png_write(const char *path, const struct jd_disp *d, float dmin, float dmax, char *err,
		       size_t errlen);

/** Write an 8-bit grey PNG (a confidence map; uncompressed, app/formats/png_u16.h). */
int jd_gray_png_write(const char *path, const struct jd_image *im, char *err, size_t errlen);

/** Write an 8-bit PGM (P5). */
int jd_pgm_write(const char *path, const struct jd_image *im, char *err, size_t errlen);

/** Write by extension: .pfm, or .png (16-bit KITTI). */
int jd_disp_write(const char *path, const struct jd_disp *d, char *err, size_t errlen);

/** Write text to path through a temporary file renamed when complete. @retval 0 or -errno */
int jd_text_write(const char *path, const char *text, size_t len, char *err, size_t errlen);

/** Read a stereo pair (gray, as jd_image_read) that must share one size. @retval 0 or -errno */
int jd_pair_read(const char *lpath, const char *rpath, struct jd_image *l, struct jd_image *r,
		 char *err, size_t errlen);

#endif
