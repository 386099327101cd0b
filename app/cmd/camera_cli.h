/* The camera-control options of `jetdepth run` (hal/camera.h's jd_cam_controls). */
#ifndef JD_APP_CAMERA_CLI_H
#define JD_APP_CAMERA_CLI_H

#include "../../hal/camera.h"

extern const char jd_camera_cli_help[];

/**
 * Parse one of --exposure US, --gain N, --auto-exposure on|off, --auto-white-balance on|off,
 * --follow-exposure (name without the dashes; arg NULL for the flag) into ctl.
 * @retval 0, -EINVAL with the message printed (where: "FILE:LINE: " or "")
 */
int jd_camera_cli_parse(const char *name, const char *arg, struct jd_cam_controls *ctl,
			const char *where);

#endif
