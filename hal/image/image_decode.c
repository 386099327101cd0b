#include "image_decode.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <string.h>

#include "../../algo/convert.h"

#define ERR(...)                                                                                   \
	do {                                                                                       \
		snprintf(err, errlen, __VA_ARGS__);                                                \
		return -EINVAL;                                                                    \
	} while (0)

enum jd_image_kind jd_image_kind_of(const uint8_t *buf, size_t len)
{
	if (len >= 2 && buf[0] == 'P' && (buf[1] == '5' || buf[1] == '6')) {
		return JD_IMAGE_PNM;
	}
	if (len >= 8 && png_sig_cmp(buf, 0, 8) == 0) {
		return JD_IMAGE_PNG;
	}
	if (len >= 3 && buf[0] == 0xff && buf[1] == 0xd8 && buf[2] == 0xff) {
		return JD_IMAGE_JPEG;
	}
	return JD_IMAGE_UNKNOWN;
}

size_t jd_image_row_scratch(int w)
{
	return (size_t)w * 6; /* RGB, 16 bits a sample: the widest row either format has */
}

/* ---- PNM ---- */

struct pnm {
	long w, h, maxval;
	int channels;
	size_t pixels; /* offset of the first sample */
};

int jd_pnm_number(const uint8_t *buf, size_t len, size_t *pos, long *v)
{
	size_t p = *pos;

	for (;;) {
		while (p < len &&
		       (buf[p] == ' ' || buf[p] == '\t' || buf[p] == '\r' || buf[p] == '\n')) {
			p++;
		}
		if (p < len && buf[p] == '#') {
			while (p < len && buf[p] != '\n') {
				p++;
			}
			continue;
		}
		break;
	}
	if (p >= len || buf[p] < '0' || buf[p] > '9') {
		return -EINVAL;
	}
	*v = 0;
	while (p < len && buf[p] >= '0' && buf[p] <= '9') {
		*v = *v * 10 + (buf[p++] - '0');
		if (*v > 1000000) {
			return -EINVAL;
		}
	}
	*pos = p;
	return 0;
}

static int pnm_header(const uint8_t *buf, size_t len, const char *what, struct pnm *h, char *err,
		      size_t errlen)
{
	size_t pos = 2;

	h->channels = buf[1] == '6' ? 3 : 1;
	if (jd_pnm_number(buf, len, &pos, &h->w) || jd_pnm_number(buf, len, &pos, &h->h) ||
	    jd_pnm_number(buf, len, &pos, &h->maxval)) {
		ERR("%s: malformed P%c header", what, buf[1]);
	}
	if (h->w < 1 || h->h < 1 || h->w > JD_IMAGE_DECODE_MAX_SIDE ||
	    h->h > JD_IMAGE_DECODE_MAX_SIDE) {
		ERR("%s: image size %ldx%ld outside 1..%d", what, h->w, h->h,
		    JD_IMAGE_DECODE_MAX_SIDE);
	}
	if (h->maxval < 1 || h->maxval > 65535) {
		ERR("%s: maxval %ld: must be 1 to 65535", what, h->maxval);
	}
	h->pixels = pos + 1; /* the single white-space byte after maxval */
	return 0;
}

static int pnm_decode(const uint8_t *buf, size_t len, const char *what, struct jd_image *out,
		      char *err, size_t errlen)
{
	struct pnm h;
	int rc = pnm_header(buf, len, what, &h, err, errlen);

	if (rc) {
		return rc;
	}
	if (h.w != out->width || h.h != out->height) {
		ERR("%s: %ldx%ld, expected %dx%d", what, h.w, h.h, out->width, out->height);
	}
	int wide = h.maxval > 255;
	size_t row = (size_t)h.w * h.channels * (wide ? 2 : 1), need = row * h.h;
	if (h.pixels > len || len - h.pixels < need) {
		ERR("%s: truncated: %zu pixel bytes expected, %zu present", what, need,
		    h.pixels > len ? 0 : len - h.pixels);
	}
	for (long y = 0; y < h.h; y++) {
		jd_gray_from_samples(buf + h.pixels + (size_t)y * row, (int)h.w, h.channels, wide,
				     (unsigned)h.maxval, out->data + (size_t)y * out->stride);
	}
	return 0;
}

/* ---- PNG (libpng's classic API: the samples as stored, no gamma) ---- */

struct png_src {
	const uint8_t *buf;
	size_t len, pos;
	char msg[200];
};

static void png_src_read(png_structp png, png_bytep p, size_t n)
{
	struct png_src *s = png_get_io_ptr(png);

	if (n > s->len - s->pos) {
		png_error(png, "truncated PNG data");
	}
	memcpy(p, s->buf + s->pos, n);
	s->pos += n;
}

static void png_src_error(png_structp png, png_const_charp msg)
{
	struct png_src *s = png_get_error_ptr(png);

	snprintf(s->msg, sizeof(s->msg), "%s", msg);
	png_longjmp(png, 1);
}

static void png_src_warning(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg; /* benign chunks (e.g. a bad iCCP profile) do not change the pixels */
}

/*
 * Header, transforms, and with out the rows. info: size and scratch. @retval 0 or -EINVAL
 * (kept in one function: libpng's longjmp must not cross frames holding live state)
 */
static int png_run(const uint8_t *buf, size_t len, const char *what, struct jd_image_info *info,
		   struct jd_image *out, uint8_t *scratch, size_t scratch_bytes, char *err,
		   size_t errlen)
{
	struct png_src src = {buf, len, 0, ""};
	png_structp png =
	    png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, png_src_error, png_src_warning);
	png_infop pi = png ? png_create_info_struct(png) : NULL;
	volatile int rc = -EINVAL;

	if (!png || !pi) {
		png_destroy_read_struct(&png, &pi, NULL);
		ERR("%s: out of memory for the PNG decoder", what);
	}
	if (setjmp(png_jmpbuf(png))) {
		snprintf(err, errlen, "%s: corrupt or truncated PNG: %s", what, src.msg);
		png_destroy_read_struct(&png, &pi, NULL);
		return -EINVAL;
	}
	png_set_read_fn(png, &src, png_src_read);
	png_set_user_limits(png, JD_IMAGE_DECODE_MAX_SIDE, JD_IMAGE_DECODE_MAX_SIDE);
	png_read_info(png, pi);
	/* palettes and 1/2/4-bit gray to 8 bits, transparency to alpha, then no alpha */
	png_set_expand(png);
	png_set_strip_alpha(png);
	int passes = png_set_interlace_handling(png);
	png_read_update_info(png, pi);
	int w = (int)png_get_image_width(png, pi), h = (int)png_get_image_height(png, pi);
	int channels = png_get_channels(png, pi), wide = png_get_bit_depth(png, pi) == 16;
	size_t rowbytes = png_get_rowbytes(png, pi);
	info->kind = JD_IMAGE_PNG;
	info->width = w;
	info->height = h;
	info->scratch = rowbytes * (passes > 1 ? (size_t)h : 1);
	if (!out) {
		rc = 0;
	} else if (w != out->width || h != out->height) {
		snprintf(err, errlen, "%s: %dx%d, expected %dx%d", what, w, h, out->width,
			 out->height);
	} else if (channels != 1 && channels != 3) {
		snprintf(err, errlen, "%s: %d channels after expansion", what, channels);
	} else if (scratch_bytes < info->scratch) {
		snprintf(err, errlen,
			 "%s: an interlaced PNG needs the whole image in memory: de-interlace it "
			 "for a files camera",
			 what);
	} else {
		for (int pass = 0; pass < passes; pass++) {
			for (int y = 0; y < h; y++) {
				png_read_row(png, scratch + (passes > 1 ? (size_t)y * rowbytes : 0),
					     NULL);
				if (passes == 1) {
					jd_gray_from_samples(scratch, w, channels, wide,
							     wide ? 65535u : 255u,
							     out->data + (size_t)y * out->stride);
				}
			}
		}
		for (int y = 0; passes > 1 && y < h; y++) {
			jd_gray_from_samples(scratch + (size_t)y * rowbytes, w, channels, wide,
					     wide ? 65535u : 255u,
					     out->data + (size_t)y * out->stride);
		}
		rc = 0;
	}
	png_destroy_read_struct(&png, &pi, NULL);
	return rc;
}

int jd_image_probe(const uint8_t *buf, size_t len, const char *what, struct jd_image_info *info,
		   char *err, size_t errlen)
{
	memset(info, 0, sizeof(*info));
	switch (jd_image_kind_of(buf, len)) {
	case JD_IMAGE_PNM: {
		struct pnm h;
		int rc = pnm_header(buf, len, what, &h, err, errlen);
		if (!rc) {
			*info = (struct jd_image_info){JD_IMAGE_PNM, (int)h.w, (int)h.h, 0};
		}
		return rc;
	}
	case JD_IMAGE_PNG:
		return png_run(buf, len, what, info, NULL, NULL, 0, err, errlen);
	default:
		ERR("%s: not a PGM/PPM or PNG image", what);
	}
}

int jd_image_decode_gray(const uint8_t *buf, size_t len, const char *what, struct jd_image *out,
			 uint8_t *scratch, size_t scratch_bytes, char *err, size_t errlen)
{
	struct jd_image_info info;

	switch (jd_image_kind_of(buf, len)) {
	case JD_IMAGE_PNM:
		return pnm_decode(buf, len, what, out, err, errlen);
	case JD_IMAGE_PNG:
		return png_run(buf, len, what, &info, out, scratch, scratch_bytes, err, errlen);
	default:
		ERR("%s: not a PGM/PPM or PNG image", what);
	}
}
