#include "cloud_cuda.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../algo/cuda/cloud_launch.h"
#include "../../algo/geometry/depth.h"
#include "../../algo/jd_status.h"

enum { THREADS = 128 };

static size_t depth_bytes(int w, int h)
{
	return sizeof(float) * (size_t)w * h;
}

static size_t points_bytes(int w, int h)
{
	return sizeof(float) * JD_CLOUD_POINT_FLOATS * (size_t)w * h;
}

int jd_cuda_cloud_take(struct jd_cuda *cu, struct jd_cuda_frame *f, struct jd_cuda_cloud *cl)
{
	int w = f->w, h = f->h;

	memset(cl, 0, sizeof(*cl));
	cl->last = -1;
	for (int k = 0; k < JD_CUDA_SLOTS; k++) {
		cl->in_slot[k] = -1;
	}
	if (!f->conf.taken) {
		snprintf(cu->err, sizeof(cu->err), "depth and the cloud need the confidence stage");
		return -EINVAL;
	}
	JD_TRY(jd_cuda_function(cu, "jd_depth_cuda", &cl->depth_fn));
	JD_TRY(jd_cuda_function(cu, "jd_cloud_count_cuda", &cl->count_fn));
	JD_TRY(jd_cuda_function(cu, "jd_cloud_write_cuda", &cl->write_fn));
	JD_TRY(jd_cuda_take(cu, sizeof(int) * (size_t)h, &cl->d_counts));
	if (!cu->mapped) {
		JD_TRY(jd_cuda_take(cu, depth_bytes(w, h), &cl->d_depth));
		JD_TRY(jd_cuda_take(cu, points_bytes(w, h), &cl->d_points));
		JD_TRY(jd_cuda_take(cu, sizeof(int), &cl->d_npoints));
	}
	for (int k = 0; k < JD_CUDA_CLOUD_SETS; k++) {
		struct jd_cuda_cloud_set *s = &cl->set[k];
		void *p;
		JD_TRY(jd_cuda_take_pinned(cu, depth_bytes(w, h), &p));
		s->depth = p;
		JD_TRY(jd_cuda_take_pinned(cu, points_bytes(w, h), &p));
		s->points = p;
		JD_TRY(jd_cuda_take_pinned(cu, sizeof(int), &p));
		s->npoints = p;
	}
	cl->taken = 1;
	f->cloud = cl;
	return 0;
}

void jd_cuda_cloud_want(struct jd_cuda_frame *f, int what, int min_conf,
			const struct jd_camera_model *cam)
{
	struct jd_cuda_cloud *cl = f->cloud;

	if (!cl) {
		return;
	}
	cl->want = what & (JD_CUDA_CLOUD_DEPTH | JD_CUDA_CLOUD_POINTS);
	cl->min_conf = min_conf;
	cl->fb = jd_fb_metres(cam);
	cl->cx = cam->cx;
	cl->cy = cam->cy;
	cl->inv_f = 1.0f / cam->f; /* jd_point_cloud_ref()'s */
}

/* A free set, now busy, or -1: all are written or lent. */
static int take_set(struct jd_cuda_cloud *cl)
{
	for (int k = 0; k < JD_CUDA_CLOUD_SETS; k++) {
		int free_ = 0;
		if (__atomic_compare_exchange_n(&cl->set[k].busy, &free_, 1, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			return k;
		}
	}
	return -1;
}

void jd_cuda_cloud_release(void *token)
{
	struct jd_cuda_cloud_set *s = token;
	__atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
}

/* Queue one kernel on stream 0. */
static int launch(struct jd_cuda *cu, jd_cufunction fn, unsigned gx, unsigned gy, unsigned threads,
		  void **args)
{
	return JD_CU(cu,
		     cuLaunchKernel(fn, gx, gy, 1, threads, 1, 1, 0, cu->stream[0], args, NULL));
}

/* Bring what the kernels wrote at dev back into the set's host (copy mode only). */
static int bring(struct jd_cuda *cu, void *host, jd_cudeviceptr dev, size_t bytes)
{
	if (cu->mapped) {
		return 0;
	}
	JD_TRY(JD_CU(cu, cuMemcpyDtoHAsync_v2(host, dev, bytes, cu->stream[0])));
	cu->copied += bytes;
	return 0;
}

int jd__cuda_cloud_run(struct jd_cuda *cu, struct jd_cuda_frame *f, jd_cudeviceptr map)
{
	struct jd_cuda_cloud *cl = f->cloud;
	int w = f->w, h = f->h;

	if (cl->in_slot[f->cur] >= 0) {
		/* the frame before in this slot was never collected (its wait failed) */
		jd_cuda_cloud_release(&cl->set[cl->in_slot[f->cur]]);
	}
	cl->in_slot[f->cur] = -1;
	if (!cl->want) {
		return 0;
	}
	int k = take_set(cl);
	if (k < 0) {
		return 0; /* every set is lent: this frame goes without */
	}
	struct jd_cuda_cloud_set *s = &cl->set[k];
	/* the confidence the stage before made for this frame (mapped: in the slot) */
	jd_cudeviceptr conf =
	    cu->mapped ? jd_cuda_mapped(cu, f->conf.h_conf[f->cur]) : f->conf.d_conf;
	jd_cudeviceptr left = f->slot[f->cur].d_left;
	jd_cudeviceptr depth = cu->mapped ? jd_cuda_mapped(cu, s->depth) : cl->d_depth;
	jd_cudeviceptr points = cu->mapped ? jd_cuda_mapped(cu, s->points) : cl->d_points;
	jd_cudeviceptr npoints = cu->mapped ? jd_cuda_mapped(cu, s->npoints) : cl->d_npoints;

	s->made = cl->want;
	cl->in_slot[f->cur] = k;
	if (cl->want & JD_CUDA_CLOUD_DEPTH) {
		void *a[] = {&map, &conf, &cl->min_conf, &cl->fb, &w, &h, &depth};
		JD_TRY(launch(cu, cl->depth_fn, (unsigned)((w + THREADS - 1) / THREADS),
			      (unsigned)h, THREADS, a));
	}
	if (cl->want & JD_CUDA_CLOUD_POINTS) {
		void *c[] = {&map, &conf, &cl->min_conf, &cl->fb, &w, &cl->d_counts};
		void *a[] = {&map,	    &conf,   &cl->min_conf, &left, &cl->fb,
			     &cl->cx,	    &cl->cy, &cl->inv_f,    &w,	   &h,
			     &cl->d_counts, &points, &npoints};
		JD_TRY(launch(cu, cl->count_fn, (unsigned)h, 1, JD_CLOUD_THREADS, c));
		JD_TRY(launch(cu, cl->write_fn, (unsigned)h, 1, JD_CLOUD_THREADS, a));
	}
	return 0;
}

int jd__cuda_cloud_download(struct jd_cuda *cu, struct jd_cuda_frame *f)
{
	struct jd_cuda_cloud *cl = f->cloud;
	int k = cl->in_slot[f->cur], w = f->w, h = f->h;

	if (k < 0) {
		return 0; /* none made for this frame */
	}
	struct jd_cuda_cloud_set *s = &cl->set[k];
	if (s->made & JD_CUDA_CLOUD_DEPTH) {
		JD_TRY(bring(cu, s->depth, cl->d_depth, depth_bytes(w, h)));
	}
	if (s->made & JD_CUDA_CLOUD_POINTS) {
		/* the whole buffer, as the count is not known here (a DMA, no CPU) */
		JD_TRY(bring(cu, s->npoints, cl->d_npoints, sizeof(int)));
		JD_TRY(bring(cu, s->points, cl->d_points, points_bytes(w, h)));
	}
	return 0;
}

void jd__cuda_cloud_collected(struct jd_cuda_frame *f, int idx)
{
	struct jd_cuda_cloud *cl = f->cloud;

	if (idx < 0) {
		return; /* before the wait: the last frame's set stays until one is collected */
	}
	if (cl->last >= 0) {
		jd_cuda_cloud_release(&cl->set[cl->last]); /* nobody claimed it */
	}
	cl->last = cl->in_slot[idx];
	cl->in_slot[idx] = -1;
}

struct jd_cuda_cloud_set *jd_cuda_cloud_claim(struct jd_cuda_frame *f)
{
	struct jd_cuda_cloud *cl = f->cloud;

	if (!cl || cl->last < 0) {
		return NULL;
	}
	struct jd_cuda_cloud_set *s = &cl->set[cl->last];
	cl->last = -1;
	return s;
}
