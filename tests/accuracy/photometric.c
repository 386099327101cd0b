/*
 * Makes the brightness differences real camera pairs have, for the robustness tests:
 *   photometric IN.pgm OUT.pgm gain G OFFSET   out = G * in + OFFSET
 *   photometric IN.pgm OUT.pgm vignette V      out = in * (1 - V * (r / r_corner)^2)
 * rounded to nearest and clamped to 0..255. Binary PGM (P5, maxval 255) in and out.
 *   photometric RIGHT.pgm OUT.pgm unclipped LEFT.pgm CHANGED.pgm GT.pfm MASK.pgm
 * writes MASK's pixels (255) whose 9x9 neighbourhood in LEFT and about their true match in
 * RIGHT and in CHANGED (at x - d, rounded) holds neither 0 nor 255: where the change left the
 * texture every matcher's window sees.
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

#define CLIP_R 4

/* A binary 8-bit PGM's pixels (w x h), or NULL after saying why. */
static unsigned char *read_pgm(const char *path, int *w, int *h)
{
	int maxval;
	FILE *f = fopen(path, "rb");

	if (!f) {
		fail("cannot open", path);
		return NULL;
	}
	if (fscanf(f, "P5 %d %d %d", w, h, &maxval) != 3 || maxval != 255 || *w <= 0 || *h <= 0 ||
	    fgetc(f) == EOF) {
		fclose(f);
		fail("not a binary 8-bit PGM", path);
		return NULL;
	}
	unsigned char *px = malloc((size_t)*w * *h);
	if (!px || fread(px, 1, (size_t)*w * *h, f) != (size_t)*w * *h) {
		fclose(f);
		free(px);
		fail("truncated", path);
		return NULL;
	}
	fclose(f);
	return px;
}

/* Write w x h pixels as a binary PGM. @return 0, or 1 after saying why */
static int write_pgm(const char *path, const unsigned char *px, int w, int h)
{
	FILE *f = fopen(path, "wb");

	if (!f) {
		return fail("cannot create", path);
	}
	fprintf(f, "P5\n%d %d\n255\n", w, h);
	int ok = fwrite(px, 1, (size_t)w * h, f) == (size_t)w * h;
	return fclose(f) == 0 && ok ? 0 : fail("write failed", path);
}

/* A PFM's one channel, top row first (PFM stores the bottom row first). */
static float *read_pfm(const char *path, int w, int h)
{
	char kind[3] = {0};
	int pw, ph;
	double scale;
	FILE *f = fopen(path, "rb");
	float *d = NULL;

	if (f && fscanf(f, "%2s %d %d %lf", kind, &pw, &ph, &scale) == 4 && !strcmp(kind, "Pf") &&
	    pw == w && ph == h && scale < 0 && fgetc(f) != EOF &&
	    (d = malloc(sizeof(float) * w * h))) {
		for (int y = h - 1; y >= 0; y--) {
			if (fread(d + (size_t)y * w, sizeof(float), (size_t)w, f) != (size_t)w) {
				free(d);
				d = NULL;
				break;
			}
		}
	}
	if (f) {
		fclose(f);
	}
	return d;
}

static int unclipped(char **argv)
{
	int w, h, w2, h2, w3, h3, w4, h4;
	unsigned char *r = read_pgm(argv[1], &w, &h), *l = read_pgm(argv[4], &w2, &h2);
	unsigned char *c = read_pgm(argv[5], &w3, &h3), *m = read_pgm(argv[7], &w4, &h4);
	float *gt = r ? read_pfm(argv[6], w, h) : NULL;
	int rc = 1;

	if (!r || !l || !c || !m || !gt || w2 != w || w3 != w || w4 != w || h2 != h || h3 != h ||
	    h4 != h) {
		if (r && l && c && m && !gt) {
			fail("not a PFM the size of the right image", argv[6]);
		} else if (r && l && c && m) {
			fprintf(stderr, "photometric: unclipped: the images differ in size\n");
		}
		goto out;
	}
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			size_t i = (size_t)y * w + x;
			float d = gt[i];
			int xr = d > 0 && d < INFINITY ? (int)floor(x - d + 0.5) : -1;
			int keep = m[i] && xr >= 0 && xr < w;
			/* the matching windows too: a 9x9 neighbourhood, census's 9x7 inside it */
			for (int dy = -CLIP_R; keep && dy <= CLIP_R; dy++) {
				for (int dx = -CLIP_R; keep && dx <= CLIP_R; dx++) {
					int yy = y + dy, xl = x + dx, xx = xr + dx;
					if (yy < 0 || yy >= h || xl < 0 || xl >= w || xx < 0 ||
					    xx >= w) {
						continue;
					}
					size_t row = (size_t)yy * w;
					keep = l[row + xl] % 255 && r[row + xx] % 255 &&
					       c[row + xx] % 255;
				}
			}
			m[i] = keep ? 255 : 0;
		}
	}
	rc = write_pgm(argv[2], m, w, h);
out:
	free(r);
	free(l);
	free(c);
	free(m);
	free(gt);
	return rc;
}

int main(int argc, char **argv)
{
	int w, h;

	if (argc == 8 && strcmp(argv[3], "unclipped") == 0) {
		return unclipped(argv);
	}
	if (argc < 5 || (strcmp(argv[3], "gain") == 0 && argc != 6)) {
		fprintf(stderr, "usage: photometric IN.pgm OUT.pgm gain G OFFSET | vignette V\n");
		return 2;
	}
	unsigned char *px = read_pgm(argv[1], &w, &h);
	if (!px) {
		return 1;
	}
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
			px[(size_t)y * w + x] = (unsigned char)(v < 0	  ? 0
								: v > 255 ? 255
									  : floor(v + 0.5));
		}
	}
	int rc = write_pgm(argv[2], px, w, h);
	free(px);
	return rc;
}
