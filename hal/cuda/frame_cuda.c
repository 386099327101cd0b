#include "frame_cuda.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../algo/cuda/prefilter_cuda.h"
#include "../../algo/jd_status.h"
#include "../../algo/match/prefilter.h"
#include "rectify_cuda.h"
#include "stages_cuda.h"

int jd_cuda_frame_take(struct jd_cuda *cu, struct jd_cuda_frame *f, int w, int h)
{
	size_t n = (size_t)w * h, nin = n;

	memset(f, 0, sizeof(*f));
	f->last = -1;
	f->back = JD_CUDA_BACK_ALL;
	f->w = w;
	f->h = h;
	if (!cu->mapped) {
		JD_TRY(jd_cuda_take(cu, sizeof(float) * n, &f->d_out));
	}
	for (int i = 0; i < JD_CUDA_SLOTS; i++) {
		struct jd_cuda_slot *s = &f->slot[i];
		void *ho;

		JD_TRY(jd_cuda_take_pinned(cu, nin, &s->h_left));
		JD_TRY(jd_cuda_take_pinned(cu, nin, &s->h_right));
		JD_TRY(jd_cuda_take_pinned(cu, sizeof(float) * n, &ho));
		s->h_out = ho;
		if (cu->mapped) {
			s->d_left = jd_cuda_mapped(cu, s->h_left);
			s->d_right = jd_cuda_mapped(cu, s->h_right);
			s->d_map = jd_cuda_mapped(cu, s->h_out);
		} else {
			JD_TRY(jd_cuda_take(cu, nin, &s->d_left));
			JD_TRY(jd_cuda_take(cu, nin, &s->d_right));
		}
		JD_TRY(jd_cuda_take_event(cu, &s->ev_in));
		JD_TRY(jd_cuda_take_event(cu, &s->ev_start));
		JD_TRY(jd_cuda_take_event(cu, &s->ev_end));
		JD_TRY(jd_cuda_take_event(cu, &s->ev_out));
	}
	return 0;
}

/* The window the device ranks with for p: 0 where p does not rank. */
static int device_rank_window(const struct jd_match_params *p)
{
	return jd_prefilter_rank_on(p) ? jd_rank_window(p) : 0;
}

int jd_cuda_frame_rank_take(struct jd_cuda *cu, struct jd_cuda_frame *f,
			    const struct jd_match_params *p)
{
	struct jd_cuda_rank *rk = &f->rank;
	int window = device_rank_window(p);

	memset(rk, 0, sizeof(*rk));
	if (!window) {
		return 0;
	}
	JD_TRY(jd_cuda_function(cu, "jd_rank_cuda", &rk->fn));
	JD_TRY(jd_cuda_take(cu, (size_t)f->w * f->h, &rk->d_out[0]));
	JD_TRY(jd_cuda_take(cu, (size_t)f->w * f->h, &rk->d_out[1]));
	rk->window = window;
	return 0;
}

int jd_cuda_frame_rank_check(struct jd_cuda *cu, const struct jd_cuda_frame *f,
			     const struct jd_match_params *p)
{
	if (device_rank_window(p) != f->rank.window) {
		snprintf(
		    cu->err, sizeof(cu->err),
		    "--prefilter %s --rank-window %d differs from what boot set up (window %d)",
		    jd_prefilter_name(p->prefilter), p->rank_window, f->rank.window);
		return -EINVAL;
	}
	return 0;
}

static int rank_run(struct jd_cuda *cu, struct jd_cuda_frame *f)
{
	struct jd_cuda_rank *rk = &f->rank;
	struct jd_cuda_slot *s = &f->slot[f->cur];
	int w = f->w, h = f->h, window = rk->window;
	void *a[] = {&s->d_left, &s->d_right, &rk->d_out[0], &rk->d_out[1], &w, &h, &window};

	return JD_CU(cu, cuLaunchKernel(rk->fn,
					(unsigned)((w + JD_RANK_BX * JD_RANK_PX - 1) /
						   (JD_RANK_BX * JD_RANK_PX)),
					(unsigned)((h + JD_RANK_BY - 1) / JD_RANK_BY), 2,
					JD_RANK_BX, JD_RANK_BY, 1, 0, cu->stream[0], a, NULL));
}

/* The pinned slot the next frame goes into; NULL (cu->err) with two in flight already. */
static struct jd_cuda_slot *stage(struct jd_cuda *cu, struct jd_cuda_frame *f)
{
	if (f->inflight >= JD_CUDA_SLOTS) {
		snprintf(cu->err, sizeof(cu->err),
			 "frame submitted with %d already in flight: collect one first",
			 f->inflight);
		return NULL;
	}
	f->cur = jd_cuda_frame_next_index(f);
	/* mapped: all of it is in host memory; a pair packed on the host never left it */
	f->slot[f->cur].back =
	    cu->mapped ? JD_CUDA_BACK_ALL : f->back | (f->remap.loaded ? 0 : JD_CUDA_BACK_PAIR);
	if (cu->mapped) {
		f->d_out = f->slot[f->cur].d_map; /* the kernels write the map into the slot */
	}
	return &f->slot[f->cur];
}

int jd_cuda_frame_send(struct jd_cuda *cu, struct jd_cuda_frame *f)
{
	struct jd_cuda_slot *s = &f->slot[f->cur];
	struct jd_cuda_remap *rm = &f->remap;
	int raw = rm->loaded; /* upload the raw pair, convert and rectify it on the device */
	void *hi[2] = {raw ? rm->h_raw[f->cur][0] : s->h_left,
		       raw ? rm->h_raw[f->cur][1] : s->h_right};
	jd_cudeviceptr di[2] = {raw ? rm->d_raw[f->cur][0] : s->d_left,
				raw ? rm->d_raw[f->cur][1] : s->d_right};

	for (int c = 0; c < 2 && !cu->mapped; c++) {
		size_t bytes = raw ? jd__cuda_remap_raw_bytes(f, f->cur, c) : (size_t)f->w * f->h;

		JD_TRY(JD_CU(cu, cuMemcpyHtoDAsync_v2(di[c], hi[c], bytes, cu->stream[1])));
		cu->copied += bytes;
	}
	JD_TRY(JD_CU(cu, cuEventRecord(s->ev_in, cu->stream[1])));
	JD_TRY(JD_CU(cu, cuStreamWaitEvent(cu->stream[0], s->ev_in, 0)));
	JD_TRY(JD_CU(cu, cuEventRecord(s->ev_start, cu->stream[0])));
	JD_TRY(jd__cuda_stages_queue(cu, f, 1, 0)); /* the remap */
	return f->rank.window ? rank_run(cu, f) : 0;
}

int jd_cuda_frame_raw_staged(struct jd_cuda_frame *f, const enum jd_pixfmt fmt[2])
{
	int next = jd_cuda_frame_next_index(f);

	if (!jd_cuda_frame_raw_next(f, 0)) {
		return -EINVAL;
	}
	for (int c = 0; c < 2; c++) {
		if (!jd_cuda_frame_takes_raw(fmt[c])) {
			return -EINVAL;
		}
	}
	f->remap.fmt[next][0] = fmt[0];
	f->remap.fmt[next][1] = fmt[1];
	f->remap.staged[next] = 1;
	return 0;
}

/* Pack img (8-bit luma) into dst as one camera's raw GREY frame unless it is there already. */
static void pack(const struct jd_image *img, unsigned char *dst, int w)
{
	if (img->data != dst || img->stride != w) {
		jd_image_pack(img, dst);
	}
}

int jd_cuda_frame_upload(struct jd_cuda *cu, struct jd_cuda_frame *f, const struct jd_image *left,
			 const struct jd_image *right)
{
	struct jd_cuda_slot *s = stage(cu, f);
	struct jd_cuda_remap *rm = &f->remap;

	if (!s) {
		return -EBUSY;
	}
	if (rm->loaded && rm->staged[f->cur]) {
		rm->staged[f->cur] = 0; /* the camera wrote the raw pair there: send it as it is */
	} else if (rm->loaded) {
		pack(left, rm->h_raw[f->cur][0], f->w);
		pack(right, rm->h_raw[f->cur][1], f->w);
		rm->fmt[f->cur][0] = rm->fmt[f->cur][1] = JD_PIX_GREY;
	} else {
		/* a pair captured into the slot itself (jd_cuda_frame_next()) is packed already */
		pack(left, s->h_left, f->w);
		pack(right, s->h_right, f->w);
	}
	return jd_cuda_frame_send(cu, f);
}

int jd_cuda_frame_finish(struct jd_cuda *cu, struct jd_cuda_frame *f, jd_cudeviceptr map)
{
	struct jd_cuda_slot *s = &f->slot[f->cur];
	size_t n = (size_t)f->w * f->h;

	JD_TRY(JD_CU(cu, cuEventRecord(s->ev_end, cu->stream[0])));
	/* after the clock: the kernel time stays the matcher's, comparable with its peers */
	JD_TRY(jd__cuda_stages_queue(cu, f, 0, map));
	if (!cu->mapped && (s->back & JD_CUDA_BACK_MAP)) {
		JD_TRY(JD_CU(
		    cu, cuMemcpyDtoHAsync_v2(s->h_out, map, sizeof(float) * n, cu->stream[0])));
		cu->copied += sizeof(float) * n;
	} else if (cu->mapped && map != s->d_map) {
		snprintf(cu->err, sizeof(cu->err),
			 "mapped mode: the map was not written into its slot");
		return -EINVAL;
	}
	JD_TRY(jd__cuda_stages_bring_back(cu, f));
	JD_TRY(JD_CU(cu, cuEventRecord(s->ev_out, cu->stream[0])));
	f->inflight++;
	return 0;
}

int jd_cuda_frame_collect(struct jd_cuda *cu, struct jd_cuda_frame *f, struct jd_disp *out)
{
	int idx = f->oldest;
	struct jd_cuda_slot *s = &f->slot[idx];

	if (f->inflight == 0) {
		snprintf(cu->err, sizeof(cu->err), "collect with no frame in flight");
		return -ENOENT;
	}
	/* The slot is free again whatever happens below: a failed frame is not retried. */
	f->oldest = (f->oldest + 1) % JD_CUDA_SLOTS;
	f->inflight--;
	f->last = -1;
	jd__cuda_stages_collected(f, -1);
	JD_TRY(jd_cuda_wait(cu, s->ev_out));
	JD_TRY(JD_CU(cu, cuEventElapsedTime_v2(&cu->last_kernel_ms, s->ev_start, s->ev_end)));
	f->last = idx;
	jd__cuda_stages_collected(f, idx);
	if (f->lend) {
		/* NULL where the map stayed on the device: fail at once, not on old data */
		out->data = s->back & JD_CUDA_BACK_MAP ? s->h_out : NULL;
		out->stride = f->w;
		return 0;
	}
	for (int y = 0; (s->back & JD_CUDA_BACK_MAP) && y < f->h; y++) {
		memcpy(jd_disp_row(out, y), s->h_out + (size_t)y * f->w, sizeof(float) * f->w);
	}
	return 0;
}
