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

/* The options, in the order of their ids; the first four are jd_cam_control's. */
enum { C_RECORD = JD_CTL_COUNT, C_RECORD_MAX_MB, C_FOLLOW, C_N };
static const struct option table[C_N] = {
    [JD_CTL_EXPOSURE] = {"exposure", required_argument, NULL, 0},
    [JD_CTL_GAIN] = {"gain", required_argument, NULL, 0},
    [JD_CTL_AUTO_EXPOSURE] = {"auto-exposure", required_argument, NULL, 0},
    [JD_CTL_AUTO_WB] = {"auto-white-balance", required_argument, NULL, 0},
    [C_RECORD] = {"record", required_argument, NULL, 0},
    [C_RECORD_MAX_MB] = {"record-max-mb", required_argument, NULL, 0},
    [C_FOLLOW] = {"follow-exposure", no_argument, NULL, 0},
};
_Static_assert(C_N == JD_CAMERA_CLI_NOPTS, "callers size their option tables with it");

const char *jd_camera_cli_v4l2_only(int k)
{
	return (k >= 0 && k < JD_CTL_COUNT) || k == C_FOLLOW ? table[k].name : NULL;
}

void jd_camera_cli_options(struct option *opts, int max, int base)
{
	int n = 0;

	for (int k = 0; k < C_N && n < max - 1; k++) {
		opts[n] = table[k];
		opts[n++].val = base + k;
	}
	opts[n] = (struct option){0};
}

int jd_camera_cli_parse(struct jd_capture_config *cam, int k, const char *arg, const char *where)
{
	struct jd_cam_controls *ctl = &cam->cam.ctl;
	const char *name = (unsigned)k < C_N ? table[k].name : "?";
	int v;

	if (k == C_RECORD) {
		/* copied: a config file's line is gone once the file is read */
		if (!arg[0] || strlen(arg) >= sizeof(cam->record_dir)) {
			fprintf(stderr, "jetdepth: %s--record: %zu characters: 1 to %zu\n", where,
				strlen(arg), sizeof(cam->record_dir) - 1);
			return -EINVAL;
		}
		memcpy(cam->record_dir, arg, strlen(arg) + 1);
		return 0;
	}
	if (k == C_RECORD_MAX_MB) {
		if (whole(arg, 1, 1000000, &v)) {
			fprintf(stderr, "jetdepth: %s--record-max-mb %s: 1 to 1000000\n", where,
				arg);
			return -EINVAL;
		}
		cam->record_max_mb = v;
		return 0;
	}
	if (k == C_FOLLOW) {
		ctl->follow = 1;
		return 0;
	}
	if (k == JD_CTL_EXPOSURE || k == JD_CTL_GAIN) {
		if (whole(arg, k == JD_CTL_EXPOSURE ? 1 : 0,
			  k == JD_CTL_EXPOSURE ? 10000000 : 1000000, &v)) {
			fprintf(stderr, "jetdepth: %s--%s %s: %s\n", where, name, arg,
				k == JD_CTL_EXPOSURE ? "microseconds, 1 to 10000000"
						     : "a whole number, 0 to 1000000");
			return -EINVAL;
		}
	} else {
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
