/*
 * What the daemon is told about sensing: the camera model, the thresholds and the placement
 * of the cameras on the robot. A plain struct, so that the loop takes its choices without
 * knowing the command line (app/cmd/sense_cli.h parses the options into it).
 */
#ifndef JD_APP_LOOP_SENSE_OPTIONS_H
#define JD_APP_LOOP_SENSE_OPTIONS_H

#include "../../algo/sense/sense.h"

struct jd_sense_options {
	struct jd_sense_params sp;
	struct jd_camera_model cam; /* cx, cy NaN: the image centre */
	int have_focal, have_baseline;
	int min_confidence; /* pixels below this confidence are not used (algo/match/confidence.h)
			     */
	int have_extrinsics;
	double base_from_camera[16]; /* app/formats/extrinsics.h: 4x4, mm */
};

#endif
