#include "jpeg.h"

#include <errno.h>
#include <stdio.h>
#include <turbojpeg.h>

int jd_jpeg_init(struct jd_jpeg *j)
{
	j->err[0] = '\0';
	j->tj = tjInitDecompress();
	if (!j->tj) {
		snprintf(j->err, sizeof(j->err), "cannot start the JPEG decoder: %s",
			 tjGetErrorStr2(NULL));
		return -ENOMEM;
	}
	return 0;
}

void jd_jpeg_deinit(struct jd_jpeg *j)
{
	if (j && j->tj) {
		tjDestroy(j->tj);
		j->tj = NULL;
	}
}

int jd_jpeg_size(struct jd_jpeg *j, const void *data, size_t bytes, int *w, int *h)
{
	int sub, cs;

	if (bytes < 4 || bytes > 0x7fffffff) {
		snprintf(j->err, sizeof(j->err), "%zu bytes is not a JPEG frame", bytes);
		return -EBADMSG;
	}
	/*
	 * The start-of-image marker first: after a failed decode, libjpeg-turbo 2.1's header
	 * reader can skip that check and report the previous frame's size for bytes that are not
	 * a JPEG at all (found by tests/fuzz/fuzz_jpeg.c).
	 */
	const unsigned char *b = data;
	if (b[0] != 0xff || b[1] != 0xd8) {
		snprintf(j->err, sizeof(j->err),
			 "not a JPEG: starts with 0x%02x 0x%02x, not the start-of-image marker", b[0],
			 b[1]);
		return -EBADMSG;
	}
	if (tjDecompressHeader3(j->tj, data, (unsigned long)bytes, w, h, &sub, &cs) != 0) {
		snprintf(j->err, sizeof(j->err), "not a readable JPEG: %s", tjGetErrorStr2(j->tj));
		return -EBADMSG;
	}
	return 0;
}

int jd_jpeg_decode_gray(struct jd_jpeg *j, const void *data, size_t bytes, struct jd_image *out)
{
	int w, h;
	int rc = jd_jpeg_size(j, data, bytes, &w, &h);

	if (rc) {
		return rc;
	}
	if (w != out->width || h != out->height) {
		snprintf(j->err, sizeof(j->err), "JPEG is %dx%d, the stream was set up for %dx%d",
			 w, h, out->width, out->height);
		return -ERANGE;
	}
	if (tjDecompress2(j->tj, data, (unsigned long)bytes, out->data, w, out->stride, h,
			  TJPF_GRAY, TJFLAG_STOPONWARNING) != 0) {
		snprintf(j->err, sizeof(j->err), "corrupt or truncated JPEG: %s",
			 tjGetErrorStr2(j->tj));
		return -EBADMSG;
	}
	return 0;
}
