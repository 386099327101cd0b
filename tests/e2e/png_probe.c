/*
 * What a screenshot shows, for the browser test: pixels of the boxes' pure green and pixels
 * of strong colour (the disparity colour map). Prints both counts; exits 1 when unreadable.
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	png_image img;
	long green = 0, colour = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: png_probe FILE.png\n");
		return 2;
	}
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&img, argv[1])) {
		fprintf(stderr, "png_probe: %s: %s\n", argv[1], img.message);
		return 1;
	}
	img.format = PNG_FORMAT_RGB;
	unsigned char *px = malloc(PNG_IMAGE_SIZE(img));
	if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
		fprintf(stderr, "png_probe: %s: %s\n", argv[1], img.message);
		return 1;
	}
	for (size_t i = 0; i < (size_t)img.width * img.height; i++) {
		int r = px[3 * i], g = px[3 * i + 1], b = px[3 * i + 2];
		int hi = r > g ? (r > b ? r : b) : (g > b ? g : b);
		int lo = r < g ? (r < b ? r : b) : (g < b ? g : b);
		green += g > 200 && r < 90 && b < 90;
		colour += hi - lo > 120;
	}
	printf("%ux%u green %ld colour %ld\n", img.width, img.height, green, colour);
	free(px);
	return 0;
}
