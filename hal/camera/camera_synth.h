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

#include "../../algo/geometry/camera_model.h"
#include "../../algo/jd_image.h"
#include "../../algo/synth.h"
#include "camera.h"

extern const struct jd_camera_ops jd_camera_synth_ops;

/** Bytes jd_cam_synth_init() needs (rig state and two buffer sets). */
size_t jd_cam_synth_mem_required(int w, int h);

/* What a synthetic pair is: a view's size and rate, and the scene. */
struct jd_cam_synth_config {
	int width, height;
	double fps;    /* 0 renders as fast as asked; else dequeue waits for the frame's time */
	int ndisp;     /* the scene's disparity range */
	uint32_t seed; /* which scene (0: the classic one, as `jetdepth synth` writes it) */
	/*
	 * How a camera would lay the frames out: GREY (0, the default), YUYV or UYVY (the luma
	 * is the scene's; the chroma bytes vary), deep mono (the gray at the format's depth) or
	 * raw Bayer (a mosaic of the scene under a colour cast); any but MJPEG.
	 */
	enum jd_pixfmt fmt;
	const struct jd_exec *exec; /* render on these workers (NULL: the dequeuing thread) */
	/*
	 * Replay: after the first two frames, hand those two out again and again without
	 * rendering. A camera that costs nothing to produce, so that the loop's CPU time is its
	 * own (bench --pipeline). Timestamps and pacing go on as usual.
	 */
	int replay;
};

/**
 * Set up cam[0] (left) and cam[1] (right) on one rig in mem (boot).
 * @retval 0, -ENOMEM (mem too small) or -EINVAL (a layout it cannot give), err set
 */
int jd_cam_synth_init(struct jd_camera cam[2], void *mem, size_t bytes,
		      const struct jd_cam_synth_config *cfg, char *err, size_t errlen);

/** The boxes in a dequeued frame, with their true disparity. @return how many */
int jd_cam_synth_objects(const struct jd_camera *c, const struct jd_cam_frame *f,
			 struct jd_synth_object out[JD_SYNTH_MAX_OBJECTS]);

/*
 * The synthetic rig as a rectified camera: focal length 0.8 w px (a 64 degree view), the
 * principal point in the centre, a 60 mm baseline. With it the scene's disparities become
 * millimetres (a 450x375 view with 64 disparities sees its table 0.4 to 1.4 m away).
 */
void jd_cam_synth_model(int w, int h, struct jd_camera_model *out);

#endif
