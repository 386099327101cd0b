/*
 * The on-request dumps (app/formats/dump.h): all four files appear, no temporary is left,
 * nothing is allocated, and the 16-bit PNG decodes (with libpng, an independent reader) to
 * disparity * 256 with 0 for none and saturation at 65535; a map wider than one deflate block
 * checks the block and chunk boundaries.
 */
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "count_alloc.h"
#include "dump.h"
#include "jd_test.h"
#include "png_u16.h"

static char dir[] = "/tmp/jd_dump_XXXXXX";

/* Read a 16-bit grey PNG into v (w*h), checking its header. @return 0 or -1 */
/* A grey PNG of bit depth depth (8 or 16) through libpng into v. */
static int read_png(const char *path, int w, int h, int depth, unsigned *v)
{
	FILE *f = fopen(path, "rb");
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	unsigned char *row = malloc((size_t)w * 2);
	int bytes = depth / 8;
	volatile int rc = -1;

	if (f && info && row && setjmp(png_jmpbuf(png)) == 0) {
		png_init_io(png, f);
		png_read_info(png, info);
		if ((int)png_get_image_width(png, info) == w &&
		    (int)png_get_image_height(png, info) == h &&
		    png_get_bit_depth(png, info) == depth &&
		    png_get_color_type(png, info) == PNG_COLOR_TYPE_GRAY) {
			for (int y = 0; y < h; y++) {
				png_read_row(png, row, NULL);
				for (int x = 0; x < w; x++) {
					v[(size_t)y * w + x] =
					    bytes == 2 ? (unsigned)row[2 * x] << 8 | row[2 * x + 1]
						       : row[x];
				}
			}
			png_read_end(png, NULL);
			rc = 0;
		}
	}
	png_destroy_read_struct(&png, &info, NULL);
	free(row);
	if (f) {
		fclose(f);
	}
	return rc;
}

static void check_size(int w, int h)
{
	size_t n = (size_t)w * h;
	struct jd_disp d = {malloc(sizeof(float) * n), w, h, w};
	struct jd_image left = {malloc(n), w, h, w};
	uint8_t *conf = malloc(n);
	float *scratch = malloc(jd_dump_mem_required(w, h));
	unsigned *got = malloc(sizeof(unsigned) * n);
	struct jd_camera_model cam = {500.0f, w / 2.0f, h / 2.0f, 60.0f};
	char err[256], p[300];

	for (size_t i = 0; i < n; i++) {
		static const float special[] = {0.0f, 0.5f, 255.99f, 300.0f, -1.0f, 1.0f / 256};
		d.data[i] = i % 7 < 6 ? special[i % 7] : (float)(i % 250) + 0.37f;
		left.data[i] = (uint8_t)i;
		conf[i] = (uint8_t)(i * 7);
	}
	d.data[n / 2] = JD_DISP_INVALID;
	long before = jd_allocations;
	int files = jd_dump_frame(dir, &d, conf, &left, &cam, scratch, err, sizeof(err));
	long allocs = jd_allocations - before;
	JD_CHECK(files == 5, "%dx%d: jd_dump_frame gave %d: %s", w, h, files, err);
	JD_CHECK(allocs == 0, "%dx%d: the dump allocated %ld times", w, h, allocs);
	static const char *const names[] = {"disparity.pfm", "disparity_u16.png", "confidence.png",
					    "depth_mm.pfm", "cloud.ply"};
	for (int i = 0; i < 5; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		JD_CHECK(access(p, R_OK) == 0, "%s missing", p);
		snprintf(p, sizeof(p), "%s/.%s.tmp", dir, names[i]);
		JD_CHECK(access(p, F_OK) != 0, "%s left behind", p);
	}
	snprintf(p, sizeof(p), "%s/disparity_u16.png", dir);
	JD_CHECK(read_png(p, w, h, 16, got) == 0, "%s: libpng cannot read it as %dx%d 16-bit grey",
		 p, w, h);
	long bad = -1;
	for (size_t i = 0; i < n && bad < 0; i++) {
		float v = d.data[i];
		unsigned want = !jd_disp_is_valid(v) || v <= 0 ? 0
				: v * 256 >= 65535	       ? 65535
							       : (unsigned)lrintf(v * 256);
		bad = got[i] == want && got[i] == jd_png_u16_value(v) ? -1 : (long)i;
	}
	JD_CHECK(bad < 0, "%dx%d: pixel %ld: disparity %g stored as %u", w, h, bad,
		 bad >= 0 ? d.data[bad] : 0.0, bad >= 0 ? got[bad] : 0);
	snprintf(p, sizeof(p), "%s/confidence.png", dir);
	JD_CHECK(read_png(p, w, h, 8, got) == 0, "%s: libpng cannot read it as %dx%d 8-bit grey", p,
		 w, h);
	bad = -1;
	for (size_t i = 0; i < n && bad < 0; i++) {
		bad = got[i] == conf[i] ? -1 : (long)i;
	}
	JD_CHECK(bad < 0, "%dx%d: confidence pixel %ld differs", w, h, bad);
	free(d.data);
	free(conf);
	free(left.data);
	free(scratch);
	free(got);
}

int main(void)
{
	JD_CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	check_size(1, 1);
	check_size(33, 17);
	check_size(640, 480); /* 614 KB of raw rows: 19 deflate blocks */
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	JD_CHECK(system(cmd) == 0, "%s", cmd);
	return jd_test_done("unit.dump");
}
