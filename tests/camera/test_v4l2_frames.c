/*
 * The V4L2 capture stage's frames against the fake kernel (fake_v4l2.c): damaged MJPEG dropped
 * and counted, one device with both views (side by side or top and bottom), and the skew
 * between the two cameras' frames of a pair.
 */
#include <errno.h>
#include <linux/videodev2.h>
#include <stdlib.h>
#include <string.h>

#include "camera_v4l2.h"
#include "capture.h"
#include "fake_v4l2.h"
#include "jd_test.h"
#include "v4l2_config.h"
#include <turbojpeg.h>

/*
 * A USB camera's MJPEG stream through the fake kernel: every frame a JPEG, and on the left
 * frame 3 has its start-of-frame marker overwritten, frame 5 its scan data flipped, frame 7
 * is cut short. Each is dropped and counted, and every frame after them decodes (a damaged
 * header used to leave the decoder failing every later frame).
 */
static unsigned char *mjpeg;
static unsigned long mjpeg_len;

static void mjpeg_frame(struct fake_dev *d, struct v4l2_buffer *b, uint8_t *mem)
{
	unsigned long n = mjpeg_len;

	memcpy(mem, mjpeg, n);
	if (d == &fake_devs[0] && b->sequence == 3) {
		JD_CHECK(jd_test_damage_jpeg_header(mem, n), "a start-of-frame marker");
	}
	if (d == &fake_devs[0] && b->sequence == 5) {
		for (unsigned long i = n / 2; i < n / 2 + 40; i++) {
			mem[i] ^= 0x5a;
		}
	}
	b->bytesused = (uint32_t)(d == &fake_devs[0] && b->sequence == 7 ? n / 2 : n);
}

static void test_mjpeg_damage(void)
{
	struct jd_capture_config cfg = config(JD_PIX_MJPEG, 25);
	struct jd_capture c;
	size_t bytes = jd_capture_mem_required(&cfg);
	void *mem = malloc(bytes);
	static uint8_t l[W * H], r[W * H], scene[W * H];
	struct jd_image li = {l, W, H, W}, ri = {r, W, H, W};
	int truth, pairs = 0, again = 0;

	for (int i = 0; i < W * H; i++) {
		scene[i] = (uint8_t)((i % W) * 7 + (i / W) * 3);
	}
	tjhandle tj = tjInitCompress();
	JD_CHECK(
	    tjCompress2(tj, scene, W, W, H, TJPF_GRAY, &mjpeg, &mjpeg_len, TJSAMP_GRAY, 90, 0) == 0,
	    "compress");
	tjDestroy(tj);
	fake_v4l2_reset();
	fake_dqbuf_hook = mjpeg_frame;
	JD_CHECK(jd_capture_init(&c, &cfg, mem, bytes, NULL) == 0, "init: %s", c.err);
	for (int i = 0; i < 40 && pairs < 12; i++) {
		int rc = jd_capture_next(&c, &li, &ri, NULL, &truth);
		pairs += rc == 0;
		again += rc == -EAGAIN;
		JD_CHECK(rc == 0 || rc == -EAGAIN, "step %d: %d: %s", i, rc, c.err);
	}
	JD_CHECK(pairs == 12 && c.drop_corrupt == 3, "12 pairs, %lu corrupt (want 3), %d retries",
		 c.drop_corrupt, again);
	static uint8_t want[W * H];
	tjhandle td = tjInitDecompress();
	JD_CHECK(tjDecompress2(td, mjpeg, mjpeg_len, want, W, W, H, TJPF_GRAY, 0) == 0, "decode");
	tjDestroy(td);
	JD_CHECK(memcmp(l, want, sizeof(want)) == 0 && memcmp(r, want, sizeof(want)) == 0,
		 "the last pair, after the damage, is the frame as the library decodes it");
	JD_CHECK(strstr(c.last_drop, "left camera /dev/fake0: frame 7"),
		 "the last drop names the frame: %s", c.last_drop);
	fake_dqbuf_hook = NULL;
	jd_capture_deinit(&c);
	tjFree(mjpeg);
	free(mem);
}

/* A side-by-side MJPEG frame: the left view one pattern, the right another. */
static unsigned char *sbs_jpeg;
static unsigned long sbs_len;

static void sbs_frame(struct fake_dev *d, struct v4l2_buffer *b, uint8_t *mem)
{
	(void)d;
	memcpy(mem, sbs_jpeg, sbs_len);
	b->bytesused = (uint32_t)sbs_len;
}

/*
 * One device with both views (v4l2-sbs:, v4l2-tb:): the device is asked for the doubled size,
 * each view is its half of the one frame (in place, with the frame's stride), both carry the
 * frame's timestamp, MJPEG is decoded whole and split, and a Bayer mosaic split at an odd pixel
 * is refused by name.
 */
static void test_split(void)
{
	static uint8_t l[W * H], r[W * H];
	struct jd_image li = {l, W, H, W}, ri = {r, W, H, W};
	int truth;

	for (int top = 0; top < 2; top++) {
		struct jd_capture_config cfg = config(JD_PIX_GREY, 25);
		struct jd_capture c;
		char err[256];
		JD_CHECK(jd_capture_parse(top ? "v4l2-tb:/dev/fake0" : "v4l2-sbs:/dev/fake0", &cfg,
					  err, sizeof(err)) == 0 &&
			     cfg.split == (top ? JD_SPLIT_TOP : JD_SPLIT_SIDE),
			 "parsed");
		size_t bytes = jd_capture_mem_required(&cfg);
		void *mem = malloc(bytes);
		fake_v4l2_reset();
		JD_CHECK(jd_capture_init(&c, &cfg, mem, bytes, NULL) == 0, "init: %s", c.err);
		JD_CHECK(fake_devs[0].w == (top ? W : 2 * W) &&
			     fake_devs[0].h == (top ? 2 * H : H) && fake_open_fds == 1,
			 "one device, asked for %dx%d: %s", fake_devs[0].w, fake_devs[0].h, c.err);
		for (int k = 0; k < 3; k++) {
			JD_CHECK(jd_capture_next(&c, &li, &ri, NULL, &truth) == 0 && !truth,
				 "pair %d: %s", k, c.err);
		}
		/* the fake's byte i of a frame is its sequence + i */
		const int fw = top ? W : 2 * W;
		int ok = 1;
		for (int y = 0; y < H; y++) {
			for (int x = 0; x < W; x++) {
				size_t i = (size_t)y * fw + x, j = top ? i + (size_t)H * W : i + W;
				ok &= l[y * W + x] == (uint8_t)(l[0] + i) &&
				      r[y * W + x] == (uint8_t)(l[0] + j);
			}
		}
		JD_CHECK(ok, "%s: each view is its half of the frame",
			 top ? "top-bottom" : "side by side");
		JD_CHECK(c.pairs == 3 && c.cam[1].stats.frames == c.cam[0].stats.frames &&
			     !strcmp(c.cam[1].label, "right") &&
			     !strcmp(c.cam[1].device, "/dev/fake0"),
			 "the right view reports the device's counters");
		JD_CHECK(jd_capture_recover(&c) == 0 &&
			     jd_capture_next(&c, &li, &ri, NULL, &truth) == 0,
			 "reopened: %s", c.err);
		jd_capture_deinit(&c);
		JD_CHECK(fake_open_fds == 0, "closed");
		free(mem);
	}

	/* MJPEG: the whole frame decoded, then split. */
	static uint8_t scene[2 * W * H], want[2 * W * H];
	for (int i = 0; i < 2 * W * H; i++) {
		int x = i % (2 * W), y = i / (2 * W);
		scene[i] = (uint8_t)(x < W ? x * 3 + y : 255 - x - 2 * y);
	}
	tjhandle tj = tjInitCompress();
	JD_CHECK(tjCompress2(tj, scene, 2 * W, 2 * W, H, TJPF_GRAY, &sbs_jpeg, &sbs_len,
			     TJSAMP_GRAY, 95, 0) == 0,
		 "compress");
	tjDestroy(tj);
	tjhandle td = tjInitDecompress();
	JD_CHECK(tjDecompress2(td, sbs_jpeg, sbs_len, want, 2 * W, 2 * W, H, TJPF_GRAY, 0) == 0,
		 "decode");
	tjDestroy(td);
	struct jd_capture_config cfg = config(JD_PIX_MJPEG, 25);
	struct jd_capture c;
	char err[256];
	JD_CHECK(jd_capture_parse("v4l2-sbs:/dev/fake0", &cfg, err, sizeof(err)) == 0, "parsed");
	size_t bytes = jd_capture_mem_required(&cfg);
	void *mem = malloc(bytes);
	fake_v4l2_reset();
	fake_dqbuf_hook = sbs_frame;
	JD_CHECK(jd_capture_init(&c, &cfg, mem, bytes, NULL) == 0 &&
		     jd_capture_next(&c, &li, &ri, NULL, &truth) == 0,
		 "MJPEG pair: %s", c.err);
	int ok = 1;
	for (int y = 0; y < H; y++) {
		ok &= !memcmp(l + y * W, want + y * 2 * W, W) &&
		      !memcmp(r + y * W, want + y * 2 * W + W, W);
	}
	JD_CHECK(ok, "MJPEG: the decoded frame's halves");
	fake_dqbuf_hook = NULL;
	jd_capture_deinit(&c);
	tjFree(sbs_jpeg);
	free(mem);

	/* A Bayer mosaic split at an odd column would swap the right view's colours. */
	cfg = config(JD_PIX_RGGB8, 25);
	JD_CHECK(jd_capture_parse("v4l2-sbs:/dev/fake0", &cfg, err, sizeof(err)) == 0, "parsed");
	cfg.cam.width = W - 1;
	bytes = jd_capture_mem_required(&cfg);
	mem = malloc(bytes);
	fake_v4l2_reset();
	fake_devs[0].formats[fake_devs[0].nformats++] = V4L2_PIX_FMT_SRGGB8;
	struct jd_image lo = {l, W - 1, H, W - 1}, ro = {r, W - 1, H, W - 1};
	JD_CHECK(jd_capture_init(&c, &cfg, mem, bytes, NULL) == 0, "init: %s", c.err);
	JD_CHECK(jd_capture_next(&c, &lo, &ro, NULL, &truth) == -EAGAIN &&
		     strstr(c.last_drop, "a Bayer mosaic splits at an even pixel"),
		 "odd split refused: %s", c.last_drop);
	jd_capture_deinit(&c);
	free(mem);
	JD_CHECK(jd_capture_parse("v4l2-sbs:", &cfg, err, sizeof(err)) == -EINVAL &&
		     jd_capture_parse("v4l2-tb:/dev/a,/dev/b", &cfg, err, sizeof(err)) == -EINVAL &&
		     strstr(err, "v4l2-sbs:/dev/video"),
		 "bad specs refused by name: %s", err);
}

/*
 * Two devices' pairing quality: the timestamp skew of each pair, its median and 99th percentile
 * over the ring, and the drivers' clock said once at the first pair.
 */
static void test_pair_skew(void)
{
	struct jd_capture_config cfg = config(JD_PIX_GREY, 25);
	struct jd_capture c;
	size_t bytes = jd_capture_mem_required(&cfg);
	void *mem = malloc(bytes);
	static uint8_t l[W * H], r[W * H];
	struct jd_image li = {l, W, H, W}, ri = {r, W, H, W};
	double last, median, p99;
	char *said = NULL;
	size_t said_len = 0;
	FILE *log = open_memstream(&said, &said_len);
	int truth;

	fake_v4l2_reset();
	fake_devs[1].ts_ns = 3000000; /* the right camera 3 ms behind */
	JD_CHECK(jd_capture_init(&c, &cfg, mem, bytes, log) == 0, "init: %s", c.err);
	JD_CHECK(jd_capture_skew(&c, &last, &median, &p99) == -ENODATA, "no pair, no skew");
	for (int i = 0; i < 20; i++) {
		JD_CHECK(jd_capture_next(&c, &li, &ri, NULL, &truth) == 0, "pair %d: %s", i, c.err);
	}
	JD_CHECK(jd_capture_skew(&c, &last, &median, &p99) == 0 && last == 3.0 && median == 3.0 &&
		     p99 == 3.0,
		 "3 ms apart: last %.3f, median %.3f, p99 %.3f", last, median, p99);
	fake_devs[1].ts_ns += 9000000; /* then 12 ms for two pairs: the tail, not the median */
	for (int i = 0; i < 2; i++) {
		JD_CHECK(jd_capture_next(&c, &li, &ri, NULL, &truth) == 0, "late pair %d: %s", i,
			 c.err);
	}
	JD_CHECK(jd_capture_skew(&c, &last, &median, &p99) == 0 && last == 12.0 && median == 3.0 &&
		     p99 == 12.0,
		 "two late pairs: last %.3f, median %.3f, p99 %.3f", last, median, p99);
	fclose(log);
	int lines = 0;
	for (const char *p = said; p && (p = strstr(p, "timestamps")); p++) {
		lines++;
	}
	JD_CHECK(
	    said &&
		strstr(said, "camera left /dev/fake0: timestamps monotonic (CLOCK_MONOTONIC)") &&
		strstr(said, "camera right /dev/fake1: timestamps monotonic") && lines == 2,
	    "the clock said at the first pair: %s", said ? said : "(nothing)");
	jd_capture_deinit(&c);
	free(said);
	free(mem);
}

int main(void)
{
	test_mjpeg_damage();
	test_split();
	test_pair_skew();
	return jd_test_done("unit.v4l2_frames");
}
