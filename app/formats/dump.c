#include "dump.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../algo/geometry/depth.h"
#include "../../algo/jd_status.h"
#include "../../hal/out_file.h"
#include "png_u16.h"

size_t jd_dump_mem_required(int w, int h)
{
	return sizeof(float) * (size_t)w * h;
}

int jd_dump_dir_check(const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (strlen(dir) > JD_DUMP_DIR_MAX) {
		snprintf(err, errlen, "--dump-dir: %zu characters: at most %d", strlen(dir),
			 JD_DUMP_DIR_MAX);
		return -ENAMETOOLONG;
	}
	if (stat(dir, &st) != 0) {
		int e = errno;
		snprintf(err, errlen, "--dump-dir %s: %s", dir, strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--dump-dir %s: not a directory", dir);
		return -ENOTDIR;
	}
	if (access(dir, W_OK | X_OK) != 0) {
		int e = errno;
		snprintf(err, errlen, "--dump-dir %s: not writable: %s", dir, strerror(e));
		return -e;
	}
	return 0;
}

/* DIR/name through the whole-or-nothing writer (hal/out_file.h). */
static int begin(struct jd_out *o, const char *dir, const char *name, char *err, size_t errlen)
{
	char path[JD_DUMP_DIR_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return jd_out_open(o, path, err, errlen);
}

/* PFM: little-endian floats, rows bottom to top (the format's order). */
static int pfm(struct jd_out *o, const char *dir, const char *name, const float *data, int w, int h,
	       int stride, char *err, size_t errlen)
{
	char head[64];
	int rc = begin(o, dir, name, err, errlen), ok = 1;

	if (rc) {
		return rc;
	}
	int n = snprintf(head, sizeof(head), "Pf\n%d %d\n-1\n", w, h);
	ok = jd_out_write(o, head, (size_t)n) == 0;
	for (int y = h - 1; y >= 0 && ok; y--) {
		ok = jd_out_write(o, data + (size_t)y * stride, sizeof(float) * w) == 0;
	}
	return jd_out_finish(o, ok, err, errlen);
}

static int write_out(void *ctx, const void *p, size_t n)
{
	return jd_out_write(ctx, p, n);
}

/* The disparity as a 16-bit PNG (KITTI's disparity * 256), for tools that do not read PFM. */
static int png16(struct jd_out *o, const char *dir, const struct jd_disp *disp, char *err,
		 size_t errlen)
{
	JD_TRY(begin(o, dir, "disparity_u16.png", err, errlen));
	return jd_out_finish(o, jd_png_u16_write(disp, write_out, o) == 0, err, errlen);
}

/* The confidence map as an 8-bit grey PNG (algo/match/confidence.h: 0 none, 255 best). */
static int png8(struct jd_out *o, const char *dir, const uint8_t *conf, int w, int h, char *err,
		size_t errlen)
{
	struct jd_image im = {(uint8_t *)conf, w, h, w};

	JD_TRY(begin(o, dir, "confidence.png", err, errlen));
	return jd_out_finish(o, jd_png_u8_write(&im, write_out, o) == 0, err, errlen);
}

/* The points with a depth as binary PLY: x, y, z in mm and the left view's grey. */
static int ply(struct jd_out *o, const char *dir, const float *depth, long npts,
	       const struct jd_image *left, const struct jd_camera_model *cam, char *err,
	       size_t errlen)
{
	int w = left->width, h = left->height;

	JD_TRY(begin(o, dir, "cloud.ply", err, errlen));
	char head[256], chunk[16 * 1024];
	int n = snprintf(head, sizeof(head),
			 "ply\nformat binary_little_endian 1.0\ncomment jetdepth point cloud, mm, "
			 "rectified left camera\nelement vertex %ld\nproperty float x\nproperty "
			 "float y\nproperty float z\nproperty uchar intensity\nend_header\n",
			 npts);
	int ok = jd_out_write(o, head, (size_t)n) == 0;
	size_t used = 0;
	for (int y = 0; y < h && ok; y++) {
		for (int x = 0; x < w && ok; x++) {
			float z = depth[(size_t)y * w + x];
			if (!isfinite(z)) {
				continue;
			}
			float p[3];
			jd_point_mm(cam, (float)x, (float)y, z, p);
			if (used + 13 > sizeof(chunk)) {
				ok = jd_out_write(o, chunk, used) == 0;
				used = 0;
			}
			memcpy(chunk + used, p, 12);
			chunk[used + 12] = (char)left->data[(size_t)y * left->stride + x];
			used += 13;
		}
	}
	ok = ok && jd_out_write(o, chunk, used) == 0;
	return jd_out_finish(o, ok, err, errlen);
}

/* Every file of the frame finished, or none: then the renames, all together. */
static int write_set(struct jd_out *outs, const char *dir, const struct jd_disp *disp,
		     const uint8_t *conf, const struct jd_image *left,
		     const struct jd_camera_model *cam, float *depth, char *err, size_t errlen)
{
	int w = disp->width, h = disp->height, files = 0;
	long npts = 0;

	JD_TRY(
	    pfm(&outs[files++], dir, "disparity.pfm", disp->data, w, h, disp->stride, err, errlen));
	JD_TRY(png16(&outs[files++], dir, disp, err, errlen));
	if (conf) {
		JD_TRY(png8(&outs[files++], dir, conf, w, h, err, errlen));
	}
	if (!cam) {
		return files;
	}
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			float z = jd_depth_mm(cam, jd_disp_row(disp, y)[x]);
			depth[(size_t)y * w + x] = z;
			npts += isfinite(z);
		}
	}
	JD_TRY(pfm(&outs[files++], dir, "depth_mm.pfm", depth, w, h, w, err, errlen));
	JD_TRY(ply(&outs[files++], dir, depth, npts, left, cam, err, errlen));
	return files;
}

int jd_dump_frame(const char *dir, const struct jd_disp *disp, const uint8_t *conf,
		  const struct jd_image *left, const struct jd_camera_model *cam, float *depth,
		  char *err, size_t errlen)
{
	struct jd_out outs[JD_DUMP_FILES_MAX];

	for (int i = 0; i < JD_DUMP_FILES_MAX; i++) {
		outs[i].fd = -1;
		outs[i].finished = 0;
	}
	int files = write_set(outs, dir, disp, conf, left, cam, depth, err, errlen);
	for (int i = 0; i < JD_DUMP_FILES_MAX; i++) {
		if (files < 0) {
			jd_out_abandon(&outs[i]);
		} else if (i < files && jd_out_commit(&outs[i], err, errlen)) {
			files = -EIO; /* a rename refused: the rest are abandoned (see dump.h) */
			jd_out_abandon(&outs[i]);
		}
	}
	return files;
}
