/*
 * A synthetic stereo scene with known disparity: a tilted, textured table and boxes standing
 * on it. It is the embedded default input (no camera, no data files) and a test fixture.
 */
#ifndef JD_ALGO_SYNTH_H
#define JD_ALGO_SYNTH_H

#include "jd_image.h"

/**
 * Render frame number @p frame (boxes drift slowly between frames) for a disparity range of
 * ndisp. gt may be NULL; it receives the left view's true disparity.
 */
void jd_synth_render(int frame, int ndisp, struct jd_image *left, struct jd_image *right,
		     struct jd_disp *gt);

#endif
