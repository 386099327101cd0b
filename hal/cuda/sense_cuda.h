/*
 * Sensing (algo/sense/sense.h) with its per-pixel work on the GPU: taken at boot beside the
 * confidence stage (hal/cuda/confidence_cuda.h). Each frame's finish masks the map by its
 * confidence into the stage's copy for that slot (jd_confidence_mask() on the device); once
 * the frame is collected, jd_cuda_sense_run() scores the plane hypotheses, sums the rows,
 * masks, opens, closes and labels the objects and gathers each object's figures on the GPU,
 * and decides on the host with the reference's own functions: the result is jd_sense_run()'s
 * on the host's masked map (tests/gpu). Only small figures come back (the hypotheses'
 * candidates, scores, row sums, blobs, the objects' records); in mapped mode the kernels
 * write them into pinned memory.
 */
#ifndef JD_HAL_CUDA_SENSE_H
#define JD_HAL_CUDA_SENSE_H

#include "../../algo/jd_exec.h"
#include "../../algo/sense/sense.h"
#include "../../algo/sense/sense_planner.h"
#include "cuda.h"
#include "frame_cuda.h"

/*
 * The plane hypotheses' candidates the stage gathers (jd_sense_hypotheses_by(): 64 for each
 * of 256 iterations, so the default 200 never run out; more, and a frame whose draw runs out
 * is sensed on the host), and how many come back before the draw asks for the rest.
 */
#define JD_CUDA_SENSE_CANDIDATES (JD_SENSE_TRIES * 256)
#define JD_CUDA_SENSE_FIRST 4096

struct jd_cuda_sense {
	jd_cufunction mask_conf, score, rows, objpx, morph, ccl_init, ccl_merge, ccl_final, blobs,
	    count, measure, axes, candidates, grow, ccl_stats;
	jd_cudeviceptr d_disp[JD_CUDA_SLOTS]; /* each slot's map, masked by its confidence */
	/* parent, stats: the labelling's, then the objects' pixels and their values */
	jd_cudeviceptr d_m0, d_m1, d_weak, d_parent, d_stats, d_count, d_label, d_label2;
	/* what crosses: device buffers copied (copy), or the pinned ones' views */
	jd_cudeviceptr d_planes, d_scores, d_rows, d_blobs, d_nblobs, d_objs, d_ax, d_recs;
	void *ev_done;
	double *h_planes;
	long long *h_scores;
	double *h_rows;
	int32_t *h_blobs, *h_nblobs, *h_objs;
	double *h_ax;
	struct jd_sense_obj_rec *h_recs;
	jd_cudeviceptr d_draws, d_cand; /* the seed's stream; each candidate's value */
	uint32_t *h_draws, draws_seed;	/* draws_seed: the seed h_draws holds (0: none) */
	float *h_cand;
	float *h_map;	       /* pinned: the masked map, for frames finished on the host */
	unsigned long on_host; /* frames the reference finished on the host (counted) */
	long max_blobs;
	int w, h;
	int min_conf; /* the map keeps pixels with at least this confidence (0: all) */
	int mask_map; /* the frame's map itself comes back masked (the host need not mask it) */
	int on;	      /* the daemon senses with it: finish masks each frame's map */
	int last;     /* the slot of the last collected frame (-1: none) */
	int taken;
};

/**
 * Take the stage's buffers (boot only, after jd_cuda_conf_take(): it reads the confidence).
 * @retval 0, -ENOMEM, -EPERM (sealed), -ENOENT (no kernel), -EINVAL (no confidence stage)
 */
int jd_cuda_sense_take(struct jd_cuda *cu, struct jd_cuda_frame *f, struct jd_cuda_sense *s);

/*
 * From now on each frame's map is masked by min_conf for sensing (after boot), and with
 * mask_map the map collected is the masked one too (jd_confidence_mask() done on the GPU).
 */
void jd_cuda_sense_start(struct jd_cuda_sense *s, int min_conf, int mask_map);

/* Queue the masked copy of the frame being finished (jd_cuda_frame_finish(), stream 0). */
int jd__cuda_sense_queue(struct jd_cuda *cu, struct jd_cuda_frame *f, jd_cudeviceptr map);

/**
 * jd_sense_run() for the frame jd_cuda_frame_collect() returned last, on the GPU, from that
 * frame's map masked as the stage masked it (the host's copy of the map is not read: it need
 * not come back). ws: the reference's workspace (jd_sense_mem_required()). Where the blobs
 * outnumber the stage's list, or the hypotheses' draw its candidates, the masked map comes
 * back and the reference runs on it with ex (s->on_host counts those frames).
 * Waits for its kernels (stream 2). @retval 0, -EINVAL, -ENOMEM, -EIO, -ENOENT (no frame)
 */
int jd_cuda_sense_run(struct jd_cuda *cu, struct jd_cuda_sense *s, const struct jd_sense_params *sp,
		      const struct jd_camera_model *cam, void *ws, size_t ws_bytes,
		      struct jd_sense_result *out, const struct jd_exec *ex);

#endif
