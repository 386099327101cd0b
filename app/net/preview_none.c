/* The preview for builds without libmicrohttpd: --preview says so and boot stops. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "preview.h"

size_t jd_preview_mem_required(int w, int h)
{
	(void)w;
	(void)h;
	return 0;
}

int jd_preview_start(struct jd_preview *p, const struct jd_preview_config *c, int w, int h,
		     void *mem, size_t bytes)
{
	(void)c;
	(void)w;
	(void)h;
	(void)mem;
	(void)bytes;
	memset(p, 0, sizeof(*p));
	snprintf(p->err, sizeof(p->err),
		 "--preview: this build has no preview (libmicrohttpd was not found when it was "
		 "built)");
	return -ENOSYS;
}

void jd_preview_publish(struct jd_preview *p, const struct jd_preview_frame *f,
			const char *status_json, uint64_t now_ns)
{
	(void)p;
	(void)f;
	(void)status_json;
	(void)now_ns;
}

int jd_preview_wants(struct jd_preview *p, uint64_t now_ns)
{
	(void)p;
	(void)now_ns;
	return 0;
}

void jd_preview_stop(struct jd_preview *p)
{
	(void)p;
}

void jd_preview_set_status(struct jd_preview *p, const char *status_json)
{
	(void)p;
	(void)status_json;
}
