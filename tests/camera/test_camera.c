/*
 * The camera layer's logic without devices: stereo pairing (in step, drifting, one camera
 * running ahead, the tolerance edge), the pixel-format names and the deep formats' luma rules,
 * and the synthetic camera (two
 * views of one frame share a timestamp, buffers stay valid until requeued, a set still
 * borrowed is not overwritten, frames are deterministic).
 */
#include <linux/videodev2.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "convert.h"
#include "camera_synth.h"
#include "jd_test.h"
#include "stereo_pair.h"

static struct jd_cam_frame at(uint64_t ms, int index)
{
	struct jd_cam_frame f = {0};

	f.ts_ns = ms * 1000000ull;
	f.index = index;
	return f;
}

static void test_pairing(void)
{
	struct jd_pairer p;
	struct jd_cam_frame rel, l, r;

	jd_pair_init(&p, 25.0); /* 40 ms period: 20 ms tolerance */
	JD_CHECK(p.tol_ns == 20000000ull, "tolerance %llu", (unsigned long long)p.tol_ns);
	/* In step: a pair. */
	JD_CHECK(jd_pair_wants(&p) == 0, "left first");
	JD_CHECK(jd_pair_offer(&p, 0, &(struct jd_cam_frame){.ts_ns = 1000000000ull}, &rel) == 0,
		 "left alone waits");
	JD_CHECK(jd_pair_wants(&p) == 1, "then right");
	JD_CHECK(jd_pair_offer(&p, 1, &(struct jd_cam_frame){.ts_ns = 1005000000ull, .index = 3},
			       &rel) == JD_PAIR_READY,
		 "5 ms apart pairs");
	jd_pair_take(&p, &l, &r);
	JD_CHECK(r.index == 3 && p.pairs == 1, "the pair taken");
	/* Exactly at the tolerance still pairs; one nanosecond more does not. */
	struct jd_cam_frame a = at(2000, 1), b = at(2020, 2);
	JD_CHECK(jd_pair_offer(&p, 0, &a, &rel) == 0, "left held");
	JD_CHECK(jd_pair_offer(&p, 1, &b, &rel) == JD_PAIR_READY, "20 ms apart pairs");
	jd_pair_take(&p, &l, &r);
	b.ts_ns++;
	JD_CHECK(jd_pair_offer(&p, 0, &a, &rel) == 0, "left held");
	JD_CHECK(jd_pair_offer(&p, 1, &b, &rel) == JD_PAIR_RELEASE && rel.index == 1,
		 "20 ms + 1 ns: the older (left) released");
	JD_CHECK(p.released == 0, "released from the left");
	JD_CHECK(p.drops[0] == 1 && p.drops[1] == 0, "the drop counted on the left");
	/* The right waits; the next left frame pairs with it. */
	JD_CHECK(jd_pair_wants(&p) == 0, "left is wanted again");
	struct jd_cam_frame a2 = at(2030, 5);
	JD_CHECK(jd_pair_offer(&p, 0, &a2, &rel) == JD_PAIR_READY, "the next left pairs");
	jd_pair_take(&p, &l, &r);
	JD_CHECK(l.index == 5 && r.index == 2, "left %d right %d", l.index, r.index);
	/* The right camera far behind: its frames go until it catches up. */
	JD_CHECK(jd_pair_offer(&p, 0, &(struct jd_cam_frame){.ts_ns = 5000000000ull}, &rel) == 0,
		 "left held");
	JD_CHECK(jd_pair_offer(&p, 1, &(struct jd_cam_frame){.ts_ns = 4000000000ull, .index = 7},
			       &rel) == JD_PAIR_RELEASE &&
		     rel.index == 7,
		 "a stale right frame released");
	JD_CHECK(jd_pair_offer(&p, 1, &(struct jd_cam_frame){.ts_ns = 4990000000ull}, &rel) ==
		     JD_PAIR_READY,
		 "the caught-up right frame pairs");
	jd_pair_take(&p, &l, &r);
	/* Offering the side that already holds a frame is the caller's bug. */
	JD_CHECK(jd_pair_offer(&p, 0, &a, &rel) == 0, "left held");
	JD_CHECK(jd_pair_offer(&p, 0, &a, &rel) == -EINVAL, "a side offered twice");
	struct jd_cam_frame out[2];
	JD_CHECK(jd_pair_flush(&p, out) == 1 && !p.held[0], "flush hands back the held left");
	JD_CHECK(jd_pair_flush(&p, out) == 0, "nothing left");
	jd_pair_init(&p, 0.0);
	JD_CHECK(p.tol_ns == 20000000ull, "unknown rate: 20 ms");
}

static void test_formats(void)
{
	enum jd_pixfmt f;

	for (int i = 0; i < JD_PIX_COUNT; i++) {
		JD_CHECK(jd_pixfmt_parse(jd_pixfmt_name((enum jd_pixfmt)i), &f) == 0 && (int)f == i,
			 "round trip %d", i);
	}
	JD_CHECK(jd_pixfmt_parse("MJPEG", &f) == 0 && f == JD_PIX_MJPEG, "MJPEG spelled out");
	JD_CHECK(jd_pixfmt_parse("NV12", &f) == -EINVAL, "unknown format refused");
	JD_CHECK(jd_pixfmt_frame_bytes(JD_PIX_YUYV, 640, 480) == 614400, "YUYV size");
	/* The fourccs are V4L2's own. */
	static const struct {
		enum jd_pixfmt f;
		uint32_t v4l2;
	} cc[] = {
	    {JD_PIX_GREY, V4L2_PIX_FMT_GREY},	   {JD_PIX_YUYV, V4L2_PIX_FMT_YUYV},
	    {JD_PIX_UYVY, V4L2_PIX_FMT_UYVY},	   {JD_PIX_MJPEG, V4L2_PIX_FMT_MJPEG},
	    {JD_PIX_Y10, V4L2_PIX_FMT_Y10},	   {JD_PIX_Y12, V4L2_PIX_FMT_Y12},
	    {JD_PIX_Y16, V4L2_PIX_FMT_Y16},	   {JD_PIX_RGGB8, V4L2_PIX_FMT_SRGGB8},
	    {JD_PIX_BGGR8, V4L2_PIX_FMT_SBGGR8},   {JD_PIX_GBRG8, V4L2_PIX_FMT_SGBRG8},
	    {JD_PIX_GRBG8, V4L2_PIX_FMT_SGRBG8},   {JD_PIX_RGGB10, V4L2_PIX_FMT_SRGGB10},
	    {JD_PIX_BGGR10, V4L2_PIX_FMT_SBGGR10}, {JD_PIX_GBRG10, V4L2_PIX_FMT_SGBRG10},
	    {JD_PIX_GRBG10, V4L2_PIX_FMT_SGRBG10}, {JD_PIX_RGGB12, V4L2_PIX_FMT_SRGGB12},
	    {JD_PIX_BGGR12, V4L2_PIX_FMT_SBGGR12}, {JD_PIX_GBRG12, V4L2_PIX_FMT_SGBRG12},
	    {JD_PIX_GRBG12, V4L2_PIX_FMT_SGRBG12},
	};
	JD_CHECK(sizeof(cc) / sizeof(cc[0]) == JD_PIX_COUNT, "every layout checked");
	for (size_t i = 0; i < sizeof(cc) / sizeof(cc[0]); i++) {
		JD_CHECK(jd_pixfmt_fourcc(cc[i].f) == cc[i].v4l2, "%s: fourcc 0x%08x, V4L2 0x%08x",
			 jd_pixfmt_name(cc[i].f), jd_pixfmt_fourcc(cc[i].f), cc[i].v4l2);
	}
	JD_CHECK(jd_pixfmt_parse("BGGR8", &f) == 0 && f == JD_PIX_BGGR8 &&
		     jd_pixfmt_parse("GRBG12", &f) == 0 && f == JD_PIX_GRBG12,
		 "Bayer aliases");
	JD_CHECK(jd_pixfmt_pixel_bytes(JD_PIX_RGGB8) == 1 &&
		     jd_pixfmt_pixel_bytes(JD_PIX_RGGB10) == 2 &&
		     jd_pixfmt_pixel_bytes(JD_PIX_Y16) == 2 && jd_pixfmt_bits(JD_PIX_Y12) == 12 &&
		     jd_pixfmt_is_bayer(JD_PIX_BGGR12) && !jd_pixfmt_is_bayer(JD_PIX_Y10),
		 "depths and containers");
}

/* A mosaic of one colour (R, G, B) in the given order, 8 bits or 16-bit containers. */
static void mosaic(uint8_t *m, int w, int h, const char *order, const unsigned rgb[3], int wide)
{
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			char site = order[(y % 2) * 2 + x % 2];
			unsigned v = rgb[site == 'R' ? 0 : site == 'G' ? 1 : 2];
			if (wide) {
				m[2 * (y * w + x)] = (uint8_t)v;
				m[2 * (y * w + x) + 1] = (uint8_t)(v >> 8);
			} else {
				m[y * w + x] = (uint8_t)v;
			}
		}
	}
}

/*
 * The Bayer rule gives a one-colour scene's luma, (77 R + 150 G + 29 B + 128) >> 8, at every
 * pixel, edges and corners too (the mirror keeps each site's colour), in every order and depth;
 * deep mono keeps the top 8 bits and clamps corrupt samples.
 */
static void test_deep_luma(void)
{
	static const char *const orders[4] = {"RGGB", "BGGR", "GBRG", "GRBG"};
	static const enum jd_pixfmt fmts[4] = {JD_PIX_RGGB8, JD_PIX_BGGR8, JD_PIX_GBRG8,
					       JD_PIX_GRBG8};
	enum { W = 7, H = 5 };
	uint8_t m[2 * W * H], out[W];

	for (int o = 0; o < 4; o++) {
		int r_col, r_row;
		jd_pixfmt_bayer_red(fmts[o] + (JD_PIX_RGGB12 - JD_PIX_RGGB8), &r_col, &r_row);
		JD_CHECK(orders[o][(r_row % 2) * 2 + r_col] == 'R', "%s: R at (%d, %d)", orders[o],
			 r_col, r_row);
		for (int wide = 0; wide < 2; wide++) {
			const unsigned rgb8[3] = {100, 200, 40}, rgb12[3] = {1600, 3200, 640};
			mosaic(m, W, H, orders[o], wide ? rgb12 : rgb8, wide);
			const size_t stride = (size_t)W * (wide ? 2 : 1);
			for (int y = 0; y < H; y++) {
				int up = y > 0 ? y - 1 : 1, down = y < H - 1 ? y + 1 : H - 2;
				jd_gray_from_bayer_ref(m + up * stride, m + y * stride,
						       m + down * stride, W, wide ? 12 : 8, r_col,
						       (y & 1) == r_row, out);
				for (int x = 0; x < W; x++) {
					JD_CHECK(out[x] == 152, "%s %s (%d, %d): %d, want 152",
						 orders[o], wide ? "12-bit" : "8-bit", x, y,
						 out[x]);
				}
			}
		}
	}
	const uint8_t y10[8] = {0xff, 0x03, 0x04, 0x00, 0xd0, 0x07, 0xff, 0xff};
	jd_gray_from_mono16_ref(y10, 4, 10, out);
	JD_CHECK(out[0] == 255 && out[1] == 1 && out[2] == 255 && out[3] == 255,
		 "Y10: 1023 -> 255, 4 -> 1, corrupt 2000 and 65535 -> 255: %d %d %d %d", out[0],
		 out[1], out[2], out[3]);
}

static void test_synth(void)
{
	int w = 96, h = 64;
	size_t bytes = jd_cam_synth_mem_required(w, h);
	void *mem = malloc(bytes);
	struct jd_camera cam[2];
	struct jd_cam_frame l0, r0, l1, l2, r1;

	JD_CHECK(mem != NULL, "malloc");
	struct jd_cam_synth_config sc = {.width = w, .height = h, .ndisp = 32};
	char err[200];
	JD_CHECK(jd_cam_synth_init(cam, mem, bytes - 1, &sc, err, sizeof(err)) == -ENOMEM &&
		     strstr(err, "too small"),
		 "too small: %s", err);
	sc.fmt = JD_PIX_MJPEG;
	JD_CHECK(jd_cam_synth_init(cam, mem, bytes, &sc, err, sizeof(err)) == -EINVAL &&
		     strstr(err, "every layout but MJPG"),
		 "MJPEG refused: %s", err);
	sc.fmt = JD_PIX_GREY;
	JD_CHECK(jd_cam_synth_init(cam, mem, bytes, &sc, err, sizeof(err)) == 0, "init");
	JD_CHECK(jd_cam_dequeue(&cam[0], &l0) == -EINVAL, "dequeue before start: %s", cam[0].err);
	struct jd_cam_config want = {640, 480, 30, JD_PIX_YUYV, 4, 500, {0, {0}, 0}};
	for (int i = 0; i < 2; i++) {
		JD_CHECK(jd_cam_open(&cam[i]) == 0 && jd_cam_configure(&cam[i], &want) == 0 &&
			     jd_cam_start(&cam[i]) == 0,
			 "bring-up");
	}
	JD_CHECK(cam[0].cfg.width == w && cam[0].cfg.fmt == JD_PIX_GREY &&
		     strstr(cam[0].err, "gives 96x64"),
		 "the granted format read back and said: %s", cam[0].err);
	JD_CHECK(jd_cam_dequeue(&cam[0], &l0) == 0 && jd_cam_dequeue(&cam[1], &r0) == 0, "frame 0");
	JD_CHECK(l0.ts_ns == r0.ts_ns && l0.seq == 0 && r0.seq == 0, "one frame, one timestamp");
	JD_CHECK(memcmp(l0.data, r0.data, (size_t)w * h) != 0, "two different views");
	struct jd_disp gt = {0};
	JD_CHECK(jd_cam_truth(&cam[0], &l0, &gt) == 0, "the synthetic camera knows its truth");
	JD_CHECK(gt.data[h / 2 * w + w / 2] > 0.0f, "a true disparity");
	unsigned char keep = l0.data[w * h / 2];
	JD_CHECK(jd_cam_dequeue(&cam[0], &l1) == 0 && l1.seq == 1 && l1.data != l0.data,
		 "frame 1 in the other set");
	JD_CHECK(l0.data[w * h / 2] == keep, "frame 0 untouched while borrowed");
	JD_CHECK(jd_cam_dequeue(&cam[0], &l2) == -EBUSY,
		 "frame 2 would overwrite frame 0's borrowed set: %s", cam[0].err);
	JD_CHECK(jd_cam_requeue(&cam[0], &l0) == 0 && jd_cam_requeue(&cam[1], &r0) == 0, "requeue");
	JD_CHECK(jd_cam_dequeue(&cam[1], &r1) == 0 && r1.seq == 1 && r1.ts_ns == l1.ts_ns,
		 "the right side gets frame 1 too");
	JD_CHECK(jd_cam_dequeue(&cam[0], &l2) == 0 && l2.seq == 2 && l2.data == l0.data,
		 "frame 2 reuses the freed set");
	JD_CHECK(cam[0].stats.frames == 3 && cam[1].stats.frames == 2, "frames counted");
	/* Deterministic: frame 2 rendered again by a fresh rig is byte for byte the same. */
	unsigned char *copy = malloc((size_t)w * h);
	memcpy(copy, l2.data, (size_t)w * h);
	JD_CHECK(jd_cam_synth_init(cam, mem, bytes, &sc, err, sizeof(err)) == 0 &&
		     jd_cam_start(&cam[0]) == 0,
		 "again");
	for (int k = 0; k <= 2; k++) {
		JD_CHECK(jd_cam_dequeue(&cam[0], &l2) == 0 && jd_cam_requeue(&cam[0], &l2) == 0,
			 "frame %d", k);
	}
	JD_CHECK(memcmp(copy, l2.data, (size_t)w * h) == 0, "frame 2 is frame 2");
	/* The boxes: each one's centre has its disparity in the truth. */
	struct jd_synth_object obj[JD_SYNTH_MAX_OBJECTS];
	int nobj = jd_cam_synth_objects(&cam[0], &l2, obj);
	struct jd_disp t2 = {0};
	JD_CHECK(jd_cam_truth(&cam[0], &l2, &t2) == 0, "truth of frame 2");
	JD_CHECK(nobj == 3, "%d boxes", nobj);
	for (int i = 0; i < nobj; i++) {
		int cx = (int)((obj[i].x0 + obj[i].x1) / 2),
		    cy = (int)((obj[i].y0 + obj[i].y1) / 2);
		JD_CHECK(t2.data[cy * w + cx] == obj[i].disparity, "box %d: truth %g, box %g", i,
			 (double)t2.data[cy * w + cx], (double)obj[i].disparity);
	}
	/* Another seed is another scene, and again the same every time. */
	sc.seed = 5;
	JD_CHECK(jd_cam_synth_init(cam, mem, bytes, &sc, err, sizeof(err)) == 0 &&
		     jd_cam_start(&cam[0]) == 0,
		 "seed 5");
	for (int k = 0; k <= 2; k++) {
		JD_CHECK(jd_cam_dequeue(&cam[0], &l2) == 0 && jd_cam_requeue(&cam[0], &l2) == 0,
			 "frame %d", k);
	}
	JD_CHECK(memcmp(copy, l2.data, (size_t)w * h) != 0, "seed 5 differs from seed 0");
	/* Replay: frame 2 is frame 0's image again, unrendered, with its own number and time. */
	unsigned char *f0 = malloc((size_t)w * h);
	sc.seed = 0;
	sc.replay = 1;
	JD_CHECK(jd_cam_synth_init(cam, mem, bytes, &sc, err, sizeof(err)) == 0 &&
		     jd_cam_start(&cam[0]) == 0,
		 "replay rig");
	uint64_t ts0 = 0;
	for (int k = 0; k <= 2; k++) {
		JD_CHECK(jd_cam_dequeue(&cam[0], &l2) == 0 && l2.seq == (uint32_t)k,
			 "replay frame %d", k);
		if (k == 0) {
			memcpy(f0, l2.data, (size_t)w * h);
			ts0 = l2.ts_ns;
		}
		if (k < 2) {
			JD_CHECK(jd_cam_requeue(&cam[0], &l2) == 0, "requeue");
		}
	}
	JD_CHECK(memcmp(f0, l2.data, (size_t)w * h) == 0 && memcmp(copy, f0, (size_t)w * h) != 0,
		 "replayed frame 2 is frame 0's image; rendered, frame 2 differs from it");
	JD_CHECK(l2.ts_ns > ts0, "replayed frames keep their own time");
	free(f0);
	JD_CHECK(jd_cam_stop(&cam[0]) == 0, "stop");
	jd_cam_close(&cam[0]);
	struct jd_camera none = {0};
	JD_CHECK(jd_cam_start(&none) == -ENOSYS, "no driver: -ENOSYS");
	free(copy);
	free(mem);
}

int main(void)
{
	test_pairing();
	test_formats();
	test_deep_luma();
	test_synth();
	return jd_test_done("unit.camera");
}
