/* The confidence map for the desk commands (match, sense): one call, its own memory. */
#ifndef JD_APP_DESK_CONFIDENCE_H
#define JD_APP_DESK_CONFIDENCE_H

#include <stdint.h>

#include "../../algo/match/confidence.h"
#include "../../algo/jd_exec.h"
#include "../../algo/jd_image.h"

/**
 * The confidence of disp (matched from l and r by search) into a new malloc'ed buffer (*conf, width
 * bytes a row; the caller frees it), then disp's pixels below min made invalid (min 0: none).
 * @retval 0, -ENOMEM, -EINVAL (sizes differ)
 */
int jd_desk_confidence(const struct jd_image *l, const struct jd_image *r, struct jd_disp *disp,
		       const struct jd_conf_search *search, int min, const struct jd_exec *ex,
		       uint8_t **conf);

#endif
