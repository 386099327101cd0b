/*
 * The capture stage of the frame loop: two cameras (one driver for both), pairing by
 * timestamp, and conversion of each view to 8-bit luma in the frame buffers boot carved
 * (GREY copied, YUYV/UYVY luma taken, MJPEG decoded, deep mono and raw Bayer converted by
 * algo/convert.h's rules), or, for a GPU that converts on the
 * device, each view copied as it came (jd_capture_next_raw()). Buffers go back to the driver
 * as soon as their pixels are copied out. Bad frames (driver error flag, short, corrupt JPEG) are
 * dropped and counted; a lost device is reported for jd_capture_recover().
 */
#ifndef JD_HAL_CAPTURE_H
#define JD_HAL_CAPTURE_H

#include <stdio.h>

#include "../../algo/geometry/calib.h"
#include "../../algo/jd_image.h"
#include "../../algo/kernels/kernels.h"
#include "camera.h"
#include "camera_files.h"
#include "camera_synth.h"
#include "camera_v4l2.h"
#include "jpeg.h"
#include "recorder.h"
#include "stereo_pair.h"
#include "v4l2_sys.h"

enum jd_capture_kind { JD_CAPTURE_SYNTH, JD_CAPTURE_FILES, JD_CAPTURE_V4L2 };

/*
 * How one V4L2 device carries both views in each frame (ZED in UVC mode, the dual-lens USB
 * boards): left beside right (a 2W x H frame) or above it (W x 2H); none for two devices.
 */
enum jd_capture_split { JD_SPLIT_NONE, JD_SPLIT_SIDE, JD_SPLIT_TOP };

struct jd_capture_config {
	enum jd_capture_kind kind;
	enum jd_capture_split split; /* v4l2 or files: both views in one frame (-sbs:, -tb:) */
	struct jd_cam_config cam;    /* every driver: a view's size, rate, layout, controls */
	/*
	 * The driver's own configuration, the one kind names: jd_capture_parse() and the options
	 * fill it; the size and rate come from cam when the capture sets the driver up.
	 */
	struct jd_cam_synth_config synth;
	struct jd_cam_files_config files;
	struct jd_cam_v4l2_config v4l2;
	const struct jd_stereo_calib *calib; /* raw frames rectified with it (NULL: rectified) */
	int wait_absent; /* v4l2: a camera absent at boot is waited for (down), not an error */
	const struct jd_kernels *kernels; /* the luma conversion boot chose (NULL: reference) */
	char record_dir[256]; /* --record: the pairs as they came, for the files camera ("": off) */
	long record_max_mb;   /* its budget */
};

/* Pairs whose timestamp skew the capture keeps, for its median and 99th percentile. */
#define JD_CAPTURE_SKEW_N 256

struct jd_capture {
	struct jd_capture_config cfg;
	/*
	 * The cameras. A split device is cam[0]; cam[1] mirrors its name and counters for the
	 * reports, and no driver stands behind it (ncam = 1).
	 */
	struct jd_camera cam[2];
	int ncam;
	uint8_t *whole; /* split MJPEG: the decoded frame, both views (boot memory) */
	struct jd_pairer pair;
	struct jd_jpeg jpeg[2];
	unsigned long pairs, drop_corrupt, drop_short;
	unsigned long drop_partner; /* good frames whose partner was dropped (corrupt or short) */
	int requeue_failed;	    /* a driver refused a buffer back: reopen */
	int decoder_failed;	    /* a JPEG decoder could not be made ready again: reopen */
	int down;	  /* the cameras were absent at boot: jd_capture_recover() until up */
	uint64_t last_ts; /* the last pair's (left) timestamp, ns CLOCK_MONOTONIC */
	/* Two devices: each pair's timestamp skew (us), a ring, and a scratch to sort it in. */
	uint32_t skew_us[JD_CAPTURE_SKEW_N], skew_sorted[JD_CAPTURE_SKEW_N];
	int skew_n, skew_at;
	FILE *log; /* where the first pair says the cameras' clock (boot's log) */
	int clock_said;
	int deep_said[2];	     /* a deep format's first frame was looked at (capture.c) */
	unsigned long follow_failed; /* follow mode: copies the right camera refused */
	struct jd_recorder rec;	     /* --record (rec.on: recording) */
	char err[512];
	char last_drop[512]; /* why the last dropped frame was dropped */
};

/** The source's name in reports and /status: "synthetic", "files" or "v4l2". */
const char *jd_capture_source(enum jd_capture_kind kind);

/**
 * Parse --camera: "synth", "files:DIR", "v4l2:/dev/videoA,/dev/videoB", or one source with both
 * views, "v4l2-sbs:/dev/video0" (side by side) or "v4l2-tb:/dev/video0" (top and bottom), and
 * "files-sbs:DIR" or "files-tb:DIR" (images with both views, in DIR itself).
 * @retval 0 or -EINVAL
 */
int jd_capture_parse(const char *spec, struct jd_capture_config *cfg, char *err, size_t errlen);

/**
 * Boot: the size of a view of a files source's first image (its name in first), for a run
 * whose --size was not given. @retval 0, or -errno with err set
 */
int jd_capture_files_size(const struct jd_capture_config *cfg, int *w, int *h, char *first,
			  size_t first_len, char *err, size_t errlen);

/** Bytes of boot memory the drivers need. */
size_t jd_capture_mem_required(const struct jd_capture_config *cfg);

/** Open, configure (what was granted is logged) and start both cameras. @retval 0 or -errno */
int jd_capture_init(struct jd_capture *c, const struct jd_capture_config *cfg, void *mem,
		    size_t bytes, FILE *log);

/**
 * The next pair as luma into left/right (boot's size); gt receives the true disparity when
 * the source knows it (synth), and *has_truth says whether it did.
 * @retval 0
 * @retval -EAGAIN no pair this time: a timeout (c->err says why), or a pair dropped (counted;
 *         c->last_drop says why), one at a time so that the caller can say each
 * @retval -ENODEV, -EIO the device is gone: call jd_capture_recover()
 * @retval -ENODATA the files camera played its last pair (no --loop)
 */
int jd_capture_next(struct jd_capture *c, struct jd_image *left, struct jd_image *right,
		    struct jd_disp *gt, int *has_truth);

/* A pair as the cameras gave it, for a device that takes the luma itself. */
struct jd_capture_raw {
	uint8_t *data[2]; /* where each view goes, rows packed: cap bytes each */
	size_t cap;
	enum jd_pixfmt fmt[2]; /* out: each view's layout (MJPEG: decoded, GREY) */
};

/**
 * jd_capture_next(), but each view is copied into raw as the camera gave it (rows packed: no
 * per-pixel work), MJPEG decoded to GREY. Same return values; a view larger than raw->cap is
 * dropped as short.
 */
int jd_capture_next_raw(struct jd_capture *c, struct jd_capture_raw *raw, struct jd_disp *gt,
			int *has_truth);

/**
 * Two devices' timestamp skew in ms: the last pair's, and the median and 99th percentile over
 * the last JD_CAPTURE_SKEW_N pairs (sorted in the capture's scratch: no allocation).
 * @retval 0, -ENODATA (no pair yet, or a source other than two devices)
 */
int jd_capture_skew(struct jd_capture *c, double *last_ms, double *median_ms, double *p99_ms);

/** Stop, close and reopen both cameras (after -ENODEV/-EIO). @retval 0 or -errno */
int jd_capture_recover(struct jd_capture *c);

void jd_capture_deinit(struct jd_capture *c);

#endif
