/*
 * The capture stage through the files camera, in a temporary folder: PGM pairs come out
 * exactly as written; JPEG pairs go through the MJPEG decode path, and a truncated and a
 * bit-flipped JPEG are dropped and counted while the valid frames still come through; the
 * played-out camera says so; a broken folder gives an error that names it; the spec parser
 * takes synth, files:DIR and v4l2:L,R and refuses the rest.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <turbojpeg.h>
#include <unistd.h>

#include "capture.h"
#include "jd_test.h"
#include "synth.h"

enum { W = 64, H = 48, N = 6 };

static char root[] = "/tmp/jd_capture_XXXXXX";

static void put(const char *side, const char *name, const void *data, size_t len)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s/%s", root, side, name);
	FILE *f = fopen(p, "wb");
	JD_CHECK(f && fwrite(data, 1, len, f) == len, "write %s", p);
	if (f) {
		fclose(f);
	}
}

static void put_pgm(const char *side, const char *name, const uint8_t *px)
{
	char buf[64 + W * H];
	int n = snprintf(buf, 64, "P5\n# synth\n%d %d\n255\n", W, H);

	memcpy(buf + n, px, W * H);
	put(side, name, buf, (size_t)n + W * H);
}

static int run_capture(struct jd_capture *c, const char *spec, int loop, uint8_t *frames_left,
		       int *pairs)
{
	struct jd_capture_config cfg = {0};
	char err[256];
	uint8_t l[W * H], r[W * H];
	struct jd_image li = {l, W, H, W}, ri = {r, W, H, W};
	int truth, rc;

	JD_CHECK(jd_capture_parse(spec, &cfg, err, sizeof(err)) == 0, "%s", err);
	cfg.cam = (struct jd_cam_config){W, H, 0, JD_PIX_GREY, 2, 100, {0, {0}, 0}};
	cfg.files.loop = cfg.synth.replay = loop;
	size_t bytes = jd_capture_mem_required(&cfg);
	void *mem = malloc(bytes);
	rc = jd_capture_init(c, &cfg, mem, bytes, NULL);
	if (rc) {
		free(mem);
		return rc;
	}
	*pairs = 0;
	for (int i = 0; i < 3 * N; i++) {
		rc = jd_capture_next(c, &li, &ri, NULL, &truth);
		if (rc == -ENODATA) {
			break;
		}
		if (rc == 0) {
			if (frames_left && *pairs < N) {
				memcpy(frames_left + (size_t)*pairs * W * H, l, W * H);
			}
			++*pairs;
		}
	}
	jd_capture_deinit(c);
	free(mem);
	return rc;
}

int main(void)
{
	static uint8_t left[N][W * H], right[N][W * H], got[N][W * H];
	char dir[300], spec[320], name[32];
	struct jd_capture c;
	int pairs;

	JD_CHECK(mkdtemp(root) != NULL, "mkdtemp");
	snprintf(dir, sizeof(dir), "%s/left", root);
	mkdir(dir, 0700);
	snprintf(dir, sizeof(dir), "%s/right", root);
	mkdir(dir, 0700);
	snprintf(spec, sizeof(spec), "files:%s", root);
	for (int k = 0; k < N; k++) {
		struct jd_image l = {left[k], W, H, W}, r = {right[k], W, H, W};
		jd_synth_render(k, 16, &l, &r, NULL);
		snprintf(name, sizeof(name), "%03d.pgm", k);
		put_pgm("left", name, left[k]);
		put_pgm("right", name, right[k]);
	}
	/* PGM: every pair, byte for byte, then the end. */
	JD_CHECK(run_capture(&c, spec, 0, &got[0][0], &pairs) == -ENODATA, "played out");
	JD_CHECK(pairs == N, "%d of %d PGM pairs", pairs, N);
	JD_CHECK(memcmp(got, left, sizeof(got)) == 0, "PGM frames exact");
	/* Looping: more pairs than files. */
	JD_CHECK(run_capture(&c, spec, 1, NULL, &pairs) == 0 && pairs == 3 * N,
		 "looping gave %d pairs", pairs);

	/*
	 * JPEG: the same scenes, one with its header damaged (left 1: the start-of-frame marker
	 * overwritten, which left libjpeg-turbo's handle failing every later frame), one
	 * truncated (left 2) and one bit-flipped (right 4).
	 */
	tjhandle tj = tjInitCompress();
	for (int k = 0; k < N; k++) {
		for (int s = 0; s < 2; s++) {
			unsigned char *jpg = NULL;
			unsigned long len = 0;
			JD_CHECK(tjCompress2(tj, s ? right[k] : left[k], W, W, H, TJPF_GRAY, &jpg,
					     &len, TJSAMP_GRAY, 95, 0) == 0,
				 "compress");
			if (k == 1 && s == 0) {
				JD_CHECK(jd_test_damage_jpeg_header(jpg, len),
					 "a start-of-frame marker");
			}
			if (k == 2 && s == 0) {
				len /= 2;
			}
			if (k == 4 && s == 1) {
				for (unsigned long i = len / 2; i < len / 2 + 40 && i + 2 < len;
				     i++) {
					jpg[i] ^= 0x5a;
				}
			}
			snprintf(name, sizeof(name), "%03d.pgm", k);
			char p[300];
			snprintf(p, sizeof(p), "%s/%s/%s", root, s ? "right" : "left", name);
			unlink(p);
			snprintf(name, sizeof(name), "%03d.jpg", k);
			put(s ? "right" : "left", name, jpg, len);
			tjFree(jpg);
		}
	}
	tjDestroy(tj);
	JD_CHECK(run_capture(&c, spec, 0, &got[0][0], &pairs) == -ENODATA, "played out");
	JD_CHECK(pairs == N - 3, "%d pairs from %d with three corrupt", pairs, N);
	JD_CHECK(c.drop_corrupt == 3, "%lu corrupt frames counted", c.drop_corrupt);
	JD_CHECK(c.jpeg[0].resets == 2 && c.jpeg[1].resets == 1,
		 "each failure reset its decoder: %lu and %lu", c.jpeg[0].resets, c.jpeg[1].resets);
	JD_CHECK(strstr(c.last_drop, "004.jpg") == NULL && strstr(c.last_drop, "JPEG") &&
		     strstr(c.last_drop, "right camera") && strstr(c.last_drop, "frame 4"),
		 "the last drop names camera, frame and cause: %s", c.last_drop);
	int close = 1;
	for (int i = 0; i < W * H; i++) {
		close &= abs(got[0][i] - left[0][i]) <= 8;
	}
	JD_CHECK(close, "a decoded frame is the scene (within JPEG loss)");

	/* A right side with a name the left lacks: the error names both. */
	put("right", "zzz.jpg", "x", 1);
	JD_CHECK(run_capture(&c, spec, 0, NULL, &pairs) == -EINVAL && strstr(c.err, "has"),
		 "unequal sides: %s", c.err);
	JD_CHECK(run_capture(&c, "files:/nonexistent/jd", 0, NULL, &pairs) == -ENOENT &&
		     strstr(c.err, "/nonexistent/jd/left"),
		 "missing folder named: %s", c.err);
	struct jd_capture_config cfg0 = {0};
	char err0[256], longdir[300] = "files:/tmp/";
	memset(longdir + 11, 'd', 250);
	longdir[261] = '\0';
	JD_CHECK(run_capture(&c, longdir, 0, NULL, &pairs) == -ENAMETOOLONG &&
		     strstr(c.err, "a directory name longer than"),
		 "a directory too long for its sides refused: %s", c.err);
	char toolong[400] = "files:/";
	memset(toolong + 7, 'd', 300);
	toolong[307] = '\0';
	JD_CHECK(jd_capture_parse(toolong, &cfg0, err0, sizeof(err0)) == -EINVAL &&
		     strstr(err0, "a directory name longer than 255"),
		 "--camera files:DIR too long refused, not cut: %s", err0);

	/* The --camera spec. */
	struct jd_capture_config cfg;
	char err[256];
	JD_CHECK(jd_capture_parse("v4l2:/dev/video0,/dev/video2", &cfg, err, sizeof(err)) == 0 &&
		     cfg.kind == JD_CAPTURE_V4L2 && !strcmp(cfg.v4l2.device[1], "/dev/video2") &&
		     !strcmp(cfg.v4l2.device[0], "/dev/video0"),
		 "v4l2 spec");
	JD_CHECK(jd_capture_parse("v4l2:/dev/video0", &cfg, err, sizeof(err)) == -EINVAL &&
		     strstr(err, "v4l2:/dev/video0"),
		 "one device is not a stereo camera: %s", err);
	JD_CHECK(jd_capture_parse("files:", &cfg, err, sizeof(err)) == -EINVAL,
		 "files without DIR");
	JD_CHECK(jd_capture_parse("usb", &cfg, err, sizeof(err)) == -EINVAL, "unknown kind");
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	JD_CHECK(system(cmd) == 0, "cleanup");
	return jd_test_done("unit.capture");
}
