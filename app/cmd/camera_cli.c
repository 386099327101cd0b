#include "camera_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char jd_camera_cli_help[] =
    "Camera controls (v4l2; both cameras, read back and printed at boot, in /status):\n"
    "  --exposure US  exposure time in microseconds (turns auto exposure off)\n"
    "  --gain N       the driver's gain units (jetdepth cameras lists the range)\n"
    "  --auto-exposure on|off\n"
    "  --auto-white-balance on|off  (off: no automatic colour processing)\n"
    "  --follow-exposure  the left camera runs auto exposure; its exposure and gain\n"
    "                 are copied to the right one every 8 pairs\n"
    "                 A control asked for that a driver lacks fails boot, naming it.\n"
    "  --record DIR   write the pairs the loop takes, as the cameras gave them, to\n"
    "                 DIR/left and DIR/right, which --camera files:DIR replays with\n"
    "                 the same output; an empty DIR; a full disk stops the recording\n"
    "  --record-max-mb N  its budget (default 2048)\n";

/* A whole number in [lo, hi]. @retval 0 or -EINVAL */
static int whole(const char *arg, long lo, long hi, int *out)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (!*arg || *end || v < lo || v > hi) {
		return -EINVAL;
	}
	*out = (int)v;
	return 0;
}

int jd_camera_cli_parse(const char *name, const char *arg, struct jd_capture_config *cam,
			const char *where)
{
	struct jd_cam_controls *ctl = &cam->cam.ctl;
	enum jd_cam_control k;
	int v;

	if (!strcmp(name, "record")) {
		cam->record_dir = arg; /* argv or the config file's line: lives through the run */
		return 0;
	}
	if (!strcmp(name, "record-max-mb")) {
		if (whole(arg, 1, 1000000, &v)) {
			fprintf(stderr, "jetdepth: %s--record-max-mb %s: 1 to 1000000\n", where, arg);
			return -EINVAL;
		}
		cam->record_max_mb = v;
		return 0;
	}

	if (!strcmp(name, "follow-exposure")) {
		ctl->follow = 1;
		return 0;
	}
	if (!strcmp(name, "exposure") || !strcmp(name, "gain")) {
		k = name[0] == 'e' ? JD_CTL_EXPOSURE : JD_CTL_GAIN;
		if (whole(arg, k == JD_CTL_EXPOSURE ? 1 : 0,
			  k == JD_CTL_EXPOSURE ? 10000000 : 1000000, &v)) {
			fprintf(stderr, "jetdepth: %s--%s %s: %s\n", where, name, arg,
				k == JD_CTL_EXPOSURE ? "microseconds, 1 to 10000000"
						     : "a whole number, 0 to 1000000");
			return -EINVAL;
		}
	} else {
		k = !strcmp(name, "auto-exposure") ? JD_CTL_AUTO_EXPOSURE : JD_CTL_AUTO_WB;
		if (strcmp(arg, "on") && strcmp(arg, "off")) {
			fprintf(stderr, "jetdepth: %s--%s %s: expected on or off\n", where, name,
				arg);
			return -EINVAL;
		}
		v = !strcmp(arg, "on");
	}
	ctl->set |= 1u << k;
	ctl->value[k] = v;
	return 0;
}
