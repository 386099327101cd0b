#include "recorder.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* DIR/side exists and holds nothing yet (an earlier recording, or images of any kind). */
static int side_ready(struct jd_recorder *r, const char *side)
{
	char path[300];
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "%s/%s", r->dir, side);
	if (mkdir(path, 0755) && errno != EEXIST) {
		snprintf(r->why, sizeof(r->why), "--record: cannot make %.300s: %s", path,
			 strerror(errno));
		return -errno;
	}
	if (!(d = opendir(path))) {
		snprintf(r->why, sizeof(r->why), "--record: %.300s: %s", path, strerror(errno));
		return -ENOTDIR;
	}
	while ((e = readdir(d))) {
		/* any file: images of another kind would be replayed among the new frames */
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			closedir(d);
			snprintf(
			    r->why, sizeof(r->why),
			    "--record: %.200s already holds files (%.60s; a replay would mix them "
			    "with the new frames): give an empty directory",
			    path, e->d_name);
			return -EEXIST;
		}
	}
	closedir(d);
	return 0;
}

int jd_recorder_init(struct jd_recorder *r, const char *dir, long max_mb, FILE *log)
{
	memset(r, 0, sizeof(*r));
	r->log = log;
	if (strlen(dir) >= sizeof(r->dir) - 16 || max_mb < 1) {
		snprintf(r->why, sizeof(r->why),
			 "--record %.200s: a path under %zu characters, and "
			 "--record-max-mb of 1 or more",
			 dir, sizeof(r->dir) - 16);
		return -EINVAL;
	}
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(r->why, sizeof(r->why), "--record %s: cannot make it: %s", dir,
			 strerror(errno));
		return -errno;
	}
	int rc = side_ready(r, "left");
	if (!rc) {
		rc = side_ready(r, "right");
	}
	r->max_bytes = (uint64_t)max_mb << 20;
	r->on = rc == 0;
	return rc;
}

/* One view into path (rows packed); -errno on failure, the file then removed. */
static int write_view(const char *path, const struct jd_cam_frame *f)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	int rows = f->fmt == JD_PIX_MJPEG ? 1 : f->height;
	size_t row =
	    f->fmt == JD_PIX_MJPEG ? f->bytes : (size_t)f->width * jd_pixfmt_pixel_bytes(f->fmt);
	int rc = 0;

	if (fd < 0) {
		return -errno;
	}
	for (int y = 0; y < rows && !rc; y++) {
		const uint8_t *p = f->data + (size_t)y * f->stride;
		for (size_t done = 0; done < row && !rc;) {
			ssize_t n = write(fd, p + done, row - done);
			if (n > 0) {
				done += (size_t)n;
			} else if (n < 0 && errno != EINTR) {
				rc = -errno;
			}
		}
	}
	if (close(fd) && !rc) {
		rc = -errno;
	}
	if (rc) {
		unlink(path);
	}
	return rc;
}

/* A view's file name in its side: the pair's number, then its size and format. */
static void name_of(const struct jd_recorder *r, const char *side, const struct jd_cam_frame *f,
		    char *path, size_t len)
{
	if (f->fmt == JD_PIX_MJPEG) {
		snprintf(path, len, "%s/%s/%08lu.jpg", r->dir, side, r->pairs);
	} else {
		snprintf(path, len, "%s/%s/%08lu.%dx%d.%s.raw", r->dir, side, r->pairs, f->width,
			 f->height, jd_pixfmt_name(f->fmt));
	}
}

static void stop(struct jd_recorder *r, const char *reason)
{
	r->on = 0;
	snprintf(r->why, sizeof(r->why),
		 "recording %s stopped after %lu pair(s): %s (the robot goes on)", r->dir, r->pairs,
		 reason);
	if (r->log) {
		fprintf(r->log, "%s\n", r->why);
	}
}

void jd_recorder_pair(struct jd_recorder *r, const struct jd_cam_frame *left,
		      const struct jd_cam_frame *right)
{
	const struct jd_cam_frame *v[2] = {left, right};
	char path[2][320];
	uint64_t need = 0;

	if (!r->on) {
		return;
	}
	for (int i = 0; i < 2; i++) {
		name_of(r, i ? "right" : "left", v[i], path[i], sizeof(path[i]));
		need += v[i]->fmt == JD_PIX_MJPEG
			    ? v[i]->bytes
			    : jd_pixfmt_frame_bytes(v[i]->fmt, v[i]->width, v[i]->height);
	}
	if (r->bytes + need > r->max_bytes) {
		stop(r, "--record-max-mb reached");
		return;
	}
	for (int i = 0; i < 2; i++) {
		int rc = write_view(path[i], v[i]);
		if (rc) {
			if (i) {
				unlink(path[0]); /* no half pair */
			}
			stop(r, strerror(-rc));
			return;
		}
	}
	r->bytes += need;
	r->pairs++;
}
