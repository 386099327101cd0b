/*
 * Image files to 8-bit luma, one decoder for every path that reads them (`match`, `sense`,
 * `eval` and the files camera), so that the same file gives the same pixels everywhere:
 * PGM/PPM (P5/P6, any maxval to 65535) and PNG (any type and depth, no gamma applied), each
 * sample scaled and converted by algo/convert.h's jd_gray_from_samples(). JPEG goes through
 * hal/image/jpeg.h, the cameras' MJPEG decoder. No allocation but libpng's own state.
 */
#ifndef JD_HAL_IMAGE_DECODE_H
#define JD_HAL_IMAGE_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "../../algo/jd_image.h"

/* the largest side read (a 16384 x 16384 frame is 256 MiB of luma) */
#define JD_IMAGE_DECODE_MAX_SIDE 16384

enum jd_image_kind { JD_IMAGE_UNKNOWN, JD_IMAGE_PNM, JD_IMAGE_PNG, JD_IMAGE_JPEG };

struct jd_image_info {
	enum jd_image_kind kind;
	int width, height;
	size_t scratch; /* bytes jd_image_decode_gray() needs beside the output */
};

/** The kind from the first bytes (magic numbers), without parsing further. */
enum jd_image_kind jd_image_kind_of(const uint8_t *buf, size_t len);

/**
 * The size and scratch of a PNM or PNG file in buf (JPEG: hal/image/jpeg.h). @retval 0, or
 * -EINVAL with err saying "what: reason" (what names the file or frame)
 */
int jd_image_probe(const uint8_t *buf, size_t len, const char *what, struct jd_image_info *info,
		   char *err, size_t errlen);

/**
 * Decode a PNM or PNG of exactly out's size into out, with scratch of at least
 * info.scratch bytes. @retval 0, or -EINVAL with err set (a size other than out's, corrupt
 * or truncated data)
 */
int jd_image_decode_gray(const uint8_t *buf, size_t len, const char *what, struct jd_image *out,
			 uint8_t *scratch, size_t scratch_bytes, char *err, size_t errlen);

/**
 * One header number of a PNM or PFM file at *pos, skipping white space and # comments;
 * *pos moves past it. @retval 0, -EINVAL (no number, or above 1000000)
 */
int jd_pnm_number(const uint8_t *buf, size_t len, size_t *pos, long *v);

/** Scratch for any non-interlaced PNG or PNM of width w (a files camera's row buffer). */
size_t jd_image_row_scratch(int w);

#endif
