/*
 * Makes the brightness differences real camera pairs have, for the robustness tests:
 *   photometric IN.pgm OUT.pgm gain G OFFSET   out = G * in + OFFSET
 *   photometric IN.pgm OUT.pgm vignette V      out = in * (1 - V * (r / r_corner)^2)
 * rounded to nearest and clamped to 0..255. Binary PGM (P5, maxval 255) in and out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "photometric: %s: %s\n", path, what);
	return 1;
}

int main(int argc, char **argv)
{
	int w, h, maxval;
	FILE *f;

	if (argc < 5 || (strcmp(argv[3], "gain") == 0 && argc != 6)) {
		fprintf(stderr, "usage: photometric IN.pgm OUT.pgm gain G OFFSET | vignette V\n");
		return 2;
	}
	if (!(f = fopen(argv[1], "rb"))) {
		return fail("cannot open", argv[1]);
	}
	if (fscanf(f, "P5 %d %d %d", &w, &h, &maxval) != 3 || maxval != 255 || w <= 0 || h <= 0 ||
	    fgetc(f) == EOF) {
		fclose(f);
		return fail("not a binary 8-bit PGM", argv[1]);
	}
	unsigned char *px = malloc((size_t)w * h);
	if (!px || fread(px, 1, (size_t)w * h, f) != (size_t)w * h) {
		fclose(f);
		free(px);
		return fail("truncated", argv[1]);
	}
	fclose(f);
	double gain = 1.0, offset = 0.0, vig = 0.0;
	if (strcmp(argv[3], "gain") == 0) {
		gain = atof(argv[4]);
		offset = atof(argv[5]);
	} else {
		vig = atof(argv[4]);
	}
	double cx = (w - 1) / 2.0, cy = (h - 1) / 2.0, r2max = cx * cx + cy * cy;
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			double r2 = ((x - cx) * (x - cx) + (y - cy) * (y - cy)) / r2max;
			double v = px[(size_t)y * w + x] * gain * (1.0 - vig * r2) + offset;
			px[(size_t)y * w + x] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : floor(v + 0.5));
		}
	}
	if (!(f = fopen(argv[2], "wb"))) {
		free(px);
		return fail("cannot create", argv[2]);
	}
	fprintf(f, "P5\n%d %d\n255\n", w, h);
	int ok = fwrite(px, 1, (size_t)w * h, f) == (size_t)w * h;
	free(px);
	return fclose(f) == 0 && ok ? 0 : fail("write failed", argv[2]);
}
