/*
 * Dumps on request (SIGUSR1 to `jetdepth run --dump-dir DIR`): the current disparity as PFM
 * and as a 16-bit PNG (disparity * 256, app/formats/png_u16.h), its confidence as an 8-bit PNG, and
 * with a camera model the depth in mm as PFM and the point cloud as binary PLY (x, y, z in
 * mm in the rectified left camera's frame, the left view's grey as colour). The disparity
 * is the one the loop uses: pixels below --min-confidence are already invalid. Written with
 * hal/out_file.h from boot memory (no allocation in the loop). A dump is a set: every file
 * goes to a temporary name first, and only when all of them are complete are they renamed
 * into place, one after the other. A full disk leaves the previous dump's files, all of one
 * frame, and an error: never half a file, never files of two frames. (Renames within one
 * folder need no space; one refused, which takes a failing file system, stops the rest.)
 */
#ifndef JD_APP_DUMP_H
#define JD_APP_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "../../algo/jd_image.h"
#include "../../algo/geometry/camera_model.h"

/* the longest dump folder: its files' names fit after it */
#define JD_DUMP_DIR_MAX 511
/* disparity, its PNG, confidence, depth and cloud */
#define JD_DUMP_FILES_MAX 5

/**
 * Boot's check of --dump-dir: it exists, is a directory, is writable and its name fits.
 * @retval 0 usable, else -errno with err naming the option, the folder and why
 */
int jd_dump_dir_check(const char *dir, char *err, size_t errlen);

/** Scratch the dumps need for w x h frames (the depth map). */
size_t jd_dump_mem_required(int w, int h);

/**
 * Write DIR/disparity.pfm, DIR/disparity_u16.png, with conf DIR/confidence.png, and with cam
 * DIR/depth_mm.pfm and DIR/cloud.ply.
 * @return the number of files written, or -errno (err names the file and why)
 */
int jd_dump_frame(const char *dir, const struct jd_disp *disp, const uint8_t *conf,
		  const struct jd_image *left, const struct jd_camera_model *cam, float *scratch,
		  char *err, size_t errlen);

#endif
