/*
 * The image readers (app/formats/image_io.c): PGM/PPM, PNG and JPEG by their signature through
 * jd_image_read(), and PFM through jd_pfm_read().
 */
#include "fuzz.h"
#include "image_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jd_image im = {0};
	struct jd_disp d = {0};
	char err[512];

	if (jd_image_read(fuzz_file(0, ".img", data, size), &im, err, sizeof(err)) == 0) {
		free(im.data);
	}
	if (jd_pfm_read(fuzz_file(1, ".pfm", data, size), &d, err, sizeof(err)) == 0) {
		free(d.data);
	}
	return 0;
}
