#include "jpeg.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <turbojpeg.h>

/* The smallest header that reads: SOI, a 1x1 8-bit one-component SOF0, SOS, EOI. */
static const unsigned char probe_header[] = {0xff, 0xd8, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01,
					     0x00, 0x01, 0x01, 0x01, 0x11, 0x00, 0xff, 0xda, 0x00,
					     0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00, 0xff, 0xd9};

int jd_jpeg_init(struct jd_jpeg *j)
{
	j->err[0] = '\0';
	j->resets = 0;
	j->retired = NULL;
	j->tj = tjInitDecompress();
	j->spare = j->tj ? tjInitDecompress() : NULL;
	if (!j->spare) {
		snprintf(j->err, sizeof(j->err), "cannot start the JPEG decoder: %s",
			 tjGetErrorStr2(NULL));
		jd_jpeg_deinit(j);
		return -ENOMEM;
	}
	return 0;
}

void jd_jpeg_deinit(struct jd_jpeg *j)
{
	if (!j) {
		return;
	}
	if (j->tj) {
		tjDestroy(j->tj);
		j->tj = NULL;
	}
	if (j->spare) {
		tjDestroy(j->spare);
		j->spare = NULL;
	}
	if (j->retired) {
		tjDestroy(j->retired);
		j->retired = NULL;
	}
}

static int reads_probe(void *tj)
{
	int w, h, sub, cs;
	return tjDecompressHeader3(tj, probe_header, sizeof(probe_header), &w, &h, &sub, &cs) ==
		   0 &&
	       w == 1 && h == 1;
}

/*
 * After a failure: a decode that fails in its header aborts the handle's state (the
 * decoder's own error path does that; the header-only call does not), here on SOI+EOI, which
 * holds no image. Then the handle must read the probe header, or the spare takes its place.
 * @retval -EBADMSG ready again (err keeps the frame's reason), or -EIO
 */
static int recover(struct jd_jpeg *j)
{
	static const unsigned char no_image[] = {0xff, 0xd8, 0xff, 0xd9};
	unsigned char px;

	j->resets++;
	(void)tjDecompress2(j->tj, no_image, sizeof(no_image), &px, 1, 1, 1, TJPF_GRAY, 0);
	if (reads_probe(j->tj)) {
		return -EBADMSG;
	}
	if (j->spare && reads_probe(j->spare)) {
		j->retired = j->tj; /* freed at deinit, not in the loop */
		j->tj = j->spare;
		j->spare = NULL;
		return -EBADMSG;
	}
	size_t n = strlen(j->err);
	snprintf(j->err + n, sizeof(j->err) - n, "; the JPEG decoder cannot be reset");
	return -EIO;
}

int jd_jpeg_size(struct jd_jpeg *j, const void *data, size_t bytes, int *w, int *h)
{
	int sub, cs;

	if (bytes < 4 || bytes > 0x7fffffff) {
		snprintf(j->err, sizeof(j->err), "%zu bytes is not a JPEG frame", bytes);
		return -EBADMSG;
	}
	/* the start-of-image marker first: nothing else is worth handing to the library */
	const unsigned char *b = data;
	if (b[0] != 0xff || b[1] != 0xd8) {
		snprintf(j->err, sizeof(j->err),
			 "not a JPEG: starts with 0x%02x 0x%02x, not the start-of-image marker",
			 b[0], b[1]);
		return -EBADMSG;
	}
	if (tjDecompressHeader3(j->tj, data, (unsigned long)bytes, w, h, &sub, &cs) != 0) {
		snprintf(j->err, sizeof(j->err), "not a readable JPEG: %s", tjGetErrorStr2(j->tj));
		return recover(j);
	}
	if (cs == TJCS_CMYK || cs == TJCS_YCCK) {
		/* the library has no CMYK to grey; its own message says only "unsupported" */
		snprintf(j->err, sizeof(j->err),
			 "a CMYK JPEG (print colours): only greyscale and "
			 "colour (YCbCr, RGB) JPEGs are read; save it as RGB");
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
		return recover(j);
	}
	return 0;
}
