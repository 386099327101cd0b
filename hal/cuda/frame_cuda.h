/*
 * The staging every GPU matcher shares, double-buffered so that frames pipeline: the pair is
 * packed into one of two pinned slots and uploaded on stream 1 while stream 0 may still run
 * the previous frame's kernels; stream 0 waits for that upload, runs this frame's kernels,
 * downloads the map into the slot and records an event. Collect waits for the oldest frame
 * in flight and copies its map out. At most two frames are in flight; the matchers' own
 * buffers are used by one frame at a time because stream 0 runs kernels in order. In mapped
 * mode (cu->mapped, hal/cuda/cuda.h) nothing is uploaded or downloaded: the slot's device
 * pointers are the device's view of its pinned buffers, so the kernels read the pair and
 * write the map where the host packs and reads them.
 * Everything (buffers and events) is taken at boot.
 */
#ifndef JD_HAL_CUDA_FRAME_H
#define JD_HAL_CUDA_FRAME_H

#include "../../algo/jd_image.h"
#include "../../algo/match/jd_params.h"
#include "../camera/pixfmt.h"
#include "cuda.h"

#define JD_CUDA_SLOTS 2

/*
 * What a frame brings back to the host in copy mode: its map, its rectified pair (where the
 * device rectified it; a pair packed on the host is there anyway) and its confidence. Each
 * costs the bus a frame's worth, so the loop asks only for what its outputs read
 * (jd_cuda_frame_bring_back()); in mapped mode everything is where the host reads it.
 */
enum { JD_CUDA_BACK_MAP = 1, JD_CUDA_BACK_PAIR = 2, JD_CUDA_BACK_CONF = 4, JD_CUDA_BACK_ALL = 7 };

struct jd_cuda_slot {
	jd_cudeviceptr d_left, d_right; /* w * h bytes each (mapped: h_left, h_right) */
	void *h_left, *h_right;		/* pinned: the gray pair sent, or where the device rectifies
					   (remap below) the rectified pair it brings back */
	float *h_out;			/* pinned, w * h */
	jd_cudeviceptr d_map;		/* mapped: h_out's device view, the map kernels write */
	void *ev_in, *ev_start, *ev_end, *ev_out;
	unsigned back; /* JD_CUDA_BACK_* bits this slot's frame has on the host */
};

/*
 * Rectification on the device (hal/cuda/rectify_cuda.h), when taken and loaded: the raw pair
 * goes to the device as the camera gave it (GREY, YUYV or UYVY, rows packed) and one kernel takes
 * its luma and remaps it into the slot's d_left/d_right before the matcher's kernels; the
 * rectified pair comes back into the slot's h_left/h_right with the map (the preview, the
 * dumps, the pair check and the confidence map use it). A camera writes the raw pair into
 * h_raw itself (jd_cuda_frame_raw_next()), else upload packs the given gray pair there.
 */
struct jd_cuda_remap {
	jd_cufunction fn;
	jd_cufunction luma_fn;		 /* deep mono and raw Bayer to luma, before the remap */
	jd_cudeviceptr d_luma[2];	 /* their luma, w * h each, which the remap reads as GREY */
	jd_cudeviceptr d_sx[2], d_sy[2]; /* per camera, w * h positions in 1/32 px */
	unsigned char *h_raw[JD_CUDA_SLOTS][2]; /* pinned: the raw pair, 2 * w * h bytes each */
	jd_cudeviceptr d_raw[JD_CUDA_SLOTS][2]; /* its device copy (mapped: its view) */
	enum jd_pixfmt fmt[JD_CUDA_SLOTS][2];	/* h_raw's layouts */
	int staged[JD_CUDA_SLOTS];		/* a camera wrote the slot's raw pair */
	int taken, loaded;
	struct jd_image *left_out, *right_out; /* collect copies the pair here (NULL: not) */
};

/*
 * The rank prefilter (algo/match/prefilter.h) on the device, when taken: after the upload (and the
 * remap) both images go through it into d_out[], which the matcher's kernels then read. One
 * pair serves both slots: stream 0 runs one frame's kernels after the other's.
 */
struct jd_cuda_rank {
	jd_cufunction fn;
	jd_cudeviceptr d_out[2];
	int window; /* 0: not taken, the matcher reads the slot's pair */
};

/*
 * The confidence map on the device (hal/cuda/confidence_cuda.h), when taken: after the map's
 * kernels it is computed from the map and the slot's rectified 8-bit pair and comes back
 * with the map (mapped: written into the slot's pinned buffer).
 */
struct jd_cuda_conf {
	jd_cufunction census, support, conf;
	jd_cudeviceptr d_cl, d_cr;	      /* the census codes of the pair, w * h each */
	jd_cudeviceptr d_sup, d_reach;	      /* each pixel's support (bytes), the rows' reach */
	jd_cudeviceptr d_conf;		      /* copy mode: where the kernel writes */
	unsigned char *h_conf[JD_CUDA_SLOTS]; /* pinned: each slot's map */
	const unsigned char *last;	      /* the last collected frame's (NULL: none) */
	int min_disp,
	    ndisp; /* the matcher's search (algo/match/confidence.h: a search cut short) */
	int taken;
};

/*
 * The preview's picture on the device (hal/cuda/preview_cuda.h), when taken: asked for once
 * (want), the next frame finished gets one, composed after sensing from the map, the
 * confidence and the slot's rectified left, and brought back into one pinned picture; at
 * most one frame in flight has it.
 */
struct jd_cuda_picture {
	jd_cufunction fn;
	jd_cudeviceptr d_rgb; /* copy mode: where the kernel writes (mapped: h_rgb's view) */
	unsigned char *h_rgb; /* pinned: 2pw x ph RGB, 6pw bytes a row */
	int step, pw, ph;     /* the frame's pixels a picture pixel steps over; the view's size */
	int slot;	      /* the slot whose frame has it (-1: none in flight) */
	int want;	      /* compose for the next frame finished */
	int min_conf;	      /* below it: distrusted (algo/preview_compose.h) */
	float dmax;
	int taken;
};

struct jd_cuda_sense; /* hal/cuda/sense_cuda.h */
struct jd_cuda_cloud; /* hal/cuda/cloud_cuda.h */

struct jd_cuda_frame {
	int w, h;
	struct jd_cuda_remap remap;
	struct jd_cuda_rank rank;
	struct jd_cuda_conf conf;
	struct jd_cuda_picture picture;
	struct jd_cuda_sense *sense; /* sensing on the GPU, when taken (NULL: not) */
	struct jd_cuda_cloud *cloud; /* depth and the cloud, when taken (NULL: not) */
	jd_cudeviceptr d_out; /* w * h floats, the map kernels write (mapped: the slot's d_map) */
	struct jd_cuda_slot slot[JD_CUDA_SLOTS];
	int cur; /* the slot the kernels being queued read */
	int oldest, inflight;
	/*
	 * Lend instead of copy: collect points the output map at the slot's pinned map and
	 * leaves the rectified pair in the slot (jd_cuda_frame_rectified()). They stay as they
	 * are until the next frame is submitted into that slot: the caller reads them before.
	 */
	int lend;
	int last;      /* the last collected slot (-1: none) */
	unsigned back; /* JD_CUDA_BACK_* bits frames submitted from now on bring back (all) */
};

/** Take buffers and events (boot only). @retval 0, -ENOMEM, -EPERM (sealed) */
int jd_cuda_frame_take(struct jd_cuda *cu, struct jd_cuda_frame *f, int w, int h);

/**
 * Take the rank prefilter's buffers when p's matcher ranks its 8-bit pair (boot only, after
 * jd_cuda_frame_take()). @retval 0, -ENOMEM, -EPERM (sealed)
 */
int jd_cuda_frame_rank_take(struct jd_cuda *cu, struct jd_cuda_frame *f,
			    const struct jd_match_params *p);

/**
 * Does the frame rank as p asks (the prefilter cannot change after boot)?
 * @retval 0 or -EINVAL with cu->err naming the options
 */
int jd_cuda_frame_rank_check(struct jd_cuda *cu, const struct jd_cuda_frame *f,
			     const struct jd_match_params *p);

/** Upload the staged slot (stream 1), make stream 0 wait for it, start the kernel clock. */
int jd_cuda_frame_send(struct jd_cuda *cu, struct jd_cuda_frame *f);

/**
 * Stage the 8-bit pair (packed, no row padding) and send it; a pair already in the slot
 * (captured there through jd_cuda_frame_next()) is not copied. @retval 0, -EIO or -EBUSY
 */
int jd_cuda_frame_upload(struct jd_cuda *cu, struct jd_cuda_frame *f, const struct jd_image *left,
			 const struct jd_image *right);

/** The device copy of the frame being queued. */
static inline const struct jd_cuda_slot *jd_cuda_frame_in(const struct jd_cuda_frame *f)
{
	return &f->slot[f->cur];
}

/** The pair the matcher's kernels read for the frame being queued: ranked, or the slot's. */
static inline void jd_cuda_frame_pair(const struct jd_cuda_frame *f, jd_cudeviceptr *left,
				      jd_cudeviceptr *right)
{
	*left = f->rank.window ? f->rank.d_out[0] : f->slot[f->cur].d_left;
	*right = f->rank.window ? f->rank.d_out[1] : f->slot[f->cur].d_right;
}

/**
 * Stop the kernel clock, queue the stages after the matcher (hal/cuda/stages_cuda.h: the
 * confidence, sensing's mask, the preview, the cloud), the download of map (w * h floats on the
 * device) into the slot and what the stages bring back; returns without waiting.
 * @retval 0 or -EIO
 */
int jd_cuda_frame_finish(struct jd_cuda *cu, struct jd_cuda_frame *f, jd_cudeviceptr map);

/**
 * Wait for the oldest frame in flight, record its kernel time in cu->last_kernel_ms and copy
 * its map into out (f->lend: point out at it). A frame that did not bring its map back leaves
 * out as it was (f->lend: out->data NULL). @retval 0, -EIO, or -ENOENT (nothing in flight)
 */
int jd_cuda_frame_collect(struct jd_cuda *cu, struct jd_cuda_frame *f, struct jd_disp *out);

/** What frames submitted from now on bring back to the host (JD_CUDA_BACK_* bits). */
static inline void jd_cuda_frame_bring_back(struct jd_cuda_frame *f, unsigned what)
{
	f->back = what;
}

/** What the last collected frame has on the host (JD_CUDA_BACK_* bits; 0: none collected). */
static inline unsigned jd_cuda_frame_on_host(const struct jd_cuda_frame *f)
{
	return f->last >= 0 ? f->slot[f->last].back : 0;
}

/** The index of the slot the next frame is staged into (one rule for the calls below). */
static inline int jd_cuda_frame_next_index(const struct jd_cuda_frame *f)
{
	return (f->oldest + f->inflight) % JD_CUDA_SLOTS;
}

/**
 * The slot the next frame will be staged into (its pinned h_left and h_right, w bytes a row,
 * free until then: a camera can write the pair there), NULL when two frames are in flight.
 */
static inline struct jd_cuda_slot *jd_cuda_frame_next(struct jd_cuda_frame *f)
{
	return f->inflight < JD_CUDA_SLOTS ? &f->slot[jd_cuda_frame_next_index(f)] : NULL;
}

/**
 * The next slot's raw buffer for camera k (0 left, 1 right; pinned, JD_CUDA_RAW_BPP * w * h
 * bytes): a camera may write its frame there as it comes, then say so with
 * jd_cuda_frame_raw_staged(). NULL: the device does not rectify, or two frames are in flight.
 */
#define JD_CUDA_RAW_BPP 2 /* the most jd_pixfmt_pixel_bytes() of a camera layout */
static inline unsigned char *jd_cuda_frame_raw_next(const struct jd_cuda_frame *f, int k)
{
	if (!f->remap.loaded || f->inflight >= JD_CUDA_SLOTS) {
		return NULL;
	}
	return f->remap.h_raw[jd_cuda_frame_next_index(f)][k];
}

/** Can the device take a view in this layout raw (2 bytes a pixel at most: all but MJPEG)? */
static inline int jd_cuda_frame_takes_raw(enum jd_pixfmt fmt)
{
	return (unsigned)fmt < JD_PIX_COUNT && fmt != JD_PIX_MJPEG;
}

/**
 * The raw pair in the next slot is the frame to submit, in these layouts (any camera layout
 * but MJPEG, rows packed): upload sends it as it is, and the device takes the luma (deep mono
 * and raw Bayer in a step of its own). @retval 0 or -EINVAL (no raw slot, MJPEG)
 */
int jd_cuda_frame_raw_staged(struct jd_cuda_frame *f, const enum jd_pixfmt fmt[2]);

/**
 * The last collected frame's rectified 8-bit image k (0 left, 1 right) where the frame lends
 * it (w bytes a row): the pair the GPU rectified, or the pair as packed into the slot.
 * NULL: not lent, or not brought back.
 */
static inline unsigned char *jd_cuda_frame_rectified(const struct jd_cuda_frame *f, int k)
{
	if (!f->lend || !(jd_cuda_frame_on_host(f) & JD_CUDA_BACK_PAIR)) {
		return NULL;
	}
	return k ? f->slot[f->last].h_right : f->slot[f->last].h_left;
}

#endif
