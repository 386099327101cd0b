/*
 * A synthetic stereo scene with known disparity: a tilted, textured table and boxes standing
 * on it. It is the embedded default input (no camera, no data files) and a test fixture.
 */
#ifndef JD_ALGO_SYNTH_H
#define JD_ALGO_SYNTH_H

#include <stdint.h>

#include "jd_exec.h"
#include "jd_image.h"

/**
 * Render frame number @p frame (boxes drift slowly between frames) for a disparity range of
 * ndisp. gt may be NULL; it receives the left view's true disparity.
 */
void jd_synth_render(int frame, int ndisp, struct jd_image *left, struct jd_image *right,
		     struct jd_disp *gt);

/** The same for another scene: seed 0 is jd_synth_render()'s; each seed its own layout. */
void jd_synth_render_seeded(uint32_t seed, int frame, int ndisp, struct jd_image *left,
			    struct jd_image *right, struct jd_disp *gt);

/** The same spread over the workers' rows (ex NULL: serially); identical bytes. */
void jd_synth_render_par(uint32_t seed, int frame, int ndisp, struct jd_image *left,
			 struct jd_image *right, struct jd_disp *gt, const struct jd_exec *ex);

#define JD_SYNTH_MAX_OBJECTS 8

/* A box standing on the table, as the left view sees it. */
struct jd_synth_object {
	float x0, y0, x1, y1; /* left-image pixels, right/bottom exclusive, clipped to the frame */
	float disparity;      /* its front face's (constant) disparity */
};

/** The boxes of a frame (the truth for 3D-sensing tests). @return how many */
int jd_synth_objects(uint32_t seed, int frame, int w, int h, int ndisp,
		     struct jd_synth_object out[JD_SYNTH_MAX_OBJECTS]);

#endif
