#include "preview_cuda.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../algo/jd_status.h"

enum { THREADS = 128 };

int jd_cuda_preview_take(struct jd_cuda *cu, struct jd_cuda_frame *f)
{
	struct jd_cuda_picture *pc = &f->picture;
	void *p;

	memset(pc, 0, sizeof(*pc));
	pc->slot = -1;
	pc->step = jd_preview_step(f->w);
	pc->pw = jd_preview_scaled(f->w, pc->step);
	pc->ph = jd_preview_scaled(f->h, pc->step);
	size_t bytes = jd_cuda_preview_bytes(pc);
	if (!f->conf.taken) {
		snprintf(cu->err, sizeof(cu->err),
			 "the preview's picture needs the confidence stage");
		return -EINVAL;
	}
	JD_TRY(jd_cuda_function(cu, "jd_preview_cuda", &pc->fn));
	JD_TRY(jd_cuda_take_pinned(cu, bytes, &p));
	pc->h_rgb = p;
	if (cu->mapped) {
		pc->d_rgb = jd_cuda_mapped(cu, p);
	} else {
		JD_TRY(jd_cuda_take(cu, bytes, &pc->d_rgb));
	}
	pc->taken = 1;
	return 0;
}

void jd_cuda_preview_want(struct jd_cuda_frame *f, int min_conf, float dmax)
{
	struct jd_cuda_picture *pc = &f->picture;

	pc->want = pc->taken;
	pc->min_conf = min_conf;
	pc->dmax = dmax;
}

int jd__cuda_preview_run(struct jd_cuda *cu, struct jd_cuda_frame *f, jd_cudeviceptr map)
{
	struct jd_cuda_picture *pc = &f->picture;
	struct jd_cuda_slot *s = &f->slot[f->cur];
	int w = f->w;

	if (pc->slot == f->cur) {
		pc->slot = -1; /* that frame is collected: its picture is replaced or gone */
	}
	if (!pc->want || pc->slot >= 0) {
		return 0; /* not asked, or the frame ahead still holds the one buffer */
	}
	/* the confidence the stage before made for this frame (mapped: in the slot) */
	jd_cudeviceptr conf =
	    cu->mapped ? jd_cuda_mapped(cu, f->conf.h_conf[f->cur]) : f->conf.d_conf;
	void *a[] = {&s->d_left, &map,	    &conf,   &pc->min_conf, &pc->dmax,
		     &w,	 &pc->step, &pc->pw, &pc->d_rgb};

	JD_TRY(JD_CU(cu, cuLaunchKernel(pc->fn, (unsigned)((pc->pw + THREADS - 1) / THREADS),
					(unsigned)pc->ph, 1, THREADS, 1, 1, 0, cu->stream[0], a,
					NULL)));
	pc->want = 0;
	pc->slot = f->cur;
	return 0;
}

int jd__cuda_preview_download(struct jd_cuda *cu, struct jd_cuda_frame *f)
{
	struct jd_cuda_picture *pc = &f->picture;
	size_t bytes = jd_cuda_preview_bytes(pc);

	if (cu->mapped || pc->slot != f->cur) {
		return 0; /* mapped: composed in place; else none composed for this frame */
	}
	JD_TRY(JD_CU(cu, cuMemcpyDtoHAsync_v2(pc->h_rgb, pc->d_rgb, bytes, cu->stream[0])));
	cu->copied += bytes;
	return 0;
}
