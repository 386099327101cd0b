/*
 * Stereo calibrations in the formats robot people have (parsed with libyaml, checked: sizes,
 * finite numbers, positive focal lengths, a baseline, the stated unit and image size, keys
 * misspelt or given twice; errors name file, line and key):
 *  - two ROS camera_info YAML files, left then right (what `camera_calibration` writes: K, D
 *    plumb_bob, rational_polynomial or equidistant, R, P);
 *  - OpenCV's stereo calibration (FileStorage YAML, `%YAML:1.0`, or XML): M1 D1 M2 D2 R T,
 *    with R1 R2 P1 P2 when present (else computed: algo/geometry/calib.h), 4 to 14 coefficients, in
 *    one file or in two (intrinsics: M1 D1 M2 D2; extrinsics: R T R1 R2 P1 P2);
 *  - Kalibr's camchain.yaml: cam0 and cam1, pinhole, radtan or equidistant, metres.
 * Which one is told by the keys: camera_matrix (ROS), cam0 (Kalibr), else OpenCV.
 */
#ifndef JD_APP_CALIB_YAML_H
#define JD_APP_CALIB_YAML_H

#include <stddef.h>

#include "../../algo/geometry/calib.h"

/** @retval 0, -ENOENT (a file cannot be read), -EINVAL (err: file:line: key: reason) */
int jd_calib_load(const char *const *files, int nfiles, struct jd_stereo_calib *c, char *err,
		  size_t errlen);

/**
 * What parsing cannot see (app/formats/calib_check.c): both cameras one size, rotations that are
 * rotations, positive rectified focal lengths, principal points inside the image, the
 * right camera to the right (Tx < 0; a swapped pair of files is named as such), a baseline
 * from 1 mm to 10 m. jd_calib_load() calls it. @retval 0 or -EINVAL with err set
 */
int jd_calib_validate(const struct jd_stereo_calib *c, const char *const *files, int nfiles,
		      char *err, size_t errlen);

/**
 * The calibration fits w x h frames: the size it was made for, or, when the files do not
 * say, principal points inside the frames. @retval 0 or -EINVAL with err set
 */
int jd_calib_fits(const struct jd_stereo_calib *c, const char *const *files, int nfiles, int w,
		  int h, char *err, size_t errlen);

#endif
