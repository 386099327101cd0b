/*
 * The frame loop: capture a pair (hal/camera/capture.h: synthetic, files or V4L2 cameras) -> match
 * -> report. The synthetic camera also gives the true disparity, so those frames are checked.
 * With the GPU the loop is pipelined: frame k+1 is captured and uploaded while frame k's
 * kernels run (jd_engine_depth() frames in flight); on the CPU one frame at a time.
 */
#ifndef JD_APP_DAEMON_H
#define JD_APP_DAEMON_H

#include <stdint.h>
#include <stdio.h>

#include "../../algo/match/jd_params.h"
#include "../../algo/geometry/pair_check.h"
#include "boot.h"
#include "../../algo/sense/sense.h"
#include "../../algo/sense/track.h"
#include "../../hal/camera/capture.h"
#include "rectifier.h"
#include "sense_options.h"

/*
 * The loop's stages, for the CPU time each costs a step (every thread: the workers a stage
 * uses count in it): getting the pair (CPU rectification and the pair check included),
 * submitting it, collecting the oldest frame (the wait and the copies), its confidence
 * map, and sensing with tracking.
 */
enum jd_stage {
	JD_STAGE_CAPTURE,
	JD_STAGE_SUBMIT,
	JD_STAGE_COLLECT,
	JD_STAGE_CONFIDENCE,
	JD_STAGE_SENSE,
	JD_STAGES
};

extern const char *const jd_stage_names[JD_STAGES];

/* frames between two checks that the pair is rectified and in order (the first is checked) */
#define JD_DAEMON_PAIR_CHECK_EVERY 900

/* The frames in flight at once: the GPU staging's depth (1 on the CPU, which uses slot 0). */
#define JD_DAEMON_INFLIGHT JD_CUDA_SLOTS

struct jd_daemon; /* the loop's state (daemon_state.h): callers use the functions below */

struct jd_frame_stats {
	long long frame;   /* 64-bit: a daemon runs for years at 200 fps */
	uint64_t ts_ns;	   /* the pair's capture timestamp */
	double capture_ms; /* getting the pair: dequeue, pairing, conversion */
	double rectify_ms; /* 0 for rectified cameras */
	uint64_t match_ns; /* submit to map in hand, queueing included */
	double gpu_ms;	   /* the GPU's kernels for this frame (device events; 0 on the CPU) */
	double sense_ms;
	double confidence_ms;
	double cpu_ms; /* the process's CPU time, every thread, since the previous frame */
	double stage_cpu_ms[JD_STAGES]; /* of which each stage's in the step that collected it */
	/* what the frame has on the host (NULL: left on the device, jd_daemon_bring_back()) */
	const uint8_t *conf;		     /* the confidence map (w bytes a row) */
	const struct jd_image *left;	     /* this frame's rectified left image */
	const struct jd_disp *map;	     /* the map, masked by the confidence */
	const struct jd_sense_result *sense; /* NULL when not sensing */
	const struct jd_track_info *tracks;  /* per object of sense: ids across frames */
	int has_truth;
	double bad1;	/* percent of pixels more than 1 px off the truth (before the
			   confidence threshold: the matcher's own) */
	double invalid; /* percent without a disparity */
};

/* What jd_daemon_init() may be given besides the matcher (all optional). */
struct jd_daemon_opts {
	const struct jd_capture_config *cam;   /* NULL: the synthetic camera */
	const struct jd_sense_options *sense;  /* NULL: defaults */
	const struct jd_boot_choices *choices; /* NULL: auto, copy mode, no tuning file */
	const struct jd_board *board;	       /* its memory ceiling bounds the budget */
	size_t app_bytes;		       /* boot memory for the caller (info's app_mem) */
	int no_truth; /* frames are not scored against a camera's truth (bench: the loop's cost) */
	int ros2;     /* ROS 2 topics: the GPU makes depth and the cloud (app/ros2/ros2_daemon.h) */
	int preview;  /* the browser preview: the GPU may compose its picture */
};

/** What a booted daemon is, fixed at boot (jd_daemon_info()). */
struct jd_daemon_info {
	int w, h;			     /* the rectified frame */
	const struct jd_match_params *p;     /* the matcher and its search */
	const struct jd_camera_model *model; /* NULL: no camera model, objects not sensed */
	void *app_mem;	   /* the caller's boot memory (jd_daemon_opts.app_bytes) */
	size_t memory;	   /* every pool's bytes, the budget boot took */
	int min_conf;	   /* the map keeps pixels at least this confident */
	const char *where; /* the matcher runs on: "cpu", "cuda" or "mapped" */
};

/** How the loop goes, as of the last step. */
struct jd_daemon_progress {
	long long submitted; /* frames submitted (the next frame's number) */
	int in_flight;	     /* submitted, not yet collected */
	int camera_failed;   /* the last step's error came from the cameras, not the matcher */
	enum jd_pair_verdict pair_verdict; /* the last clear pair check's */
	float calib_dy_px;		   /* its vertical misalignment (NaN: none yet) */
	unsigned long long copied;	   /* bytes copied between host and device so far */
};

/**
 * Boot the process's one frame loop (too large for a stack: its storage is static) and point
 * *d at it: budget (the cameras', sensing's and the caller's memory included), pools (sealed),
 * workers, cameras started. Without a camera model in the sensing options the calibration's
 * or the synthetic rig's is used, or objects are not sensed (said at boot). o may be NULL.
 * @retval 0, -EBUSY (booted already: deinit first) or a negative errno (reason printed)
 */
int jd_daemon_init(struct jd_daemon **d, const struct jd_match_params *p, int w, int h, int threads,
		   const struct jd_daemon_opts *o, FILE *log);

/**
 * Capture and submit one frame, then collect the oldest when the pipeline is full.
 * Allocates nothing.
 * @retval 1 st describes a finished frame, 0 none finished yet (the pipeline is filling)
 * @retval -EAGAIN no pair from the cameras this time (the cameras' err says why; try again)
 * @retval -ENODEV, -EIO a camera is gone (jd_daemon_recover())
 * @retval -ENODATA the files camera has played everything
 * @retval other negative errno: the matcher failed
 */
int jd_daemon_step(struct jd_daemon *d, struct jd_frame_stats *st);

/** Collect a frame still in flight (at stop). @retval 1 st filled, 0 none left, or -errno */
int jd_daemon_drain(struct jd_daemon *d, struct jd_frame_stats *st);

void jd_daemon_deinit(struct jd_daemon *d);

const struct jd_daemon_info *jd_daemon_info(const struct jd_daemon *d);
void jd_daemon_progress(const struct jd_daemon *d, struct jd_daemon_progress *out);

/** The cameras, read only: their counters, drops, last error and devices (capture.h). */
const struct jd_capture *jd_daemon_cameras(const struct jd_daemon *d);

/**
 * Two devices' timestamp skew, ms: the last pair's, the median and the 99th percentile
 * (jd_capture_skew()). @retval 0, or -ENODATA (no pair yet, or one device)
 */
int jd_daemon_skew(struct jd_daemon *d, double skew_ms[3]);

/** Reopen a lost camera (jd_capture_recover()). @retval 0 back, or a negative errno */
int jd_daemon_recover(struct jd_daemon *d);

/*
 * What the outputs ask of the next frames. Each asks before the step that submits the frame;
 * where the GPU can make a result it does, else the CPU makes it when the frame is collected.
 */

/**
 * What the caller's outputs read on the host of the frames submitted from now on
 * (JD_CUDA_BACK_* bits: the map, the rectified pair, the confidence; boot: all). Where the GPU
 * matches in copy mode the rest stays on the device; the loop adds what it reads itself (a
 * truth to score, the pair check, sensing on the CPU).
 */
void jd_daemon_bring_back(struct jd_daemon *d, unsigned what);

/**
 * The preview's picture (algo/preview_compose.h) for the next frame submitted, colours over
 * 0 .. dmax. @return 1 where the GPU composes it (jd_daemon_picture() then has it), 0 where
 * the caller composes it from the frame
 */
int jd_daemon_picture_want(struct jd_daemon *d, float dmax);

/** The picture the GPU composed for the frame just collected (2w x h RGB), or NULL. */
uint8_t *jd_daemon_picture(struct jd_daemon *d);

/**
 * Depth and the cloud (JD_CUDA_CLOUD_* bits, 0 stops) for the frames submitted from now on.
 * @return 1 where the GPU makes them (jd_daemon_cloud()), 0 where the caller makes them
 */
int jd_daemon_cloud_want(struct jd_daemon *d, int what);

/** What the GPU made for the frame just collected, the caller's until released, or NULL. */
struct jd_cuda_cloud_set *jd_daemon_cloud(struct jd_daemon *d);

#endif
