#include "image_io.h"

#include <errno.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../algo/jd_status.h"
#include "../../algo/preview_compose.h"
#include "../../hal/image/image_decode.h"
#include "../../hal/in_file.h"
#include "../../hal/image/jpeg.h"
#include "../../hal/out_file.h"
#include "png_u16.h"

#define ERR(code, ...)                                                                             \
	do {                                                                                       \
		snprintf(err, errlen, __VA_ARGS__);                                                \
		rc = (code);                                                                       \
		goto out;                                                                          \
	} while (0)

/* The whole of a regular file, NUL-terminated (header parsing with strtod stops there). */
static int read_file(const char *path, unsigned char **buf, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	int fd = jd_in_open(path, err, errlen), rc = 0;
	size_t got = 0;

	*buf = NULL;
	if (fd < 0) {
		return fd;
	}
	if (fstat(fd, &st) != 0) {
		ERR(-EIO, "%s: cannot read: %s", path, strerror(errno));
	}
	if (st.st_size == 0) {
		ERR(-EINVAL, "%s: empty file", path);
	}
	if (st.st_size > JD_IMAGE_MAX_FILE) {
		ERR(-EFBIG, "%s: %lld bytes: larger than any image this reads (%d MiB)", path,
		    (long long)st.st_size, JD_IMAGE_MAX_FILE >> 20);
	}
	*buf = malloc((size_t)st.st_size + 1);
	if (!*buf) {
		ERR(-ENOMEM, "%s: out of memory for %lld bytes", path, (long long)st.st_size);
	}
	while (got < (size_t)st.st_size) {
		ssize_t k = read(fd, *buf + got, (size_t)st.st_size - got);
		if (k < 0 && errno == EINTR) {
			continue;
		}
		if (k <= 0) {
			ERR(-EIO, "%s: short read", path);
		}
		got += (size_t)k;
	}
	(*buf)[got] = 0;
	*len = got;
out:
	if (rc) {
		free(*buf);
		*buf = NULL;
	}
	close(fd);
	return rc;
}

static int check_size(const char *path, long w, long h, char *err, size_t errlen)
{
	if (w < 1 || h < 1 || w > JD_IMAGE_MAX_SIDE || h > JD_IMAGE_MAX_SIDE) {
		snprintf(err, errlen, "%s: image size %ldx%ld outside 1..%d", path, w, h,
			 JD_IMAGE_MAX_SIDE);
		return -EINVAL;
	}
	return 0;
}

/* PGM/PPM and PNG through the one decoder the files camera uses too (hal/image/image_decode.h). */
static int read_pnm_png(const char *path, const unsigned char *buf, size_t len,
			struct jd_image *out, char *err, size_t errlen)
{
	struct jd_image_info info;
	uint8_t *scratch = NULL;
	int rc;

	if ((rc = jd_image_probe(buf, len, path, &info, err, errlen))) {
		return rc;
	}
	*out = (struct jd_image){malloc((size_t)info.width * info.height), info.width, info.height,
				 info.width};
	scratch = malloc(info.scratch ? info.scratch : 1);
	if (!out->data || !scratch) {
		snprintf(err, errlen, "%s: out of memory", path);
		rc = -ENOMEM;
	} else {
		rc = jd_image_decode_gray(buf, len, path, out, scratch, info.scratch, err, errlen);
	}
	free(scratch);
	if (rc) {
		free(out->data);
		out->data = NULL;
	}
	return rc;
}

/* Through the cameras' own decoder (hal/image/jpeg.c): the same checks for files and frames. */
static int read_jpeg(const char *path, const unsigned char *buf, size_t len, struct jd_image *out,
		     char *err, size_t errlen)
{
	struct jd_jpeg j;
	int w, h, rc = 0;

	if (jd_jpeg_init(&j)) {
		snprintf(err, errlen, "%s: %s", path, j.err);
		return -EIO;
	}
	if (jd_jpeg_size(&j, buf, len, &w, &h)) {
		ERR(-EINVAL, "%s: %s", path, j.err);
	}
	if ((rc = check_size(path, w, h, err, errlen))) {
		goto out;
	}
	*out = (struct jd_image){malloc((size_t)w * h), w, h, w};
	if (!out->data) {
		ERR(-ENOMEM, "%s: out of memory", path);
	}
	if (jd_jpeg_decode_gray(&j, buf, len, out)) {
		ERR(-EINVAL, "%s: %s", path, j.err);
	}
out:
	jd_jpeg_deinit(&j);
	if (rc) {
		free(out->data);
		out->data = NULL;
	}
	return rc;
}

int jd_image_read(const char *path, struct jd_image *out, char *err, size_t errlen)
{
	unsigned char *buf;
	size_t len;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = read_file(path, &buf, &len, err, errlen))) {
		return rc;
	}
	enum jd_image_kind kind = jd_image_kind_of(buf, len);
	if (kind == JD_IMAGE_PNM || kind == JD_IMAGE_PNG) {
		rc = read_pnm_png(path, buf, len, out, err, errlen);
	} else if (kind == JD_IMAGE_JPEG) {
		rc = read_jpeg(path, buf, len, out, err, errlen);
	} else if (len >= 2 && buf[0] == 'P' && (buf[1] == '1' || buf[1] == '2' || buf[1] == '3')) {
		snprintf(
		    err, errlen,
		    "%s: a plain-text (ASCII) P%c netpbm file: only the binary ones (P5, P6) are "
		    "read; convert it, e.g. with pnmtopnm or `convert IN OUT.pgm`",
		    path, buf[1]);
		rc = -EINVAL;
	} else {
		snprintf(err, errlen, "%s: unknown image format (expected PGM/PPM, PNG or JPEG)",
			 path);
		rc = -EINVAL;
	}
	free(buf);
	return rc;
}

int jd_pfm_read(const char *path, struct jd_disp *out, char *err, size_t errlen)
{
	unsigned char *buf;
	size_t len, pos = 2;
	long w, h;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = read_file(path, &buf, &len, err, errlen))) {
		return rc;
	}
	if (len < 3 || buf[0] != 'P' || buf[1] != 'f') {
		ERR(-EINVAL, "%s: not a gray PFM (expected magic 'Pf')", path);
	}
	if (jd_pnm_number(buf, len, &pos, &w) || jd_pnm_number(buf, len, &pos, &h)) {
		ERR(-EINVAL, "%s: malformed PFM header", path);
	}
	if ((rc = check_size(path, w, h, err, errlen))) {
		goto out;
	}
	while (pos < len && (buf[pos] == ' ' || buf[pos] == '\n' || buf[pos] == '\r')) {
		pos++;
	}
	/*
	 * The scale, parsed from a bounded copy: strtod() on the file's bytes ran past the end of
	 * a file that ends inside the number (found by tests/fuzz/fuzz_image.c).
	 */
	char tok[32], *end;
	size_t k = 0;
	while (pos + k < len && k < sizeof(tok) - 1 && buf[pos + k] > ' ') {
		tok[k] = (char)buf[pos + k];
		k++;
	}
	tok[k] = 0;
	double scale = strtod(tok, &end);
	if (k == 0 || k == sizeof(tok) - 1 || *end || scale == 0.0 || scale != scale) {
		ERR(-EINVAL, "%s: malformed PFM scale '%s'", path, tok);
	}
	pos += k + 1;
	if (pos > len || len - pos < (size_t)w * h * 4) {
		ERR(-EINVAL, "%s: truncated: %zu bytes of pixels expected", path,
		    (size_t)w * h * 4);
	}
	out->data = malloc(sizeof(float) * w * h);
	if (!out->data) {
		ERR(-ENOMEM, "%s: out of memory", path);
	}
	out->width = (int)w;
	out->height = (int)h;
	out->stride = (int)w;
	for (long y = 0; y < h; y++) {
		const unsigned char *src = buf + pos + (size_t)(h - 1 - y) * w * 4;
		for (long x = 0; x < w; x++) {
			const unsigned char *b = src + x * 4;
			uint32_t u = scale < 0 ? (uint32_t)b[0] | (uint32_t)b[1] << 8 |
						     (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24
					       : (uint32_t)b[3] | (uint32_t)b[2] << 8 |
						     (uint32_t)b[1] << 16 | (uint32_t)b[0] << 24;
			memcpy(&out->data[y * w + x], &u, 4);
		}
	}
out:
	free(buf);
	return rc;
}

/* Bytes into an output, remembering the first failure (the writers check once, at the end). */
static void put(struct jd_out *o, int *ok, const void *p, size_t n)
{
	if (*ok && jd_out_write(o, p, n) != 0) {
		*ok = 0;
	}
}

int jd_pfm_write(const char *path, const struct jd_disp *d, char *err, size_t errlen)
{
	struct jd_out o;
	char head[64];
	unsigned char row[4096];
	int ok = 1;

	JD_TRY(jd_out_open(&o, path, err, errlen));
	put(&o, &ok, head,
	    (size_t)snprintf(head, sizeof(head), "Pf\n%d %d\n-1\n", d->width, d->height));
	for (int y = d->height - 1; y >= 0 && ok; y--) {
		const float *src = jd_disp_row(d, y);
		size_t used = 0;
		for (int x = 0; x < d->width; x++) {
			uint32_t u;
			memcpy(&u, &src[x], 4);
			/* little-endian whatever the host (scale -1) */
			row[used++] = (unsigned char)u;
			row[used++] = (unsigned char)(u >> 8);
			row[used++] = (unsigned char)(u >> 16);
			row[used++] = (unsigned char)(u >> 24);
			if (used == sizeof(row) || x == d->width - 1) {
				put(&o, &ok, row, used);
				used = 0;
			}
		}
	}
	return jd_out_close(&o, ok, err, errlen);
}

struct png_sink {
	struct jd_out *o;
	int ok;
};

static void png_sink_write(png_structp png, png_bytep p, size_t n)
{
	struct png_sink *s = png_get_io_ptr(png);

	put(s->o, &s->ok, p, n);
}

static void png_sink_flush(png_structp png)
{
	(void)png;
}

/* One PNG writer for 8-bit RGB and 16-bit gray rows (libpng's classic API). */
static int write_png_rows(const char *path, int w, int h, int color, const void *pixels, char *err,
			  size_t errlen)
{
	struct jd_out o;
	png_structp png = NULL;
	png_infop info = NULL;
	struct png_sink sink = {&o, 1};
	volatile int ok = 0;

	JD_TRY(jd_out_open(&o, path, err, errlen));
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	info = png ? png_create_info_struct(png) : NULL;
	if (png && info && setjmp(png_jmpbuf(png)) == 0) {
		size_t rowbytes = (size_t)w * (color ? 3 : 2);
		png_set_write_fn(png, &sink, png_sink_write, png_sink_flush);
		png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, color ? 8 : 16,
			     color ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
			     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
		png_write_info(png, info);
		if (!color) {
			png_set_swap(png); /* our 16-bit samples are host order */
		}
		for (int y = 0; y < h; y++) {
			png_write_row(png, (png_const_bytep)pixels + (size_t)y * rowbytes);
		}
		png_write_end(png, NULL);
		ok = 1;
	}
	png_destroy_write_struct(&png, &info);
	return jd_out_close(&o, ok && sink.ok, err, errlen);
}

int jd_png16_write(const char *path, const struct jd_disp *d, char *err, size_t errlen)
{
	uint16_t *px = malloc(sizeof(uint16_t) * d->width * d->height);
	int rc;

	if (!px) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	for (int y = 0; y < d->height; y++) {
		const float *row = jd_disp_row(d, y);
		for (int x = 0; x < d->width; x++) {
			/* the dumps' rule (KITTI's disparity * 256, 0 none), one definition */
			px[(size_t)y * d->width + x] = (uint16_t)jd_png_u16_value(row[x]);
		}
	}
	rc = write_png_rows(path, d->width, d->height, 0, px, err, errlen);
	free(px);
	return rc;
}

static int out_put(void *ctx, const void *p, size_t n)
{
	return jd_out_write(ctx, p, n);
}

int jd_gray_png_write(const char *path, const struct jd_image *im, char *err, size_t errlen)
{
	struct jd_out o;

	JD_TRY(jd_out_open(&o, path, err, errlen));
	return jd_out_close(&o, jd_png_u8_write(im, out_put, &o) == 0, err, errlen);
}

int jd_color_png_write(const char *path, const struct jd_disp *d, float dmin, float dmax, char *err,
		       size_t errlen)
{
	unsigned char *px = malloc((size_t)3 * d->width * d->height);
	float span = dmax > dmin ? dmax - dmin : 1.0f;
	int rc;

	if (!px) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	for (int y = 0; y < d->height; y++) {
		const float *row = jd_disp_row(d, y);
		for (int x = 0; x < d->width; x++) {
			/* the preview's colours (one colour map for both), invalid black */
			jd_preview_colour(row[x] - dmin, span, px + 3 * ((size_t)y * d->width + x));
		}
	}
	rc = write_png_rows(path, d->width, d->height, 1, px, err, errlen);
	free(px);
	return rc;
}

int jd_pgm_write(const char *path, const struct jd_image *im, char *err, size_t errlen)
{
	struct jd_out o;
	char head[64];
	int ok = 1;

	JD_TRY(jd_out_open(&o, path, err, errlen));
	put(&o, &ok, head,
	    (size_t)snprintf(head, sizeof(head), "P5\n%d %d\n255\n", im->width, im->height));
	for (int y = 0; y < im->height && ok; y++) {
		put(&o, &ok, jd_image_row(im, y), (size_t)im->width);
	}
	return jd_out_close(&o, ok, err, errlen);
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

int jd_disp_write(const char *path, const struct jd_disp *d, char *err, size_t errlen)
{
	if (has_suffix(path, ".pfm")) {
		return jd_pfm_write(path, d, err, errlen);
	}
	if (has_suffix(path, ".png")) {
		return jd_png16_write(path, d, err, errlen);
	}
	snprintf(err, errlen, "%s: unknown output format (use .pfm or .png)", path);
	return -EINVAL;
}

int jd_text_write(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
	struct jd_out o;
	int ok = 1;

	JD_TRY(jd_out_open(&o, path, err, errlen));
	put(&o, &ok, text, len);
	return jd_out_close(&o, ok, err, errlen);
}

int jd_pair_read(const char *lpath, const char *rpath, struct jd_image *l, struct jd_image *r,
		 char *err, size_t errlen)
{
	int rc = jd_image_read(lpath, l, err, errlen);

	if (rc) {
		return rc;
	}
	rc = jd_image_read(rpath, r, err, errlen);
	if (!rc && (l->width != r->width || l->height != r->height)) {
		snprintf(err, errlen, "%s is %dx%d but %s is %dx%d: a stereo pair must match",
			 lpath, l->width, l->height, rpath, r->width, r->height);
		free(r->data);
		rc = -EINVAL;
	}
	if (rc) {
		free(l->data);
		l->data = NULL;
	}
	return rc;
}
