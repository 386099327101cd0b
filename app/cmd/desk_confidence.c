#include "desk_confidence.h"

#include <errno.h>
#include <stdlib.h>

#include "../../algo/match/confidence.h"

int jd_desk_confidence(const struct jd_image *l, const struct jd_image *r, struct jd_disp *disp,
		       const struct jd_conf_search *search, int min, const struct jd_exec *ex,
		       uint8_t **conf)
{
	size_t bytes = jd_confidence_mem_required(l->width, l->height, jd_exec_workers(ex));
	void *ws = malloc(bytes);
	int rc = -ENOMEM;

	*conf = malloc((size_t)l->width * l->height);
	if (ws && *conf) {
		rc = jd_confidence_ref(l, r, disp, search, *conf, ws, bytes, ex);
	}
	free(ws);
	if (rc == 0 && min) {
		jd_confidence_mask(disp, *conf, min);
	}
	return rc;
}
