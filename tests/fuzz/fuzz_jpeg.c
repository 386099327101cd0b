/*
 * The MJPEG frame decoder (hal/image/jpeg.c) as the capture path uses it: the header's size, then
 * a decode into a fixed frame of that size when it fits the largest frame boot allows here
 * (640x480), and into a frame of the wrong size (must be refused, nothing written).
 */
#include <errno.h>

#include "fuzz.h"
#include "jpeg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct jd_jpeg j;
	static uint8_t frame[640 * 480];
	int w, h;

	if (!j.tj && jd_jpeg_init(&j)) {
		abort();
	}
	if (jd_jpeg_size(&j, data, size, &w, &h) == 0 && w > 0 && h > 0 &&
	    (long)w * h <= (long)sizeof(frame)) {
		struct jd_image out = {frame, w, h, w};
		jd_jpeg_decode_gray(&j, data, size, &out);
		struct jd_image wrong = {frame, w + 1, h, w + 1};
		int rc;
		if ((long)(w + 1) * h <= (long)sizeof(frame) &&
		    (rc = jd_jpeg_decode_gray(&j, data, size, &wrong)) != -ERANGE) {
			fprintf(stderr, "a %dx%d JPEG decoded into %dx%d: %d (%s)\n", w, h, w + 1,
				h, rc, j.err);
			abort(); /* a size mismatch must be refused */
		}
	}
	return 0;
}
