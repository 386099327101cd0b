/* Image and disparity files: round trips, every format, and damaged files. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <turbojpeg.h>
#include <unistd.h>

#include "image_io.h"
#include "jd_test.h"

static char dir[] = "/tmp/jd_io_XXXXXX";

static const char *path(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static void write_bytes(const char *p, const void *data, size_t n)
{
	FILE *f = fopen(p, "wb");

	fwrite(data, 1, n, f);
	fclose(f);
}

static void expect_error(const char *file, const char *needle)
{
	struct jd_image im;
	char err[512] = "";

	JD_CHECK(jd_image_read(file, &im, err, sizeof(err)) != 0 && strstr(err, needle) &&
		     strstr(err, file),
		 "%s: expected '%s', got '%s'", file, needle, err);
}

int main(void)
{
	enum { W = 37, H = 23 };
	uint8_t px[W * H];
	unsigned seed = 3;
	struct jd_image im = {px, W, H, W}, back;
	char err[512];

	JD_CHECK(mkdtemp(dir) != NULL, "temp dir");
	for (int i = 0; i < W * H; i++) {
		px[i] = (uint8_t)(jd_test_rand(&seed) >> 24);
	}
	/* PGM round trip. */
	JD_CHECK(jd_pgm_write(path("a.pgm"), &im, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(jd_image_read(path("a.pgm"), &back, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(back.width == W && back.height == H && memcmp(back.data, px, sizeof(px)) == 0,
		 "PGM round trip");
	free(back.data);

	/* PPM with comments converts with the one luma rule (algo/convert.h, fixed point). */
	const char ppm[] = "P6\n# comment\n2 1\n255\n\xff\x00\x00\x00\x00\xff";
	write_bytes(path("c.ppm"), ppm, sizeof(ppm) - 1);
	JD_CHECK(jd_image_read(path("c.ppm"), &back, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(back.data[0] == 77 && back.data[1] == 29, "luma of red %d, blue %d", back.data[0],
		 back.data[1]);
	free(back.data);

	/* JPEG through TurboJPEG: gray, lossy, so compare loosely. */
	tjhandle tj = tjInitCompress();
	unsigned char *jpg = NULL;
	unsigned long jlen = 0;
	JD_CHECK(tjCompress2(tj, px, W, W, H, TJPF_GRAY, &jpg, &jlen, TJSAMP_GRAY, 100, 0) == 0,
		 "compress");
	write_bytes(path("a.jpg"), jpg, jlen);
	JD_CHECK(jd_image_read(path("a.jpg"), &back, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(back.width == W && back.height == H, "JPEG size");
	free(back.data);
	write_bytes(path("trunc.jpg"), jpg, jlen / 2);
	expect_error(path("trunc.jpg"), "JPEG");
	tjFree(jpg);
	tjDestroy(tj);

	/* PFM round trip keeps inf and exact floats; rows are stored bottom-up. */
	float dv[W * H];
	for (int i = 0; i < W * H; i++) {
		dv[i] = i % 7 == 0 ? JD_DISP_INVALID : (float)i * 0.25f;
	}
	struct jd_disp d = {dv, W, H, W}, db;
	JD_CHECK(jd_pfm_write(path("d.pfm"), &d, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(jd_pfm_read(path("d.pfm"), &db, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(db.width == W && db.height == H && memcmp(db.data, dv, sizeof(dv)) == 0,
		 "PFM round trip");
	free(db.data);
	FILE *f = fopen(path("d.pfm"), "rb");
	char head[32] = "";
	JD_CHECK(f && fread(head, 1, 12, f) == 12 && strncmp(head, "Pf\n37 23\n-1\n", 12) == 0,
		 "PFM header '%.12s'", head);
	fclose(f);

	/* 16-bit and colour PNG write; the PNG reader takes them back. */
	JD_CHECK(jd_png16_write(path("d.png"), &d, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(jd_color_png_write(path("v.png"), &d, 0, 200, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(jd_image_read(path("v.png"), &back, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(back.width == W && back.data[0] == 0, "invalid pixel is black in colour");
	free(back.data);

	/* Damaged and wrong files: one line naming the file and the problem. */
	expect_error(path("missing.pgm"), "cannot open");
	write_bytes(path("magic.pgm"), "XX\n1 1\n255\n\0", 12);
	expect_error(path("magic.pgm"), "unknown image format");
	write_bytes(path("trunc.pgm"), "P5\n10 10\n255\nabc", 16);
	expect_error(path("trunc.pgm"), "truncated");
	write_bytes(path("head.pgm"), "P5\n10\n", 6);
	expect_error(path("head.pgm"), "malformed");
	write_bytes(path("huge.pgm"), "P5\n100000 100000\n255\n", 22);
	expect_error(path("huge.pgm"), "outside");
	/* 16-bit samples scale to 8 bits as round(v * 255 / maxval), as PNG's do */
	write_bytes(path("d16.pgm"), "P5\n3 1\n65535\n\xff\xff\x00\x00\x80\x80", 20);
	JD_CHECK(jd_image_read(path("d16.pgm"), &back, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(back.data[0] == 255 && back.data[1] == 0 && back.data[2] == 128,
		 "16-bit PGM: %d %d %d", back.data[0], back.data[1], back.data[2]);
	free(back.data);
	write_bytes(path("deep.pgm"), "P5\n1 1\n70000\n\0\0", 15);
	expect_error(path("deep.pgm"), "maxval 70000");
	write_bytes(path("empty.pgm"), "", 0);
	expect_error(path("empty.pgm"), "empty");
	const unsigned char png_sig[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0};
	write_bytes(path("bad.png"), png_sig, sizeof(png_sig));
	expect_error(path("bad.png"), "PNG");

	/* A failed write leaves nothing behind, not even the temporary. */
	/* A scale that runs to the end of the file, or is no number: refused, never overread. */
	{
		static const char *const bad[] = {
		    "Pf\n1 1\n-111111111111111111111111111111111111111", "Pf 1 1 -",
		    "Pf 1 1 nan\n1234", "Pf 1 1 -1x\n1234"};
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			struct jd_disp bd;
			FILE *bf = fopen(path("bad.pfm"), "wb");
			fputs(bad[i], bf);
			fclose(bf);
			JD_CHECK(jd_pfm_read(path("bad.pfm"), &bd, err, sizeof(err)) == -EINVAL &&
				     strstr(err, "malformed PFM scale"),
				 "bad PFM %zu: %s", i, err);
		}
	}
	JD_CHECK(jd_pfm_write("/nonexistent-dir/x.pfm", &d, err, sizeof(err)) != 0 &&
		     strstr(err, "/nonexistent-dir/x.pfm"),
		 "%s", err);
	JD_CHECK(jd_disp_write(path("x.txt"), &d, err, sizeof(err)) != 0 &&
		     strstr(err, "unknown output format"),
		 "%s", err);
	JD_CHECK(access(path("x.txt"), F_OK) != 0, "nothing written for a bad extension");

	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	JD_CHECK(system(cmd) == 0, "cleanup");
	return jd_test_done("unit.image_io");
}
