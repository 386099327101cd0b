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
enum jd_stage { JD_STAGE_CAPTURE, JD_STAGE_SUBMIT, JD_STAGE_COLLECT, JD_STAGE_CONFIDENCE,
		JD_STAGE_SENSE, JD_STAGES };

extern const char *const jd_stage_names[JD_STAGES];

/* frames between two checks that the pair is rectified and in order (the first is checked) */
#define JD_DAEMON_PAIR_CHECK_EVERY 900

/* The frames in flight at once: the GPU staging's depth (1 on the CPU, which uses slot 0). */
#define JD_DAEMON_INFLIGHT JD_CUDA_SLOTS

/* What the loop keeps of one frame in flight, from its capture to its collect. */
struct jd_daemon_frame {
	uint64_t t_submit;	 /* when it was submitted */
	uint64_t ts;		 /* the pair's capture timestamp */
	double capture_ms;	 /* time spent getting the pair */
	double rectify_ms;	 /* rectifying it on the CPU (0: rectified cameras, or the GPU) */
	int truth;		 /* boot's ground-truth map of this slot holds its truth */
	struct jd_image pair[2]; /* the rectified pair submitted, where collect needs it */
};

struct jd_daemon {
	struct jd_engine engine;
	struct jd_capture cap;
	struct jd_match_params p;
	int frame;	      /* the next frame to submit */
	int inflight;	      /* submitted, not yet collected */
	struct jd_daemon_frame slot[JD_DAEMON_INFLIGHT]; /* frame k's: slot[k % INFLIGHT] */
	int camera_failed;    /* the last step's error came from the cameras, not the matcher */
	int sensing;	      /* a camera model is known: objects are sensed */
	int no_truth;	      /* jd_daemon_opts.no_truth */
	int gpu_sense;	      /* sensing's per-pixel work runs on the GPU (jd_engine_gpu_sense) */
	int gpu_masks;	      /* the GPU masks the map by its confidence before it comes back */
	int gpu_conf;	      /* the GPU makes the confidence (jd_engine_gpu_makes_confidence) */
	/*
	 * What the caller's outputs read from the next frames submitted (JD_CUDA_BACK_* bits:
	 * the map, the rectified pair, the confidence; init: all). Where the GPU matches in copy
	 * mode the rest stays on the device; the loop adds what it reads itself (a truth to
	 * score, the pair check, sensing on the CPU). Set it before each step.
	 */
	unsigned want_back;
	struct jd_camera_model model;
	struct jd_sense_params sp;
	void *sense_ws;
	size_t sense_bytes;
	struct jd_sense_result sense; /* the last collected frame's */
	int rectify;		      /* raw frames: capture into raw[], rectify into the boot's */
	int gpu_rectify;	      /* ... on the GPU instead: capture raw into the boot's */
	struct jd_rectifier rect;
	struct jd_image raw[2];
	void *app_mem;	      /* the caller's boot memory (jd_daemon_opts.app_bytes) */
	enum jd_pair_verdict pair_verdict; /* the last clear pair check's */
	uint8_t *conf;			   /* the last collected frame's confidence map */
	void *conf_ws;
	size_t conf_ws_bytes;
	int min_conf;		      /* the map keeps pixels at least this confident */
	struct jd_image lent[2];    /* the collected pair, where the GPU lends it */
	int lends_pair;		    /* it does (jd_engine_lend()) */
	struct jd_tracker tracker;
	float calib_dy_px;  /* the last clear pair check's vertical misalignment (NaN: none yet) */
	int calib_warned;   /* the recalibration warning was given (once) */
	uint64_t cpu_ns;    /* the process's CPU time when the last frame was collected */
	uint64_t stage_ns[JD_STAGES]; /* this step's CPU time by stage, so far */
	struct jd_track_info tracks[JD_SENSE_MAX_OBJECTS]; /* the last collected frame's */
};

struct jd_frame_stats {
	int frame;
	uint64_t ts_ns;	   /* the pair's capture timestamp */
	double capture_ms; /* getting the pair: dequeue, pairing, conversion */
	double rectify_ms; /* 0 for rectified cameras */
	uint64_t match_ns; /* submit to map in hand, queueing included */
	double gpu_ms;	   /* the GPU's kernels for this frame (device events; 0 on the CPU) */
	double sense_ms;
	double confidence_ms;
	double cpu_ms;	   /* the process's CPU time, every thread, since the previous frame */
	double stage_cpu_ms[JD_STAGES]; /* of which each stage's in the step that collected it */
	/* what the frame has on the host (NULL: left on the device, d->want_back) */
	const uint8_t *conf;		     /* the confidence map (w bytes a row) */
	const struct jd_image *left;	     /* this frame's rectified left image */
	const struct jd_disp *map;	     /* the map, masked by the confidence (d->engine.disp) */
	const struct jd_sense_result *sense; /* NULL when not sensing */
	const struct jd_track_info *tracks;  /* per object of sense: ids across frames */
	int has_truth;
	double bad1;	/* percent of pixels more than 1 px off the truth (before the
			   confidence threshold: the matcher's own) */
	double invalid; /* percent without a disparity */
};

/* What jd_daemon_init() may be given besides the matcher (all optional). */
struct jd_daemon_opts {
	const struct jd_capture_config *cam; /* NULL: the synthetic camera */
	const struct jd_sense_options *sense; /* NULL: defaults */
	/* the backend, GPU memory and tuning file asked for (its other fields unused); NULL: auto */
	const struct jd_boot_config *choices;
	const struct jd_board *board;	     /* its memory ceiling bounds the budget */
	size_t app_bytes;		     /* boot memory for the caller (d->app_mem) */
	int no_truth; /* frames are not scored against a camera's truth (bench: the loop's cost) */
	int ros2;     /* ROS 2 topics: the GPU makes depth and the cloud (app/ros2/ros2_daemon.h) */
	int preview;  /* the browser preview: the GPU may compose its picture */
};

/**
 * Boot: budget (the cameras', sensing's and the caller's memory included), pools (sealed),
 * workers, cameras started. Without a camera model in the sensing options the calibration's
 * or the synthetic rig's is used, or objects are not sensed (said at boot). o may be NULL.
 * @retval 0 or a negative errno (reason printed)
 */
int jd_daemon_init(struct jd_daemon *d, const struct jd_match_params *p, int w, int h, int threads,
		   const struct jd_daemon_opts *o, FILE *log);

/**
 * Capture and submit one frame, then collect the oldest when the pipeline is full.
 * Allocates nothing.
 * @retval 1 st describes a finished frame, 0 none finished yet (the pipeline is filling)
 * @retval -EAGAIN no pair from the cameras this time (d->cap.err says why; try again)
 * @retval -ENODEV, -EIO a camera is gone (jd_capture_recover())
 * @retval -ENODATA the files camera has played everything
 * @retval other negative errno: the matcher failed
 */
int jd_daemon_step(struct jd_daemon *d, struct jd_frame_stats *st);

/** Collect a frame still in flight (at stop). @retval 1 st filled, 0 none left, or -errno */
int jd_daemon_drain(struct jd_daemon *d, struct jd_frame_stats *st);

void jd_daemon_deinit(struct jd_daemon *d);

#endif
