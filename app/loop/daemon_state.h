/*
 * The frame loop's state, for daemon.c and white-box tests only: everything else holds a
 * struct jd_daemon * and uses daemon.h's functions.
 */
#ifndef JD_APP_DAEMON_STATE_H
#define JD_APP_DAEMON_STATE_H

#include "daemon.h"

/* What the loop keeps of one frame in flight, from its capture to its collect. */
struct jd_daemon_frame {
	uint64_t t_submit; /* when it was submitted */
	uint64_t ts;	   /* the pair's capture timestamp */
	double capture_ms; /* time spent getting the pair */
	double rectify_ms; /* rectifying it on the CPU (0: rectified cameras, or the GPU) */
	int truth;	   /* boot's ground-truth map of this slot holds its truth */
};

struct jd_daemon {
	struct jd_daemon_info info; /* what jd_daemon_info() says, set at boot */
	struct jd_engine engine;
	struct jd_capture cap;
	struct jd_match_params p;
	long long frame; /* the next frame to submit (64-bit: never wraps) */
	int inflight;	 /* submitted, not yet collected */
	struct jd_daemon_frame slot[JD_DAEMON_INFLIGHT]; /* frame k's: slot[k % INFLIGHT] */
	int camera_failed; /* the last step's error came from the cameras, not the matcher */
	int sensing;	   /* a camera model is known: objects are sensed */
	int no_truth;	   /* jd_daemon_opts.no_truth */
	/* where each result is made, asked once at boot (jd_engine_gpu_ask()) */
	int gpu_sense; /* sensing's per-pixel work runs on the GPU (jd_engine_gpu_sense) */
	int gpu_masks; /* the GPU masks the map by its confidence before it comes back */
	int gpu_conf;  /* the GPU makes the confidence */
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
	int rectify;		      /* raw frames: capture into raw[], rectify into dest[] */
	int gpu_rectify;	      /* ... on the GPU instead: capture raw into dest[] */
	/* where capture writes frame k, fixed at boot: dest[(first_dest + k) % ndest] */
	struct jd_engine_dest dest[JD_CUDA_SLOTS];
	int ndest, first_dest;
	struct jd_rectifier rect;
	struct jd_image raw[2];
	enum jd_pair_verdict pair_verdict; /* the last clear pair check's */
	uint8_t *conf;			   /* the last collected frame's confidence map */
	void *conf_ws;
	size_t conf_ws_bytes;
	int min_conf;		    /* the map keeps pixels at least this confident */
	struct jd_engine_frame got; /* what the collected frame has on the host */
	struct jd_tracker tracker;
	float calib_dy_px; /* the last clear pair check's vertical misalignment (NaN: none yet) */
	int calib_warned;  /* the recalibration warning was given (once) */
	uint64_t cpu_ns;   /* the process's CPU time when the last frame was collected */
	uint64_t stage_ns[JD_STAGES]; /* this step's CPU time by stage, so far */
	struct jd_track_info tracks[JD_SENSE_MAX_OBJECTS]; /* the last collected frame's */
};

#endif
