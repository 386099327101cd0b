#include "camera_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../algo/jd_carve.h"
#include "../clock.h"
#include "../../algo/jd_status.h"
#include "image_decode.h"
#include "jpeg.h"
#include "../in_file.h"

struct side {
	char dir[256];
	int w, h, count, cap, next, loop, running; /* cap: room for names (boot's count) */
	uint64_t period_ns, t0;
	size_t file_cap;
	char (*names)[JD_FILES_NAME_MAX];
	uint8_t *file[2], *gray[2];
	uint8_t *row; /* the decoder's scratch */
	size_t row_bytes;
	int borrowed[2];
};

static size_t file_cap(int w, int h)
{
	return (size_t)w * h * 3 + 65536; /* an 8-bit RGB PNG or a JPEG, with headroom */
}

/*
 * One side's state, names and buffers, carved from c; the same code sizes it (base NULL).
 * @return the side, NULL when counting or out of room (c->overflow)
 */
static struct side *carve_side(struct jd_carve *c, int w, int h, int cap)
{
	struct side *s = jd_carve(c, sizeof(*s));
	void *names = jd_carve(c, (size_t)(cap > 0 ? cap : 1) * JD_FILES_NAME_MAX);
	uint8_t *file[2], *gray[2], *row;

	for (int k = 0; k < 2; k++) {
		file[k] = jd_carve(c, file_cap(w, h));
		gray[k] = jd_carve(c, (size_t)w * h);
	}
	row = jd_carve(c, jd_image_row_scratch(w));
	if (!s || c->overflow) {
		return NULL;
	}
	memset(s, 0, sizeof(*s));
	s->cap = cap > 0 ? cap : 1;
	s->row = row;
	s->row_bytes = jd_image_row_scratch(w);
	s->names = names;
	s->file_cap = file_cap(w, h);
	for (int k = 0; k < 2; k++) {
		s->file[k] = file[k];
		s->gray[k] = gray[k];
	}
	return s;
}

size_t jd_cam_files_mem_required(int w, int h, int names)
{
	struct jd_carve c;

	jd_carve_init(&c, NULL, 0);
	carve_side(&c, w, h, names);
	return jd_carve_total(&c);
}

static int is_image(const char *n)
{
	const char *e = strrchr(n, '.');

	return n[0] != '.' && e &&
	       (!strcasecmp(e, ".pgm") || !strcasecmp(e, ".ppm") || !strcasecmp(e, ".png") ||
		!strcasecmp(e, ".jpg") || !strcasecmp(e, ".jpeg") || !strcasecmp(e, ".raw"));
}

int jd_cam_files_raw_name(const char *name, int *w, int *h, enum jd_pixfmt *fmt)
{
	char fc[8], tail[8];
	const char *p = strchr(name, '.');

	if (!p || sscanf(p, ".%dx%d.%7[^.]%7s", w, h, fc, tail) != 4 || strcasecmp(tail, ".raw") ||
	    *w < 1 || *h < 1 || *w > 16384 || *h > 16384 || jd_pixfmt_parse(fc, fmt) ||
	    *fmt == JD_PIX_MJPEG) {
		return -EINVAL;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The images in one directory, or -1 where it cannot be read. */
static int count_images(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d) {
		return -1;
	}
	while ((e = readdir(d))) {
		n += is_image(e->d_name) && n < (1 << 24);
	}
	closedir(d);
	return n;
}

int jd_cam_files_count(const struct jd_cam_files_config *cfg)
{
	char side[300];
	int most = 1;

	for (int i = 0; i < (cfg->one ? 1 : 2); i++) {
		snprintf(side, sizeof(side), "%.255s%s", cfg->dir,
			 cfg->one ? ""
			 : i	  ? "/right"
				  : "/left");
		int n = count_images(side);
		most = n > most ? n : most;
	}
	return most;
}

/* Boot: the sorted image names of one directory. */
static int list(struct side *s, char *err, size_t errlen)
{
	DIR *d = opendir(s->dir);
	struct dirent *e;

	if (!d) {
		snprintf(err, errlen, "files camera: %s: cannot open the directory", s->dir);
		return -ENOENT;
	}
	s->count = 0;
	while ((e = readdir(d))) {
		if (!is_image(e->d_name)) {
			continue;
		}
		if (s->count == s->cap || strlen(e->d_name) >= JD_FILES_NAME_MAX) {
			closedir(d);
			snprintf(err, errlen, "files camera: %s: %s (%s)", s->dir,
				 s->count == s->cap ? "more images than when boot counted them"
						    : "a name of 128 or more characters",
				 e->d_name);
			return -EINVAL;
		}
		snprintf(s->names[s->count++], JD_FILES_NAME_MAX, "%s", e->d_name);
	}
	closedir(d);
	if (s->count == 0) {
		snprintf(err, errlen, "files camera: %s: no .pgm, .png or .jpg images", s->dir);
		return -ENOENT;
	}
	qsort(s->names, (size_t)s->count, JD_FILES_NAME_MAX, by_name);
	return 0;
}

int jd_cam_files_init(struct jd_camera cam[2], void *mem, size_t bytes,
		      const struct jd_cam_files_config *cfg, char *err, size_t errlen)
{
	const int w = cfg->width, h = cfg->height, one = cfg->one;
	const double fps = cfg->fps;
	const char *dir = cfg->dir;
	struct jd_carve c;
	struct side *s[2];

	jd_carve_init(&c, mem, bytes);
	for (int i = 0; i < (one ? 1 : 2); i++) {
		s[i] = carve_side(&c, w, h, cfg->names);
		if (!s[i]) {
			snprintf(err, errlen, "files camera: boot memory too small");
			return -ENOMEM;
		}
		s[i]->w = w;
		s[i]->h = h;
		s[i]->loop = cfg->loop;
		s[i]->period_ns = fps > 0 ? (uint64_t)(1e9 / fps) : 0;
		if (strlen(dir) + sizeof("/right") > sizeof(s[i]->dir)) {
			snprintf(err, errlen,
				 "files camera: %.64s...: a directory name longer than "
				 "%zu characters",
				 dir, sizeof(s[i]->dir) - sizeof("/right"));
			return -ENAMETOOLONG;
		}
		snprintf(s[i]->dir, sizeof(s[i]->dir), "%.249s%s%s", dir, one ? "" : "/",
			 one ? ""
			 : i ? "right"
			     : "left");
		int rc = list(s[i], err, errlen);
		if (rc) {
			return rc;
		}
		memset(&cam[i], 0, sizeof(cam[i]));
		cam[i].ops = &jd_camera_files_ops;
		cam[i].priv = s[i];
		snprintf(cam[i].label, sizeof(cam[i].label), "%s", i ? "right" : "left");
		snprintf(cam[i].device, sizeof(cam[i].device), "%s", s[i]->dir);
		cam[i].cfg = (struct jd_cam_config){w, h, fps, JD_PIX_GREY, 2, 1000, {0, {0}, 0}};
	}
	if (one) {
		return 0;
	}
	if (s[0]->count != s[1]->count) {
		snprintf(err, errlen, "files camera: %s has %d images, %s has %d", s[0]->dir,
			 s[0]->count, s[1]->dir, s[1]->count);
		return -EINVAL;
	}
	for (int k = 0; k < s[0]->count; k++) {
		if (strcmp(s[0]->names[k], s[1]->names[k]) != 0) {
			snprintf(err, errlen, "files camera: pair %d: %s/%s has no %s/%s", k,
				 s[0]->dir, s[0]->names[k], s[1]->dir, s[0]->names[k]);
			return -EINVAL;
		}
	}
	return 0;
}

static int files_open(struct jd_camera *c)
{
	(void)c;
	return 0;
}

static int files_configure(struct jd_camera *c, const struct jd_cam_config *want)
{
	c->cfg.timeout_ms = want->timeout_ms;
	return 0;
}

static int files_start(struct jd_camera *c)
{
	struct side *s = c->priv;

	s->running = 1;
	s->t0 = jd_clock_ns();
	return 0;
}

/* The whole file into buf, with open/read (no stdio buffer to allocate). */
static int slurp(struct jd_camera *c, const char *path, uint8_t *buf, size_t cap, size_t *len)
{
	char why[600];
	int fd = jd_in_open(path, why, sizeof(why));
	size_t n = 0;

	if (fd < 0) {
		return jd_cam_fail(c, -EBADMSG, "%s", why);
	}
	for (;;) {
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r <= 0) {
			break;
		}
		n += (size_t)r;
		if (n == cap) {
			close(fd);
			return jd_cam_fail(c, -EBADMSG, "%s: larger than %zu bytes", path, cap);
		}
	}
	close(fd);
	*len = n;
	return 0;
}

static int files_dequeue(struct jd_camera *c, struct jd_cam_frame *f)
{
	struct side *s = c->priv;
	char path[512];
	size_t len = 0;
	int k = s->next, b = k & 1, rc;

	if (!s->running) {
		return jd_cam_fail(c, -EINVAL, "dequeue before start");
	}
	if (k >= s->count && !s->loop) {
		return jd_cam_fail(c, -ENODATA, "played all %d pairs", s->count);
	}
	if (s->borrowed[b]) {
		return jd_cam_fail(c, -EBUSY, "both buffers borrowed (requeue first)");
	}
	/* Timestamps on the frame grid (30 Hz when unpaced), so pairing goes by position. */
	uint64_t ts = s->t0 + (uint64_t)k * (s->period_ns ? s->period_ns : 33333333u);
	if (s->period_ns && jd_clock_wait_until(ts, JD_CLOCK_SLICE_NS)) {
		return jd_cam_fail(c, -EINPROGRESS, "frame %d is not due yet", k);
	}
	s->next++;
	const char *name = s->names[k % s->count];
	snprintf(path, sizeof(path), "%s/%s", s->dir, name);
	if ((rc = slurp(c, path, s->file[b], s->file_cap, &len))) {
		return rc;
	}
	const char *e = strrchr(name, '.');
	*f = (struct jd_cam_frame){NULL, len, s->w, s->h, s->w, JD_PIX_GREY, ts, (uint32_t)k, b};
	if (!strcasecmp(e, ".raw")) {
		/* a recording: the camera's own bytes, handed out as the camera gave them */
		int rw, rh;
		enum jd_pixfmt fmt;
		if (jd_cam_files_raw_name(name, &rw, &rh, &fmt) || rw != s->w || rh != s->h ||
		    len != jd_pixfmt_frame_bytes(fmt, rw, rh)) {
			return jd_cam_fail(c, -EBADMSG,
					   "%s: %zu bytes: expected NAME.WxH.FORMAT.raw of %dx%d "
					   "pixels, rows packed",
					   path, len, s->w, s->h);
		}
		f->data = s->file[b];
		f->fmt = fmt;
		f->stride = s->w * jd_pixfmt_pixel_bytes(fmt);
	} else if (strcasecmp(e, ".jpg") && strcasecmp(e, ".jpeg")) {
		/* PGM/PPM and PNG: the decoder `match` uses too, so both see the same pixels */
		struct jd_image out = {s->gray[b], s->w, s->h, s->w};
		char why[600];
		if (jd_image_decode_gray(s->file[b], len, path, &out, s->row, s->row_bytes, why,
					 sizeof(why))) {
			return jd_cam_fail(c, -EBADMSG, "%s", why);
		}
		f->data = s->gray[b];
		f->bytes = (size_t)s->w * s->h;
	} else {
		f->data = s->file[b]; /* decoded by the caller, as a camera's MJPEG */
		f->fmt = JD_PIX_MJPEG;
	}
	if (rc) {
		return rc;
	}
	s->borrowed[b] = 1;
	jd_cam_count_frame(c, ts);
	return 0;
}

static int files_requeue(struct jd_camera *c, const struct jd_cam_frame *f)
{
	struct side *s = c->priv;

	if (f->index < 0 || f->index > 1) {
		return jd_cam_fail(c, -EINVAL, "requeue of buffer %d", f->index);
	}
	s->borrowed[f->index] = 0;
	return 0;
}

static int files_stop(struct jd_camera *c)
{
	((struct side *)c->priv)->running = 0;
	return 0;
}

const struct jd_camera_ops jd_camera_files_ops = {
    .name = "files",
    .open = files_open,
    .configure = files_configure,
    .start = files_start,
    .dequeue = files_dequeue,
    .requeue = files_requeue,
    .stop = files_stop,
};

int jd_cam_files_first_size(const char *side, int *w, int *h, char *path, size_t pathlen, char *err,
			    size_t errlen)
{
	char first[JD_FILES_NAME_MAX] = "";
	static uint8_t head[1 << 20]; /* boot only: a header and what precedes the pixels */
	DIR *d;
	struct dirent *e;

	if (!(d = opendir(side))) {
		snprintf(err, errlen, "files camera: %s: cannot open the directory", side);
		return -ENOENT;
	}
	while ((e = readdir(d))) {
		if (is_image(e->d_name) && strlen(e->d_name) < sizeof(first) &&
		    (!first[0] || strcmp(e->d_name, first) < 0)) {
			snprintf(first, sizeof(first), "%s", e->d_name);
		}
	}
	closedir(d);
	if (!first[0]) {
		snprintf(err, errlen, "files camera: %s: no .pgm, .ppm, .png or .jpg images", side);
		return -ENOENT;
	}
	snprintf(path, pathlen, "%s/%s", side, first);
	enum jd_pixfmt fmt;
	if (!strcasecmp(strrchr(first, '.'), ".raw")) {
		if (jd_cam_files_raw_name(first, w, h, &fmt)) {
			snprintf(err, errlen, "%s: expected NAME.WxH.FORMAT.raw", path);
			return -EINVAL;
		}
		return 0;
	}
	int fd = jd_in_open(path, err, errlen);
	if (fd < 0) {
		return fd;
	}
	ssize_t n = read(fd, head, sizeof(head));
	close(fd);
	if (n <= 0) {
		snprintf(err, errlen, "%s: cannot read", path);
		return -EIO;
	}
	if (jd_image_kind_of(head, (size_t)n) == JD_IMAGE_JPEG) {
		struct jd_jpeg j;
		int rc = jd_jpeg_init(&j);
		if (!rc && (rc = jd_jpeg_size(&j, head, (size_t)n, w, h))) {
			snprintf(err, errlen, "%s: %s", path, j.err);
		}
		jd_jpeg_deinit(&j);
		return rc;
	}
	struct jd_image_info info;
	JD_TRY(jd_image_probe(head, (size_t)n, path, &info, err, errlen));
	*w = info.width;
	*h = info.height;
	return 0;
}
