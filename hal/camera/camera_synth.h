/*
 * The synthetic stereo camera: algo/synth.c's tabletop scene (a tilted textured table, boxes
 * standing on it, drifting slowly) rendered already rectified, GREY, with its true disparity.
 * The embedded default: `jetdepth run` works on any machine, and tests know the answer.
 * Two jd_camera (left, right) share one rig; the left's dequeue renders the next frame into
 * one of two buffer sets, so a frame stays valid until both sides requeue it. Deterministic:
 * frame k is the same image on every run.
 */
#ifndef JD_HAL_CAMERA_SYNTH_H
#define JD_HAL_CAMERA_SYNTH_H

#include "../../algo/jd_image.h"
#include "../../algo/synth.h"
#include "camera.h"

extern const struct jd_camera_ops jd_camera_synth_ops;

/** Bytes jd_cam_synth_init() needs (rig state and two buffer sets). */
size_t jd_cam_synth_mem_required(int w, int h);

/**
 * Set up cam[0] (left) and cam[1] (right) on one rig in mem (boot). fps 0 renders as fast as
 * asked; otherwise dequeue waits for the frame's time. seed picks the scene (0: the classic
 * one, as `jetdepth synth` writes it). @retval 0 or -ENOMEM (mem too small)
 */
int jd_cam_synth_init(struct jd_camera cam[2], void *mem, size_t bytes, int w, int h, int ndisp,
		      double fps, uint32_t seed);

/** Render on these workers from now on (NULL: on the thread that dequeues). */
void jd_cam_synth_set_exec(struct jd_camera cam[2], const struct jd_exec *ex);

/**
 * Replay: after the first two frames, hand those two out again and again without rendering.
 * A camera that costs nothing to produce, so that the loop's CPU time is its own (bench
 * --pipeline). Timestamps and pacing go on as usual.
 */
void jd_cam_synth_set_replay(struct jd_camera cam[2], int on);

/**
 * Hand frames out as a camera would lay them out: GREY (the default), YUYV or UYVY (the luma
 * is the scene's; the chroma bytes vary), deep mono (the gray at the format's depth) or raw
 * Bayer (a mosaic of the scene under a colour cast). Before start.
 * @retval 0 or -EINVAL (MJPEG, or no layout)
 */
int jd_cam_synth_set_format(struct jd_camera cam[2], enum jd_pixfmt fmt);

/** The boxes in a dequeued frame, with their true disparity. @return how many */
int jd_cam_synth_objects(const struct jd_camera *c, const struct jd_cam_frame *f,
			 struct jd_synth_object out[JD_SYNTH_MAX_OBJECTS]);

/*
 * The synthetic rig as a rectified camera: focal length 0.8 w px (a 64 degree view), the
 * principal point in the centre, a 60 mm baseline. With it the scene's disparities become
 * millimetres (a 450x375 view with 64 disparities sees its table 0.4 to 1.4 m away).
 */
struct jd_camera_model;
void jd_cam_synth_model(int w, int h, struct jd_camera_model *out);

#endif
