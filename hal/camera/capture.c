#include "capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../algo/convert.h"
#include "camera_files.h"
#include "camera_synth.h"
#include "camera_v4l2.h"
#include "capture_priv.h"

int jd_capture_parse(const char *spec, struct jd_capture_config *cfg, char *err, size_t errlen)
{
	if (strcmp(spec, "synth") == 0) {
		cfg->kind = JD_CAPTURE_SYNTH;
		return 0;
	}
	const char *dir = strchr(spec, ':');
	if (!strncmp(spec, "files", 5) && dir && strlen(dir + 1) >= sizeof(cfg->files.dir)) {
		snprintf(err, errlen,
			 "--camera '%.40s...': a directory name longer than %zu characters", spec,
			 sizeof(cfg->files.dir) - 1);
		return -EINVAL;
	}
	if (strncmp(spec, "files:", 6) == 0 && spec[6]) {
		cfg->kind = JD_CAPTURE_FILES;
		snprintf(cfg->files.dir, sizeof(cfg->files.dir), "%s", spec + 6);
		return 0;
	}
	int sbs = strncmp(spec, "v4l2-sbs:", 9) == 0, tb = strncmp(spec, "v4l2-tb:", 8) == 0;
	const char *one = spec + (sbs ? 9 : 8);
	int fsbs = strncmp(spec, "files-sbs:", 10) == 0, ftb = strncmp(spec, "files-tb:", 9) == 0;
	if ((fsbs && spec[10]) || (ftb && spec[9])) {
		cfg->kind = JD_CAPTURE_FILES;
		cfg->split = fsbs ? JD_SPLIT_SIDE : JD_SPLIT_TOP;
		snprintf(cfg->files.dir, sizeof(cfg->files.dir), "%s", spec + (fsbs ? 10 : 9));
		return 0;
	}
	char(*dev)[256] = cfg->v4l2.device;
	if ((sbs || tb) && *one && !strchr(one, ',') && strlen(one) < sizeof(dev[0])) {
		cfg->kind = JD_CAPTURE_V4L2;
		cfg->split = sbs ? JD_SPLIT_SIDE : JD_SPLIT_TOP;
		snprintf(dev[0], sizeof(dev[0]), "%s", one);
		snprintf(dev[1], sizeof(dev[1]), "%s", one);
		return 0;
	}
	const char *comma = strchr(spec, ',');
	if (strncmp(spec, "v4l2:", 5) == 0 && comma && comma > spec + 5 && comma[1] &&
	    (size_t)(comma - spec - 5) < sizeof(dev[0])) {
		cfg->kind = JD_CAPTURE_V4L2;
		cfg->split = JD_SPLIT_NONE;
		snprintf(dev[0], sizeof(dev[0]), "%.*s", (int)(comma - spec - 5), spec + 5);
		snprintf(dev[1], sizeof(dev[1]), "%s", comma + 1);
		return 0;
	}
	snprintf(err, errlen,
		 "--camera '%s': expected synth, files:DIR, files-sbs:DIR, files-tb:DIR, "
		 "v4l2:/dev/videoL,/dev/videoR, v4l2-sbs:/dev/video or v4l2-tb:/dev/video",
		 spec);
	return -EINVAL;
}

/*
 * The drivers as boot sees them, one shape for all (Zephyr's device model): the boot memory
 * a pair of cameras takes, and setting up both in it from the driver's own configuration in
 * the capture's, with the view's size and rate (the error in c->err).
 */
struct camera_driver {
	enum jd_capture_kind kind;
	const char *source; /* as run's reports name it */
	size_t (*mem_required)(const struct jd_capture_config *cfg);
	int (*init)(struct jd_capture *c, void *mem, size_t bytes);
};

static size_t synth_mem(const struct jd_capture_config *cfg)
{
	return jd_cam_synth_mem_required(cfg->cam.width, cfg->cam.height);
}

static int synth_init(struct jd_capture *c, void *mem, size_t bytes)
{
	struct jd_cam_synth_config s = c->cfg.synth;

	s.width = c->cfg.cam.width;
	s.height = c->cfg.cam.height;
	s.fps = c->cfg.cam.fps;
	return jd_cam_synth_init(c->cam, mem, bytes, &s, c->err, sizeof(c->err));
}

/* A split source's cam[1]: the same name, the right view's label, no driver. */
static void mirror_right(struct jd_capture *c)
{
	struct jd_camera *r = &c->cam[1];

	memset(r, 0, sizeof(*r));
	snprintf(r->label, sizeof(r->label), "right");
	snprintf(r->device, sizeof(r->device), "%s", c->cam[0].device);
	r->cfg = c->cfg.cam;
}

void jd__capture_whole_size(const struct jd_capture_config *cfg, int *w, int *h)
{
	*w = cfg->cam.width * (cfg->split == JD_SPLIT_SIDE ? 2 : 1);
	*h = cfg->cam.height * (cfg->split == JD_SPLIT_TOP ? 2 : 1);
}

/* The files camera's names a side: counted in its directories at boot (any length replays) */
static int files_names(const struct jd_capture_config *cfg)
{
	struct jd_cam_files_config f = cfg->files;

	f.one = cfg->split != JD_SPLIT_NONE;
	return jd_cam_files_count(&f);
}

static size_t files_mem(const struct jd_capture_config *cfg)
{
	int w, h, n = files_names(cfg);

	jd__capture_whole_size(cfg, &w, &h);
	if (cfg->split) { /* one directory of whole frames, and room for a decoded MJPEG one */
		return jd_cam_files_mem_required(w, h, n) + (size_t)w * h;
	}
	return 2 * jd_cam_files_mem_required(w, h, n);
}

static int files_init(struct jd_capture *c, void *mem, size_t bytes)
{
	struct jd_cam_files_config f = c->cfg.files;
	int rc;

	jd__capture_whole_size(&c->cfg, &f.width, &f.height);
	f.fps = c->cfg.cam.fps;
	f.one = c->cfg.split != JD_SPLIT_NONE;
	f.names = files_names(&c->cfg); /* as files_mem() counted them for boot's budget */
	if (f.one) {
		c->ncam = 1;
		c->whole = (uint8_t *)mem + jd_cam_files_mem_required(f.width, f.height, f.names);
	}
	rc = jd_cam_files_init(c->cam, mem, bytes, &f, c->err, sizeof(c->err));
	if (!rc && f.one) {
		mirror_right(c);
	}
	return rc;
}

int jd_capture_files_size(const struct jd_capture_config *cfg, int *w, int *h, char *first,
			  size_t first_len, char *err, size_t errlen)
{
	char side[300];

	snprintf(side, sizeof(side), "%.250s%s", cfg->files.dir, cfg->split ? "" : "/left");
	int rc = jd_cam_files_first_size(side, w, h, first, first_len, err, errlen);
	if (rc) {
		return rc;
	}
	*w /= cfg->split == JD_SPLIT_SIDE ? 2 : 1; /* a view's */
	*h /= cfg->split == JD_SPLIT_TOP ? 2 : 1;
	return 0;
}

static size_t v4l2_mem(const struct jd_capture_config *cfg)
{
	int w, h;

	jd__capture_whole_size(cfg, &w, &h);
	if (cfg->split) { /* one device, and room for its decoded MJPEG frame */
		return jd_cam_v4l2_mem_required() + (size_t)w * h;
	}
	return 2 * jd_cam_v4l2_mem_required();
}

static int v4l2_init(struct jd_capture *c, void *mem, size_t bytes)
{
	struct jd_cam_v4l2_config v = c->cfg.v4l2;
	size_t each = jd_cam_v4l2_mem_required();
	int rc;

	v.one = c->cfg.split != JD_SPLIT_NONE;
	if (!v.one) {
		return jd_cam_v4l2_init(c->cam, mem, bytes, &v, c->err, sizeof(c->err));
	}
	/* one device, then room for its decoded MJPEG frame */
	c->ncam = 1;
	c->whole = (uint8_t *)mem + each;
	rc = jd_cam_v4l2_init(c->cam, mem, bytes >= v4l2_mem(&c->cfg) ? each : 0, &v, c->err,
			      sizeof(c->err));
	mirror_right(c);
	return rc;
}

static const struct camera_driver drivers[] = {
    {JD_CAPTURE_SYNTH, "synthetic", synth_mem, synth_init},
    {JD_CAPTURE_FILES, "files", files_mem, files_init},
    {JD_CAPTURE_V4L2, "v4l2", v4l2_mem, v4l2_init},
};

static const struct camera_driver *driver(enum jd_capture_kind kind)
{
	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++) {
		if (drivers[i].kind == kind) {
			return &drivers[i];
		}
	}
	return NULL;
}

const char *jd_capture_source(enum jd_capture_kind kind)
{
	const struct camera_driver *d = driver(kind);

	return d ? d->source : "?";
}

size_t jd_capture_mem_required(const struct jd_capture_config *cfg)
{
	const struct camera_driver *d = driver(cfg->kind);

	return d ? d->mem_required(cfg) : 0;
}

static int bring_up(struct jd_capture *c, FILE *log)
{
	/* a split device's frame holds both views */
	struct jd_cam_config want = c->cfg.cam;
	jd__capture_whole_size(&c->cfg, &want.width, &want.height);

	for (int i = 0; i < c->ncam; i++) {
		struct jd_camera *cam = &c->cam[i];
		int rc;

		if (want.ctl.follow) { /* the left runs auto exposure, the right follows it */
			want.ctl.set |= 1u << JD_CTL_AUTO_EXPOSURE;
			want.ctl.value[JD_CTL_AUTO_EXPOSURE] = i == 0;
		}
		cam->err[0] = '\0';
		if ((rc = jd_cam_open(cam)) || (rc = jd_cam_configure(cam, &want)) ||
		    (rc = jd_cam_start(cam))) {
			snprintf(c->err, sizeof(c->err), "%s", cam->err);
			return rc;
		}
		if (log && cam->err[0]) {
			fprintf(log, "camera: %s\n",
				cam->err); /* what the driver granted instead */
		}
	}
	return 0;
}

int jd_capture_init(struct jd_capture *c, const struct jd_capture_config *cfg, void *mem,
		    size_t bytes, FILE *log)
{
	const struct jd_cam_config *cc = &cfg->cam;
	const struct camera_driver *d = driver(cfg->kind);
	int rc;

	memset(c, 0, sizeof(*c));
	c->cfg = *cfg;
	c->ncam = 2;
	c->log = log;
	if (cfg->kind == JD_CAPTURE_SYNTH) {
		c->cfg.split = JD_SPLIT_NONE;
	}
	if (!d) {
		snprintf(c->err, sizeof(c->err), "no camera driver of kind %d", (int)cfg->kind);
		return -EINVAL;
	}
	rc = d->init(c, mem, bytes);
	if (!rc && cfg->record_dir[0] &&
	    (rc = jd_recorder_init(&c->rec, cfg->record_dir, cfg->record_max_mb, log))) {
		snprintf(c->err, sizeof(c->err), "%.500s", c->rec.why);
	}
	for (int i = 0; i < 2 && !rc; i++) {
		if ((rc = jd_jpeg_init(&c->jpeg[i]))) {
			snprintf(c->err, sizeof(c->err), "%s", c->jpeg[i].err);
		}
	}
	jd_pair_init(&c->pair, cc->fps);
	if (!rc) {
		rc = bring_up(c, log);
		if (rc == -ENODEV && cfg->kind == JD_CAPTURE_V4L2 && cfg->wait_absent) {
			/* a USB camera that is not there yet: the loop reopens it with backoff */
			for (int i = 0; i < c->ncam; i++) {
				jd_cam_stop(&c->cam[i]);
				jd_cam_close(&c->cam[i]);
			}
			c->down = 1;
			rc = 0;
		}
	}
	if (rc) {
		jd_capture_deinit(c);
	}
	return rc;
}

/* Count a dropped frame and keep why (c->err) as the last drop's reason. @return -EBADMSG */
int jd__capture_dropped(struct jd_capture *c, unsigned long *counter)
{
	(*counter)++;
	memcpy(c->last_drop, c->err, sizeof(c->last_drop));
	return -EBADMSG;
}

/*
 * A deep mono or raw Bayer frame to luma in out, row by row (a Bayer row with the rows above
 * and below, mirrored at the top and bottom, and where its R sites are: convert.h's rule).
 * Frames are at least 2x2.
 */
static void luma_of_deep(const struct jd_kernels *k, const struct jd_cam_frame *f,
			 struct jd_image *out)
{
	const int bits = jd_pixfmt_bits(f->fmt), h = out->height;
	int r_col, r_row;

	jd_pixfmt_bayer_red(f->fmt, &r_col, &r_row);
	for (int y = 0; y < h; y++) {
		uint8_t *dst = out->data + (size_t)y * out->stride;
		const uint8_t *row = f->data + (size_t)y * f->stride;

		if (jd_pixfmt_is_bayer(f->fmt)) {
			int up = jd_bayer_mirror_row(y - 1, h),
			    down = jd_bayer_mirror_row(y + 1, h);
			k->gray_from_bayer(f->data + (size_t)up * f->stride, row,
					   f->data + (size_t)down * f->stride, out->width, bits,
					   r_col, (y & 1) == r_row, dst);
		} else {
			k->gray_from_mono16(row, out->width, bits, dst);
		}
	}
}

/*
 * A colour mosaic read as mono: in a Bayer frame a pixel's neighbours are other colours and
 * the pixels two away its own, so neighbours differ far more than pixels two apart, across
 * and down; in a mono picture of a scene it is the other way round. Sampled every 4th row.
 */
static int looks_like_mosaic(const struct jd_cam_frame *f)
{
	double d1x = 0, d2x = 0, d1y = 0, d2y = 0;

	for (int y = 0; y + 2 < f->height; y += 4) {
		const uint8_t *r0 = f->data + (size_t)y * f->stride;
		const uint8_t *r1 = r0 + f->stride, *r2 = r1 + f->stride;
		for (int x = 0; x + 2 < f->width; x++) {
			int v = (int)jd_sample16(r0 + 2 * x);
			int h1 = (int)jd_sample16(r0 + 2 * x + 2),
			    h2 = (int)jd_sample16(r0 + 2 * x + 4);
			int v1 = (int)jd_sample16(r1 + 2 * x), v2 = (int)jd_sample16(r2 + 2 * x);
			d1x += abs(v - h1);
			d2x += abs(v - h2);
			d1y += abs(v - v1);
			d2y += abs(v - v2);
		}
	}
	return d1x > 2 * d2x + 1 && d1y > 2 * d2y + 1;
}

/*
 * A deep format's first frame, looked at once a side: samples wider than the format's bits
 * cannot be (a camera that stores them MSB-aligned, or a stream that is not this format:
 * they read as white), and a frame mostly at full scale is saturated. Said on the boot log.
 */
static void deep_first_look(struct jd_capture *c, int side, const struct jd_cam_frame *f)
{
	const int bits = jd_pixfmt_bits(f->fmt);
	const unsigned top = (1u << bits) - 1;
	unsigned long wide = 0, full = 0, n = (unsigned long)f->width * (unsigned long)f->height;
	unsigned largest = 0;

	for (int y = 0; y < f->height; y++) {
		const uint8_t *row = f->data + (size_t)y * f->stride;
		for (int x = 0; x < f->width; x++) {
			unsigned v = jd_sample16(row + 2 * x);
			largest = v > largest ? v : largest;
			wide += v > top;
			full += v >= top;
		}
	}
	FILE *log = c->log ? c->log : stderr;
	if (!jd_pixfmt_is_bayer(f->fmt) && looks_like_mosaic(f)) {
		fprintf(
		    log,
		    "jetdepth: %s camera %s: %s frame: neighbouring pixels differ far more than "
		    "pixels two apart, as in a colour mosaic: is the stream raw Bayer (RG10, "
		    "BA10 ...) labelled %s? It is matched as mono\n",
		    c->cam[side].label, c->cam[side].device, jd_pixfmt_name(f->fmt),
		    jd_pixfmt_name(f->fmt));
	}
	if (wide) {
		fprintf(log,
			"jetdepth: %s camera %s: %s frame: %.1f %% of the samples are wider than "
			"%d bits "
			"(up to %u): the camera stores them MSB-aligned or the stream is not %s; "
			"they read as white\n",
			c->cam[side].label, c->cam[side].device, jd_pixfmt_name(f->fmt),
			100.0 * (double)wide / (double)n, bits, largest, jd_pixfmt_name(f->fmt));
	} else if (full * 2 > n) {
		fprintf(log,
			"jetdepth: %s camera %s: %s frame: %.1f %% of the samples at full scale "
			"(%u): the image is saturated (exposure, gain)\n",
			c->cam[side].label, c->cam[side].device, jd_pixfmt_name(f->fmt),
			100.0 * (double)full / (double)n, top);
	}
}

/*
 * One view to luma in out, or with raw, into raw->data[side] as it came (out is then that
 * buffer's gray view, for MJPEG); -EBADMSG for a frame that cannot be (counted by the caller).
 */
int jd__capture_take_view(struct jd_capture *c, int side, const struct jd_cam_frame *f,
			  struct jd_image *out, struct jd_capture_raw *raw)
{
	size_t need = jd_pixfmt_frame_bytes(f->fmt, out->width, out->height);

	if (f->fmt == JD_PIX_MJPEG) {
		int rc = jd_jpeg_decode_gray(&c->jpeg[side], f->data, f->bytes, out);
		c->decoder_failed |= rc == -EIO;
		if (rc) {
			snprintf(c->err, sizeof(c->err), "%s camera %s: frame %u: %s",
				 c->cam[side].label, c->cam[side].device, f->seq,
				 c->jpeg[side].err);
			return jd__capture_dropped(c, &c->drop_corrupt);
		}
		if (raw) {
			raw->fmt[side] = JD_PIX_GREY;
		}
		return 0;
	}
	if (f->width != out->width || f->height != out->height || f->bytes < need ||
	    (jd_pixfmt_is_bayer(f->fmt) && (out->width < 2 || out->height < 2)) ||
	    (raw && need > raw->cap)) {
		snprintf(c->err, sizeof(c->err),
			 "%s camera %s: frame %u: %dx%d %s with %zu bytes, expected %dx%d (%zu "
			 "bytes, room for %zu)",
			 c->cam[side].label, c->cam[side].device, f->seq, f->width, f->height,
			 jd_pixfmt_name(f->fmt), f->bytes, out->width, out->height, need,
			 raw ? raw->cap : need);
		return jd__capture_dropped(c, &c->drop_short);
	}
	const struct jd_kernels *k = c->cfg.kernels ? c->cfg.kernels : &jd_kernels_ref;
	if (!c->deep_said[side] && jd_pixfmt_bits(f->fmt) > 8 && jd_pixfmt_bits(f->fmt) < 16) {
		c->deep_said[side] = 1;
		deep_first_look(c, side, f);
	}
	if (!raw && (jd_pixfmt_is_bayer(f->fmt) || jd_pixfmt_bits(f->fmt) > 8)) {
		luma_of_deep(k, f, out); /* raw: the GPU's luma step takes them as they came */
		return 0;
	}
	size_t row_bytes = need / (size_t)out->height;
	for (int y = 0; y < out->height; y++) {
		const uint8_t *row = f->data + (size_t)y * f->stride;

		if (raw) {
			memcpy(raw->data[side] + (size_t)y * row_bytes, row, row_bytes);
		} else if (f->fmt == JD_PIX_GREY) {
			memcpy(out->data + (size_t)y * out->stride, row, (size_t)out->width);
		} else {
			(f->fmt == JD_PIX_UYVY ? k->gray_from_uyvy : k->gray_from_yuyv)(
			    row, out->width, out->data + (size_t)y * out->stride);
		}
	}
	if (raw) {
		raw->fmt[side] = f->fmt;
	}
	return 0;
}

/*
 * Give a frame back to its camera. A refused requeue (the driver's error) would leave the
 * stream one buffer short for good: remember it, and the next jd_capture_next() reports it so
 * that the caller reopens the camera.
 */
void jd__capture_give_back(struct jd_capture *c, int side, const struct jd_cam_frame *f)
{
	int rc = jd_cam_requeue(&c->cam[side], f);

	if (rc && !c->requeue_failed) {
		c->requeue_failed = rc;
		snprintf(c->err, sizeof(c->err), "%s", c->cam[side].err);
	}
}

/* jd_capture_next() and jd_capture_next_raw(): left and right are raw's gray views there. */
static int next_pair(struct jd_capture *c, struct jd_image *left, struct jd_image *right,
		     struct jd_capture_raw *raw, struct jd_disp *gt, int *has_truth)
{
	if (c->requeue_failed || c->decoder_failed) {
		return -EIO; /* c->err still says which requeue or decoder failed */
	}
	if (c->down) {
		return -ENODEV; /* c->err says which camera is absent */
	}
	if (c->cfg.split) {
		*has_truth = 0; /* a split source (a device, or images) knows none */
		return jd__capture_next_split(c, left, right, raw);
	}
	/* Bounded: a stream of bad frames makes this return, not spin. */
	for (int attempt = 0; attempt < 16; attempt++) {
		int side = jd_pair_wants(&c->pair);
		struct jd_camera *cam = &c->cam[side];
		struct jd_cam_frame f, rel, fl, fr;
		int rc = jd_cam_dequeue(cam, &f);

		if (rc == -EBADMSG || rc == -EBUSY) {
			snprintf(c->err, sizeof(c->err), "%s", cam->err);
			if (rc == -EBADMSG) {
				jd__capture_dropped(c, &c->drop_short);
			}
			continue;
		}
		if (rc == -EINPROGRESS) {
			return rc; /* not due yet: the loop comes round (stop, watchdog) and asks
				      again */
		}
		if (rc) {
			/* a timeout: the driver counted it */
			snprintf(c->err, sizeof(c->err), "%s", cam->err);
			return rc;
		}
		rc = jd_pair_offer(&c->pair, side, &f, &rel);
		if (rc & JD_PAIR_RELEASE) {
			jd__capture_give_back(c, c->pair.released, &rel);
		}
		if (!(rc & JD_PAIR_READY)) {
			continue;
		}
		jd_pair_take(&c->pair, &fl, &fr);
		/* both sides, so that each bad one is counted; a good half of a bad pair is too */
		int bad_l = jd__capture_take_view(c, 0, &fl, left, raw) != 0;
		int bad_r = jd__capture_take_view(c, 1, &fr, right, raw) != 0;
		int bad = bad_l || bad_r;
		c->drop_partner += bad ? (unsigned long)(!bad_l + !bad_r) : 0;
		*has_truth = 0;
		struct jd_disp t;
		if (!bad && gt && gt->data && jd_cam_truth(&c->cam[0], &fl, &t) == 0) {
			for (int y = 0; y < gt->height; y++) {
				memcpy(jd_disp_row(gt, y), jd_disp_row(&t, y),
				       sizeof(float) * gt->width);
			}
			*has_truth = 1;
		}
		if (!bad) {
			jd_recorder_pair(&c->rec, &fl, &fr);
		}
		jd__capture_give_back(c, 0, &fl);
		jd__capture_give_back(c, 1, &fr);
		if (c->requeue_failed || c->decoder_failed) {
			return -EIO;
		}
		if (bad) {
			return -EAGAIN; /* one dropped pair at a time: the loop says each */
		}
		c->pairs++;
		c->last_ts = fl.ts_ns;
		jd__capture_note_pair(c, &fl, &fr);
		if (c->cfg.cam.ctl.follow && c->pairs % JD_CAM_FOLLOW_PAIRS == 0) {
			jd__capture_follow(c);
		}
		return 0;
	}
	return -EAGAIN;
}

int jd_capture_next(struct jd_capture *c, struct jd_image *left, struct jd_image *right,
		    struct jd_disp *gt, int *has_truth)
{
	return next_pair(c, left, right, NULL, gt, has_truth);
}

int jd_capture_next_raw(struct jd_capture *c, struct jd_capture_raw *raw, struct jd_disp *gt,
			int *has_truth)
{
	int w = c->cfg.cam.width, h = c->cfg.cam.height;
	struct jd_image left = {raw->data[0], w, h, w}, right = {raw->data[1], w, h, w};

	return next_pair(c, &left, &right, raw, gt, has_truth);
}

int jd_capture_recover(struct jd_capture *c)
{
	struct jd_cam_frame held[2];
	int mask = jd_pair_flush(&c->pair, held);

	for (int i = 0; i < c->ncam; i++) {
		if (mask & (1 << i)) {
			jd__capture_give_back(c, i, &held[i]);
		}
		jd_cam_stop(&c->cam[i]);
		jd_cam_close(&c->cam[i]);
	}
	c->requeue_failed = 0;
	for (int i = 0; i < 2 && c->decoder_failed; i++) {
		/* a reopen, not the loop: the decoders may be made again here */
		jd_jpeg_deinit(&c->jpeg[i]);
		if (jd_jpeg_init(&c->jpeg[i])) {
			snprintf(c->err, sizeof(c->err), "%s", c->jpeg[i].err);
			return -ENOMEM;
		}
	}
	c->decoder_failed = 0;
	int rc = bring_up(c, NULL);
	if (!rc && c->down) {
		c->down = 0; /* up for the first time: not a reopen */
	} else if (!rc) {
		c->cam[0].stats.reopens++;
		c->cam[1].stats.reopens++;
	}
	return rc;
}

void jd_capture_deinit(struct jd_capture *c)
{
	if (!c) {
		return;
	}
	for (int i = 0; i < 2; i++) {
		if (c->cam[i].ops) {
			jd_cam_stop(&c->cam[i]);
			jd_cam_close(&c->cam[i]);
		}
		jd_jpeg_deinit(&c->jpeg[i]);
	}
}
