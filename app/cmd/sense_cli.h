/* The 3D-sensing options `jetdepth sense` and `jetdepth run` share (camera model, ROI, thresholds).
 */
#ifndef JD_APP_SENSE_CLI_H
#define JD_APP_SENSE_CLI_H

#include <getopt.h>

#include "../../algo/match/confidence.h"
#include "../../algo/sense/sense.h"
#include "../loop/sense_options.h"

extern const char jd_sense_cli_help[];

void jd_sense_cli_init(struct jd_sense_options *s);
/* How many options jd_sense_cli_options() appends (its caller sizes its table with it). */
#define JD_SENSE_CLI_NOPTS 12

/** Append the options (ids base + k) to opts (room for max; NULL-terminated). */
void jd_sense_cli_options(struct option *opts, int max, int base);
/** Parse option k. @retval 0, or -EINVAL with the message printed */
int jd_sense_cli_parse(struct jd_sense_options *s, int k, const char *arg);
/**
 * A camera model given on the command line (--focal, --baseline, --cx, --cy) is for
 * rectified frames without a calibration: with one (what rectifies the frames also gives the
 * model) or with the synthetic camera (its own rig) it would be a second, different model.
 * what: "--calib" or "the synthetic camera" (NULL: nothing to clash with).
 * @retval 0, or -EINVAL after saying which option clashes with what
 */
int jd_sense_cli_model_alone(const struct jd_sense_options *s, const char *what);

/** After parsing: a camera model is complete. @retval 0 or -EINVAL (printed) */
int jd_sense_cli_check(const struct jd_sense_options *s);
/** The ROI fits a w x h image. @retval 0 or -EINVAL (printed) */
int jd_sense_cli_fits(const struct jd_sense_options *s, int w, int h);

#endif
