#include "dump.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../algo/jd_status.h"
#include "png_u16.h"

size_t jd_dump_mem_required(int w, int h)
{
	return sizeof(float) * (size_t)w * h;
}

/* write() all of it, retrying on EINTR and short writes. */
static int put(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t k = write(fd, c, n);
		if (k < 0 && errno == EINTR) {
			continue;
		}
		if (k <= 0) {
			return -1;
		}
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

struct out {
	char path[600], tmp[640];
	int fd;
};

static int begin(struct out *o, const char *dir, const char *name, char *err, size_t errlen)
{
	snprintf(o->path, sizeof(o->path), "%s/%s", dir, name);
	snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.tmp", dir, name);
	o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (o->fd < 0) {
		snprintf(err, errlen, "%s: %s", o->tmp, strerror(errno));
		return -errno;
	}
	return 0;
}

static int end(struct out *o, int ok, char *err, size_t errlen)
{
	int e = ok ? 0 : errno;

	if (fsync(o->fd) != 0 && ok) {
		ok = 0;
		e = errno;
	}
	if (close(o->fd) != 0 && ok) {
		ok = 0;
		e = errno;
	}
	if (ok && rename(o->tmp, o->path) != 0) {
		ok = 0;
		e = errno;
	}
	if (!ok) {
		snprintf(err, errlen, "%s: %s", o->path, strerror(e ? e : EIO));
		unlink(o->tmp);
		return -(e ? e : EIO);
	}
	return 0;
}

/* PFM: little-endian floats, rows bottom to top (the format's order). */
static int pfm(const char *dir, const char *name, const float *data, int w, int h, int stride,
	       char *err, size_t errlen)
{
	struct out o;
	char head[64];
	int rc = begin(&o, dir, name, err, errlen), ok = 1;

	if (rc) {
		return rc;
	}
	int n = snprintf(head, sizeof(head), "Pf\n%d %d\n-1\n", w, h);
	ok = put(o.fd, head, (size_t)n) == 0;
	for (int y = h - 1; y >= 0 && ok; y--) {
		ok = put(o.fd, data + (size_t)y * stride, sizeof(float) * w) == 0;
	}
	return end(&o, ok, err, errlen);
}

static int put_fd(void *ctx, const void *p, size_t n)
{
	return put(*(int *)ctx, p, n);
}

/* The disparity as a 16-bit PNG (KITTI's disparity * 256), for tools that do not read PFM. */
static int png16(const char *dir, const struct jd_disp *disp, char *err, size_t errlen)
{
	struct out o;

	JD_TRY(begin(&o, dir, "disparity_u16.png", err, errlen));
	return end(&o, jd_png_u16_write(disp, put_fd, &o.fd) == 0, err, errlen);
}

int jd_dump_frame(const char *dir, const struct jd_disp *disp, const struct jd_image *left,
		  const struct jd_camera_model *cam, float *depth, char *err, size_t errlen)
{
	int w = disp->width, h = disp->height;
	long npts = 0;

	JD_TRY(pfm(dir, "disparity.pfm", disp->data, w, h, disp->stride, err, errlen));
	JD_TRY(png16(dir, disp, err, errlen));
	if (!cam) {
		return 2;
	}
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			float d = jd_disp_row(disp, y)[x];
			int ok = d > 0 && isfinite(d);
			depth[(size_t)y * w + x] = ok ? cam->f * cam->baseline_mm / d : INFINITY;
			npts += ok;
		}
	}
	JD_TRY(pfm(dir, "depth_mm.pfm", depth, w, h, w, err, errlen));
	struct out o;
	JD_TRY(begin(&o, dir, "cloud.ply", err, errlen));
	char head[256], chunk[16 * 1024];
	int n = snprintf(head, sizeof(head),
			 "ply\nformat binary_little_endian 1.0\ncomment jetdepth point cloud, mm, "
			 "rectified left camera\nelement vertex %ld\nproperty float x\nproperty "
			 "float y\nproperty float z\nproperty uchar intensity\nend_header\n",
			 npts);
	int ok = put(o.fd, head, (size_t)n) == 0;
	size_t used = 0;
	for (int y = 0; y < h && ok; y++) {
		for (int x = 0; x < w && ok; x++) {
			float z = depth[(size_t)y * w + x];
			if (!isfinite(z)) {
				continue;
			}
			float p[3] = {(x - cam->cx) * z / cam->f, (y - cam->cy) * z / cam->f, z};
			if (used + 13 > sizeof(chunk)) {
				ok = put(o.fd, chunk, used) == 0;
				used = 0;
			}
			memcpy(chunk + used, p, 12);
			chunk[used + 12] = (char)left->data[(size_t)y * left->stride + x];
			used += 13;
		}
	}
	ok = ok && put(o.fd, chunk, used) == 0;
	JD_TRY(end(&o, ok, err, errlen));
	return 4;
}
