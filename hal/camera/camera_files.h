/*
 * The files camera: replays the images in DIR/left and DIR/right (sorted by name, paired by
 * position, the same names on both sides) as a stereo camera, at a configured rate, once or
 * looping. PGM (P5) frames are handed out as GREY, PNG decoded to GREY, and JPEG handed out as
 * MJPEG so that it goes through the same decode path as a camera's MJPEG stream. A recording's
 * frames (`run --record`: NAME.WxH.FORMAT.raw, a camera's bytes, rows packed) are handed out
 * in their format, so that a replay takes their luma by the live rules. The file list is
 * read at boot; a frame is read with open/read into one of the camera's two boot buffers.
 */
#ifndef JD_HAL_CAMERA_FILES_H
#define JD_HAL_CAMERA_FILES_H

#include "camera.h"

extern const struct jd_camera_ops jd_camera_files_ops;

#define JD_FILES_NAME_MAX 128

/**
 * Boot memory for one side at this frame size with room for this many image names (names,
 * two file buffers, two decode buffers).
 */
size_t jd_cam_files_mem_required(int w, int h, int names);

/* What a files camera replays, and how. */
struct jd_cam_files_config {
	char dir[256];	   /* DIR/left and DIR/right hold the views (with one: DIR itself) */
	int width, height; /* a frame's, both views when one holds both */
	double fps;	   /* 0: as fast as asked */
	int loop;	   /* start again after the last pair */
	int one;	   /* one directory of images with both views (the capture splits them) */
	int names;	   /* room for this many images a side (jd_cam_files_count() at boot) */
};

/**
 * Boot: the images in the larger side's directory (DIR/left, DIR/right, or DIR with one),
 * at least 1: the names' room is sized from it, so a recording of any length replays.
 */
int jd_cam_files_count(const struct jd_cam_files_config *cfg);

/**
 * Set up cam[0] (DIR/left) and cam[1] (DIR/right) in mem (two jd_cam_files_mem_required()),
 * or with one, cam[0] alone reading DIR.
 * @retval 0, -ENOENT (no such directory or no images: err says which), -EINVAL (the sides'
 *         names differ, or too many), -ENOMEM (mem too small)
 */
int jd_cam_files_init(struct jd_camera cam[2], void *mem, size_t bytes,
		      const struct jd_cam_files_config *cfg, char *err, size_t errlen);

/** A recording's frame name, NAME.WxH.FORMAT.raw: its size and format. @retval 0 or -EINVAL */
int jd_cam_files_raw_name(const char *name, int *w, int *h, enum jd_pixfmt *fmt);

/**
 * Boot: the size of the first image (by name) in a side's directory (DIR/left, or DIR for
 * one), for a run whose size was not given. path receives that image's name.
 * @retval 0, or -errno with err set
 */
int jd_cam_files_first_size(const char *side, int *w, int *h, char *path, size_t pathlen, char *err,
			    size_t errlen);

#endif
