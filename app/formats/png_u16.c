#include "png_u16.h"

#include <stdint.h>
#include <string.h>

/* Raw bytes per stored deflate block (at most 65535); IDAT chunks carry one block each. */
#define BLOCK 32768

struct sink {
	jd_png_put_fn put;
	void *ctx;
	int ok;
	size_t left;   /* raw bytes still to come, this block's included */
	int first;     /* the zlib header goes before the first block */
	uint32_t a, b; /* Adler-32 of the raw stream */
	size_t n;      /* bytes in raw[] */
	uint8_t raw[BLOCK];
};

static uint32_t crc_update(uint32_t c, const uint8_t *p, size_t n)
{
	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++) {
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		}
	}
	return c;
}

static void be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* One chunk from up to three pieces of data (so no copy is needed to assemble it). */
static void chunk(struct sink *s, const char type[4], const uint8_t *p0, size_t n0,
		  const uint8_t *p1, size_t n1, const uint8_t *p2, size_t n2)
{
	uint8_t head[8], tail[4];
	uint32_t crc = crc_update(0xffffffffu, (const uint8_t *)type, 4);

	be32(head, (uint32_t)(n0 + n1 + n2));
	memcpy(head + 4, type, 4);
	crc = crc_update(crc_update(crc_update(crc, p0, n0), p1, n1), p2, n2);
	be32(tail, crc ^ 0xffffffffu);
	s->ok = s->ok && s->put(s->ctx, head, 8) == 0 && (!n0 || s->put(s->ctx, p0, n0) == 0) &&
		(!n1 || s->put(s->ctx, p1, n1) == 0) && (!n2 || s->put(s->ctx, p2, n2) == 0) &&
		s->put(s->ctx, tail, 4) == 0;
}

/* The buffered raw bytes as one stored block in one IDAT chunk. */
static void flush(struct sink *s)
{
	uint8_t pre[7], post[4];
	size_t np = 0;
	int last = s->left == s->n;

	if (s->first) {
		pre[np++] = 0x78; /* deflate, 32K window; 0x7801 is a multiple of 31 */
		pre[np++] = 0x01;
		s->first = 0;
	}
	pre[np++] = (uint8_t)last; /* BFINAL, BTYPE 00 (stored) */
	pre[np++] = (uint8_t)s->n;
	pre[np++] = (uint8_t)(s->n >> 8);
	pre[np++] = (uint8_t)~s->n;
	pre[np++] = (uint8_t)(~s->n >> 8);
	be32(post, s->b << 16 | s->a);
	chunk(s, "IDAT", pre, np, s->raw, s->n, post, last ? 4 : 0);
	s->left -= s->n;
	s->n = 0;
}

static void push(struct sink *s, uint8_t v)
{
	s->raw[s->n++] = v;
	s->a = (s->a + v) % 65521u;
	s->b = (s->b + s->a) % 65521u;
	if (s->n == BLOCK || s->n == s->left) {
		flush(s);
	}
}

unsigned jd_png_u16_value(float d)
{
	if (!jd_disp_is_valid(d) || !(d > 0.0f)) {
		return 0;
	}
	float v = d * 256.0f + 0.5f;
	return v >= 65535.0f ? 65535u : (unsigned)v;
}

/* The rows of one image as bytes, through push(). */
typedef void (*row_fn)(struct sink *s, const void *src, int y);

static void disp_row(struct sink *s, const void *src, int y)
{
	const struct jd_disp *disp = src;
	const float *row = jd_disp_row(disp, y);

	for (int x = 0; x < disp->width; x++) {
		unsigned v = jd_png_u16_value(row[x]);
		push(s, (uint8_t)(v >> 8));
		push(s, (uint8_t)v);
	}
}

static void gray_row(struct sink *s, const void *src, int y)
{
	const struct jd_image *im = src;
	const uint8_t *row = jd_image_row(im, y);

	for (int x = 0; x < im->width; x++) {
		push(s, row[x]);
	}
}

/* A grey PNG of bit depth 8 or 16 with unfiltered rows in stored deflate blocks. */
static int encode(int w, int h, int depth, row_fn rows, const void *src, jd_png_put_fn put,
		  void *ctx)
{
	static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	static struct sink sink; /* the frame loop's thread only; 32 KiB kept off the stack */
	struct sink *s = &sink;
	uint8_t ihdr[13];

	s->put = put;
	s->ctx = ctx;
	s->ok = put(ctx, sig, sizeof(sig)) == 0;
	s->left = (size_t)h * (1 + (size_t)(depth / 8) * w);
	s->first = 1;
	s->a = 1;
	s->b = 0;
	s->n = 0;
	be32(ihdr, (uint32_t)w);
	be32(ihdr + 4, (uint32_t)h);
	ihdr[8] = (uint8_t)depth;
	ihdr[9] = 0; /* grey */
	ihdr[10] = ihdr[11] = ihdr[12] = 0;
	chunk(s, "IHDR", ihdr, sizeof(ihdr), NULL, 0, NULL, 0);
	for (int y = 0; y < h && s->ok; y++) {
		push(s, 0); /* filter: none */
		rows(s, src, y);
	}
	chunk(s, "IEND", NULL, 0, NULL, 0, NULL, 0);
	return s->ok ? 0 : -1;
}

int jd_png_u16_write(const struct jd_disp *disp, jd_png_put_fn put, void *ctx)
{
	return encode(disp->width, disp->height, 16, disp_row, disp, put, ctx);
}

int jd_png_u8_write(const struct jd_image *im, jd_png_put_fn put, void *ctx)
{
	return encode(im->width, im->height, 8, gray_row, im, put, ctx);
}
