/* The camera-control and recording options of `jetdepth run` (hal/camera/capture.h's config). */
#ifndef JD_APP_CAMERA_CLI_H
#define JD_APP_CAMERA_CLI_H

#include <getopt.h>

#include "../../hal/camera/capture.h"

extern const char jd_camera_cli_help[];

/* How many options jd_camera_cli_options() appends (its caller sizes its table with it). */
#define JD_CAMERA_CLI_NOPTS 7

/**
 * Append --exposure US, --gain N, --auto-exposure on|off, --auto-white-balance on|off,
 * --follow-exposure, --record DIR, --record-max-mb N (ids base + k) to opts (room for max;
 * NULL-terminated).
 */
void jd_camera_cli_options(struct option *opts, int max, int base);

/**
 * Parse option k (arg NULL for the flag) into cam.
 * @retval 0, -EINVAL with the message printed (where: "FILE:LINE: " or "")
 */
int jd_camera_cli_parse(struct jd_capture_config *cam, int k, const char *arg, const char *where);

/** Option k's name ("exposure") when only a V4L2 camera takes it (a control), else NULL. */
const char *jd_camera_cli_v4l2_only(int k);

#endif
