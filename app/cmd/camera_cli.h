/* The camera-control and recording options of `jetdepth run` (hal/capture.h's config). */
#ifndef JD_APP_CAMERA_CLI_H
#define JD_APP_CAMERA_CLI_H

#include "../../hal/capture.h"

extern const char jd_camera_cli_help[];

/**
 * Parse one of --exposure US, --gain N, --auto-exposure on|off, --auto-white-balance on|off,
 * --follow-exposure, --record DIR, --record-max-mb N (name without the dashes; arg NULL for
 * the flag) into cam.
 * @retval 0, -EINVAL with the message printed (where: "FILE:LINE: " or "")
 */
int jd_camera_cli_parse(const char *name, const char *arg, struct jd_capture_config *cam,
			const char *where);

#endif
