#include "sense_cuda.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../algo/cuda/sense_launch.h"
#include "../../algo/jd_status.h"
#include "../../algo/sense/sense_planner.h"

enum { THREADS = 128, SCORE_THREADS = 256, ROW_THREADS = 128 };

/* The labelling's statistics (6 ints a pixel), then the objects' three values a pixel. */
#define STATS_BYTES 24
#define VALUES(s, k) ((s)->d_stats + 4 * (size_t)(s)->w * (s)->h * (k))

#define STREAM(cu) ((cu)->stream[2])

static int wait_queued(struct jd_cuda *cu, struct jd_cuda_sense *s)
{
	JD_TRY(JD_CU(cu, cuEventRecord(s->ev_done, STREAM(cu))));
	return jd_cuda_wait(cu, s->ev_done);
}

/* An output: pinned, and where the kernels write it (a device buffer, or its mapped view). */
static int take_out(struct jd_cuda *cu, size_t bytes, void **host, jd_cudeviceptr *dev)
{
	JD_TRY(jd_cuda_take_pinned(cu, bytes, host));
	if (cu->mapped) {
		*dev = jd_cuda_mapped(cu, *host);
		return 0;
	}
	return jd_cuda_take(cu, bytes, dev);
}

int jd_cuda_sense_take(struct jd_cuda *cu, struct jd_cuda_frame *f, struct jd_cuda_sense *s)
{
	static const char *const names[] = {
	    "jd_sense_mask_conf_cuda",	"jd_sense_score_cuda",	   "jd_sense_rows_cuda",
	    "jd_sense_objpx_cuda",	"jd_sense_morph_cuda",	   "jd_sense_ccl_init_cuda",
	    "jd_sense_ccl_merge_cuda",	"jd_sense_ccl_final_cuda", "jd_sense_blobs_cuda",
	    "jd_sense_count_cuda",	"jd_sense_measure_cuda",   "jd_sense_axes_cuda",
	    "jd_sense_candidates_cuda", "jd_sense_grow_cuda",	   "jd_sense_ccl_stats_cuda"};
	jd_cufunction *fns[] = {&s->mask_conf,	&s->score,    &s->rows,	     &s->objpx,
				&s->morph,	&s->ccl_init, &s->ccl_merge, &s->ccl_final,
				&s->blobs,	&s->count,    &s->measure,   &s->axes,
				&s->candidates, &s->grow,     &s->ccl_stats};
	int w = f->w, h = f->h;
	size_t n = (size_t)w * h;
	void *p;

	memset(s, 0, sizeof(*s));
	s->last = -1;
	if (!f->conf.taken) {
		snprintf(cu->err, sizeof(cu->err), "sensing on the GPU needs its confidence stage");
		return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		JD_TRY(jd_cuda_function(cu, names[i], fns[i]));
	}
	for (int k = 0; k < JD_CUDA_SLOTS; k++) {
		JD_TRY(jd_cuda_take(cu, 4 * n, &s->d_disp[k]));
	}
	JD_TRY(jd_cuda_take(cu, n, &s->d_m0));
	JD_TRY(jd_cuda_take(cu, n, &s->d_m1));
	JD_TRY(jd_cuda_take(cu, n, &s->d_weak));
	JD_TRY(jd_cuda_take(cu, 4 * n, &s->d_parent));
	JD_TRY(jd_cuda_take(cu, STATS_BYTES * n, &s->d_stats));
	JD_TRY(jd_cuda_take(cu, sizeof(int32_t), &s->d_count));
	JD_TRY(jd_cuda_take(cu, 4 * n, &s->d_label));
	JD_TRY(jd_cuda_take(cu, 4 * n, &s->d_label2));
	s->max_blobs = JD_SENSE_MAX_BLOBS(n);
	JD_TRY(take_out(cu, sizeof(double) * 3 * JD_SENSE_MAX_HYPOTHESES, &p, &s->d_planes));
	s->h_planes = p;
	JD_TRY(take_out(cu, sizeof(long long) * (JD_SENSE_MAX_HYPOTHESES + (size_t)h), &p,
			&s->d_scores));
	s->h_scores = p;
	JD_TRY(take_out(cu, sizeof(double) * JD_SROW_FIELDS * (size_t)h, &p, &s->d_rows));
	s->h_rows = p;
	JD_TRY(take_out(cu, sizeof(int32_t) * 6 * (size_t)s->max_blobs, &p, &s->d_blobs));
	s->h_blobs = p;
	JD_TRY(take_out(cu, sizeof(int32_t), &p, &s->d_nblobs));
	s->h_nblobs = p;
	JD_TRY(take_out(cu, sizeof(int32_t) * JD_SOBJ_INTS * JD_SENSE_MAX_OBJECTS, &p, &s->d_objs));
	s->h_objs = p;
	JD_TRY(take_out(cu, sizeof(double) * 2 * JD_SENSE_MAX_OBJECTS, &p, &s->d_ax));
	s->h_ax = p;
	JD_TRY(
	    take_out(cu, sizeof(struct jd_sense_obj_rec) * JD_SENSE_MAX_OBJECTS, &p, &s->d_recs));
	s->h_recs = p;
	JD_TRY(take_out(cu, sizeof(uint32_t) * 2 * JD_CUDA_SENSE_CANDIDATES, &p, &s->d_draws));
	s->h_draws = p;
	JD_TRY(take_out(cu, sizeof(float) * JD_CUDA_SENSE_CANDIDATES, &p, &s->d_cand));
	s->h_cand = p;
	JD_TRY(jd_cuda_take_pinned(cu, sizeof(float) * n, &p));
	s->h_map = p;
	JD_TRY(jd_cuda_take_event(cu, &s->ev_done));
	s->w = w;
	s->h = h;
	s->taken = 1;
	f->sense = s;
	return 0;
}

void jd_cuda_sense_start(struct jd_cuda_sense *s, int min_conf, int mask_map)
{
	s->min_conf = min_conf;
	s->mask_map = mask_map;
	s->on = s->taken;
}

int jd__cuda_sense_queue(struct jd_cuda *cu, struct jd_cuda_frame *f, jd_cudeviceptr map)
{
	struct jd_cuda_sense *s = f->sense;
	int n = f->w * f->h;
	jd_cudeviceptr conf =
	    cu->mapped ? jd_cuda_mapped(cu, f->conf.h_conf[f->cur]) : f->conf.d_conf;
	void *a[] = {&map, &conf, &n, &s->min_conf, &s->d_disp[f->cur], &s->mask_map};

	return JD_CU(cu, cuLaunchKernel(s->mask_conf, (unsigned)((n + 255) / 256), 1, 1, 256, 1, 1,
					0, cu->stream[0], a, NULL));
}

/* Send an input over (copy mode; stream 2). */
static int send(struct jd_cuda *cu, jd_cudeviceptr dev, const void *host, size_t bytes)
{
	if (cu->mapped || !bytes) {
		return 0;
	}
	cu->copied += bytes;
	return JD_CU(cu, cuMemcpyHtoDAsync_v2(dev, host, bytes, STREAM(cu)));
}

/* Bring an output back (copy mode; stream 2): what the kernels wrote, bytes of it. */
static int fetch(struct jd_cuda *cu, void *host, jd_cudeviceptr dev, size_t bytes)
{
	if (cu->mapped || !bytes) {
		return 0;
	}
	cu->copied += bytes;
	return JD_CU(cu, cuMemcpyDtoHAsync_v2(host, dev, bytes, STREAM(cu)));
}

static int launch(struct jd_cuda *cu, jd_cufunction fn, unsigned gx, unsigned gy, unsigned bx,
		  unsigned smem, void **args)
{
	return JD_CU(cu, cuLaunchKernel(fn, gx, gy, 1, bx, 1, 1, smem, STREAM(cu), args, NULL));
}

/* One pass of row records against plane pl (fit 0: least squares, 1: residual and extent). */
static int rows_pass(struct jd_cuda *cu, struct jd_cuda_sense *s, jd_cudeviceptr disp,
		     const struct jd_sense_roi *r, const double pl[3], float tol, int fit)
{
	int w = s->w, x0 = r->x0, y0 = r->y0, x1 = r->x1, nrows = r->y1 - r->y0;
	double p0 = pl[0], p1 = pl[1], p2 = pl[2];
	void *a[] = {&disp, &w, &x0, &y0, &x1, &p0, &p1, &p2, &tol, &fit, &s->d_rows};

	JD_TRY(launch(cu, s->rows, (unsigned)nrows, 1, ROW_THREADS,
		      (unsigned)(sizeof(float) * (size_t)(x1 - x0)), a));
	JD_TRY(fetch(cu, s->h_rows, s->d_rows, sizeof(double) * JD_SROW_FIELDS * (size_t)nrows));
	return wait_queued(cu, s);
}

/* The candidates' values the host draws from (jd_sense_hypotheses_by()). */
struct candidates {
	const float *value;
	long n;
	int ran_out; /* the draw wanted candidate n or later */
};

static float pick_candidate(void *ctx, long k, int x, int y)
{
	struct candidates *c = ctx;

	(void)x;
	(void)y;
	if (k < c->n) {
		return c->value[k];
	}
	c->ran_out = 1;
	return NAN;
}

/*
 * The hypotheses, drawn on the host from the candidates' values the GPU gathered: the first
 * JD_CUDA_SENSE_FIRST come back, the rest only when the draw needs them (a map with few valid
 * pixels). @return how many, or -ERANGE: the draw needs more candidates than the stage holds
 */
static int draw_hypotheses(struct jd_cuda *cu, struct jd_cuda_sense *s, jd_cudeviceptr disp,
			   const struct jd_sense_params *sp, const struct jd_sense_roi *r,
			   double (*planes)[3])
{
	uint32_t seed = sp->seed ? sp->seed : 1;
	long need = (long)sp->ransac_iters * JD_SENSE_TRIES;
	need = need < JD_CUDA_SENSE_CANDIDATES ? need : JD_CUDA_SENSE_CANDIDATES;
	long first = need < JD_CUDA_SENSE_FIRST ? need : JD_CUDA_SENSE_FIRST;
	int w = s->w, x0 = r->x0, y0 = r->y0, x1 = r->x1, y1 = r->y1, n = (int)need;

	if (s->draws_seed != seed) {
		/* the seed's stream, once: the same for every frame */
		jd_sense_draws(sp, JD_CUDA_SENSE_CANDIDATES, s->h_draws);
		JD_TRY(send(cu, s->d_draws, s->h_draws,
			    sizeof(uint32_t) * 2 * JD_CUDA_SENSE_CANDIDATES));
		s->draws_seed = seed;
	}
	void *a[] = {&disp, &w, &x0, &y0, &x1, &y1, &s->d_draws, &n, &s->d_cand};
	JD_TRY(launch(cu, s->candidates, (unsigned)((need + THREADS - 1) / THREADS), 1, THREADS, 0,
		      a));
	JD_TRY(fetch(cu, s->h_cand, s->d_cand, sizeof(float) * (size_t)first));
	JD_TRY(wait_queued(cu, s));
	struct candidates c = {s->h_cand, first, 0};
	int got = jd_sense_hypotheses_by(sp, r, pick_candidate, &c, planes);
	if (c.ran_out && first < need) {
		JD_TRY(fetch(cu, s->h_cand + first, s->d_cand + sizeof(float) * (size_t)first,
			     sizeof(float) * (size_t)(need - first)));
		JD_TRY(wait_queued(cu, s));
		c = (struct candidates){s->h_cand, need, 0};
		got = jd_sense_hypotheses_by(sp, r, pick_candidate, &c, planes);
	}
	return c.ran_out ? -ERANGE : got;
}

/* fit_plane() of sense.c, its passes over the map on the GPU. @retval 0, -EIO, -ERANGE */
static int fit_plane(struct jd_cuda *cu, struct jd_cuda_sense *s, jd_cudeviceptr disp,
		     const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		     const struct jd_sense_roi *r, struct jd_sense_ws *ws, struct jd_plane *pl)
{
	static long count[JD_SENSE_MAX_HYPOTHESES];
	double(*planes)[3] = (double(*)[3])s->h_planes;
	long npix = (long)(r->x1 - r->x0) * (r->y1 - r->y0), nvalid = 0, inliers = 0;
	int nrows = r->y1 - r->y0, step = jd_sense_grid_step(r), w = s->w;
	int x0 = r->x0, y0 = r->y0, x1 = r->x1, y1 = r->y1;
	float tol = sp->plane_tol;
	double best[3], sol[3], sum[JD_SROW_FIELDS];

	memset(pl, 0, sizeof(*pl));
	pl->verdict = JD_TABLE_NOT_FITTED;
	/* the hypotheses from the candidates' values (a few thousand pixels), scored on the GPU */
	int n = draw_hypotheses(cu, s, disp, sp, r, planes);
	if (n < 0) {
		return n;
	}
	if (!cu->mapped && n) {
		cu->copied += sizeof(double) * 3 * (size_t)n;
		JD_TRY(JD_CU(cu, cuMemcpyHtoDAsync_v2(s->d_planes, s->h_planes,
						      sizeof(double) * 3 * (size_t)n, STREAM(cu))));
	}
	void *a[] = {&disp, &w, &x0, &y0, &x1, &y1, &step, &s->d_planes, &n, &tol, &s->d_scores};
	JD_TRY(launch(cu, s->score, (unsigned)(n + nrows), 1, SCORE_THREADS, 0, a));
	JD_TRY(fetch(cu, s->h_scores, s->d_scores, sizeof(long long) * (size_t)(n + nrows)));
	JD_TRY(wait_queued(cu, s));
	for (int y = 0; y < nrows; y++) {
		nvalid += (long)s->h_scores[n + y];
	}
	if (nvalid < 3) {
		return 0;
	}
	for (int i = 0; i < n; i++) {
		count[i] = (long)s->h_scores[i];
	}
	if (jd_sense_best(sp, cam, (const double(*)[3])planes, count, n, best)) {
		return 0;
	}
	for (int pass = 0; pass < 2; pass++) {
		JD_TRY(rows_pass(cu, s, disp, r, best, tol, 0));
		jd_sense_rows_add(s->h_rows, nrows, sum);
		if (jd_sense_lsq_solve(sum, sol)) {
			break;
		}
		memcpy(best, sol, sizeof(best));
		inliers = (long)sum[JD_SROW_N];
	}
	JD_TRY(rows_pass(cu, s, disp, r, best, tol, 1));
	jd_sense_rows_add(s->h_rows, nrows, sum);
	memcpy(ws->rows, s->h_rows, sizeof(double) * JD_SROW_FIELDS * (size_t)nrows);
	jd_sense_plane(sp, cam, best, inliers, nvalid, npix, sum[JD_SROW_RSS], pl);
	return 0;
}

/* What the object kernels take: the camera, the plane, the thresholds. */
static struct jd_sense_px_args px_args(const struct jd_cuda_sense *s,
				       const struct jd_sense_params *sp,
				       const struct jd_camera_model *cam,
				       const struct jd_sense_roi *r, const struct jd_plane *pl)
{
	return (struct jd_sense_px_args){cam->f,
					 cam->cx,
					 cam->cy,
					 cam->baseline_mm,
					 pl->a,
					 pl->b,
					 pl->c,
					 {pl->n[0], pl->n[1], pl->n[2]},
					 pl->k_mm,
					 {pl->e1[0], pl->e1[1], pl->e1[2]},
					 {pl->e2[0], pl->e2[1], pl->e2[2]},
					 sp->plane_tol,
					 sp->min_height_mm,
					 sp->fixed_disp,
					 {r->x0, r->y0, r->x1, r->y1},
					 sp->use_fixed || !pl->valid,
					 s->w,
					 s->h};
}

/*
 * The object mask: its strong pixels opened and closed and labelled, the labels grown into the
 * weak pixels (sense_planner.h): the blobs' count (may pass max_blobs).
 */
static int label_objects(struct jd_cuda *cu, struct jd_cuda_sense *s, jd_cudeviceptr disp,
			 struct jd_sense_px_args *px, int min_area, long *nblobs)
{
	int w = s->w, h = s->h, n = w * h, cap = (int)s->max_blobs;
	unsigned gx = (unsigned)((w + THREADS - 1) / THREADS), gn = (unsigned)((n + 255) / 256);
	void *ap[] = {&disp, px, &s->d_m0, &s->d_weak};
	/* open (erode, dilate), close (dilate, erode): m0 -> m1 -> m0 -> m1 -> m0 */
	void *am[4][5] = {{&s->d_m0, &s->d_m1, &w, &h, &(int){0}},
			  {&s->d_m1, &s->d_m0, &w, &h, &(int){1}},
			  {&s->d_m0, &s->d_m1, &w, &h, &(int){1}},
			  {&s->d_m1, &s->d_m0, &w, &h, &(int){0}}};
	void *ai[] = {&s->d_m0, &w, &h, &s->d_parent, &s->d_stats};
	void *ag[] = {&s->d_m0, &disp, &w, &h, &s->d_parent};
	void *af[] = {&s->d_parent, &w, &h, &s->d_label};
	/* grow: d_label -> d_label2 -> d_label ..., an even count of passes */
	void *agr[2][6] = {{&s->d_label, &s->d_label2, &s->d_weak, &disp, &w, &h},
			   {&s->d_label2, &s->d_label, &s->d_weak, &disp, &w, &h}};
	void *ast[] = {&s->d_label, &s->d_m0, &w, &s->d_stats};
	void *ab[] = {&s->d_parent, &s->d_stats, &n, &min_area, &cap, &s->d_count, &s->d_blobs};
	void *ac[] = {&s->d_count, &s->d_nblobs};

	JD_TRY(launch(cu, s->objpx, gx, (unsigned)h, THREADS, 0, ap));
	for (int k = 0; k < 4; k++) {
		JD_TRY(launch(cu, s->morph, gx, (unsigned)h, THREADS, 0, am[k]));
	}
	JD_TRY(JD_CU(cu, cuMemsetD8Async(s->d_count, 0, sizeof(int32_t), STREAM(cu))));
	JD_TRY(launch(cu, s->ccl_init, gn, 1, 256, 0, ai));
	JD_TRY(launch(cu, s->ccl_merge, gx, (unsigned)h, THREADS, 0, ag));
	JD_TRY(launch(cu, s->ccl_final, gx, (unsigned)h, THREADS, 0, af));
	_Static_assert(JD_SENSE_GROW_PASSES % 2 == 0, "the passes end in d_label");
	for (int k = 0; k < JD_SENSE_GROW_PASSES; k++) {
		JD_TRY(launch(cu, s->grow, gx, (unsigned)h, THREADS, 0, agr[k % 2]));
	}
	JD_TRY(launch(cu, s->ccl_stats, gx, (unsigned)h, THREADS, 0, ast));
	JD_TRY(launch(cu, s->blobs, gn, 1, 256, 0, ab));
	JD_TRY(launch(cu, s->count, 1, 1, 1, 0, ac));
	JD_TRY(fetch(cu, s->h_nblobs, s->d_nblobs, sizeof(int32_t)));
	JD_TRY(wait_queued(cu, s));
	*nblobs = *s->h_nblobs;
	if (*nblobs > cap) {
		return 0;
	}
	JD_TRY(fetch(cu, s->h_blobs, s->d_blobs, sizeof(int32_t) * 6 * (size_t)*nblobs));
	return wait_queued(cu, s);
}

/* The objects' records gathered on the GPU (jd_sense_gather; sense_objects_cuda.cu). */
struct gpu_gather {
	struct jd_cuda *cu;
	struct jd_cuda_sense *s;
	jd_cudeviceptr disp;
	struct jd_sense_px_args px;
};

/* Launch one of the object kernels over k objects, bring their records back and wait. */
static int objects_pass(struct gpu_gather *g, jd_cufunction fn, int k, void **args,
			struct jd_sense_obj_rec *rec)
{
	struct jd_cuda *cu = g->cu;
	size_t bytes = sizeof(*rec) * (size_t)k;

	JD_TRY(launch(cu, fn, (unsigned)k, 1, JD_SOBJ_THREADS, 0, args));
	JD_TRY(fetch(cu, g->s->h_recs, g->s->d_recs, bytes));
	JD_TRY(wait_queued(cu, g->s));
	memcpy(rec, g->s->h_recs, bytes);
	return 0;
}

static int gpu_first(void *ctx, const struct jd_sense_blob *b, int k, struct jd_sense_obj_rec *rec)
{
	struct gpu_gather *g = ctx;
	struct jd_cuda_sense *s = g->s;
	jd_cudeviceptr vd = VALUES(s, 0), vh = VALUES(s, 1);
	void *a[] = {&g->disp, &s->d_label, &g->px, &s->d_objs, &s->d_parent, &vd, &vh, &s->d_recs};
	int offset = 0;

	for (int i = 0; i < k; i++) {
		int32_t *o = s->h_objs + JD_SOBJ_INTS * i;
		o[JD_SOBJ_LABEL] = b[i].label;
		memcpy(o + JD_SOBJ_X0, b[i].bbox, sizeof(b[i].bbox));
		o[JD_SOBJ_OFFSET] = offset; /* blobs never overlap: their areas fit the map */
		offset += b[i].area;
	}
	JD_TRY(send(g->cu, s->d_objs, s->h_objs, sizeof(int32_t) * JD_SOBJ_INTS * (size_t)k));
	return objects_pass(g, s->measure, k, a, rec);
}

static int gpu_axes(void *ctx, const struct jd_sense_blob *b, int k, const double (*ax)[2],
		    struct jd_sense_obj_rec *rec)
{
	struct gpu_gather *g = ctx;
	struct jd_cuda_sense *s = g->s;
	jd_cudeviceptr vd = VALUES(s, 0), va = VALUES(s, 1), vb = VALUES(s, 2);
	void *a[] = {&g->px, &s->d_objs, &s->d_ax, &s->d_parent, &vd, &va, &vb, &s->d_recs};

	(void)b;
	memcpy(s->h_ax, ax, sizeof(double) * 2 * (size_t)k);
	JD_TRY(send(g->cu, s->d_ax, s->h_ax, sizeof(double) * 2 * (size_t)k));
	return objects_pass(g, s->axes, k, a, rec);
}

/* The frame's masked map on the host (the rare frames the reference finishes there). */
static int bring_map(struct jd_cuda *cu, struct jd_cuda_sense *s, struct jd_disp *map)
{
	size_t bytes = sizeof(float) * (size_t)s->w * s->h;

	cu->copied += bytes;
	JD_TRY(JD_CU(cu, cuMemcpyDtoHAsync_v2(s->h_map, s->d_disp[s->last], bytes, STREAM(cu))));
	JD_TRY(wait_queued(cu, s));
	*map = (struct jd_disp){s->h_map, s->w, s->h, s->w};
	return 0;
}

int jd_cuda_sense_run(struct jd_cuda *cu, struct jd_cuda_sense *s, const struct jd_sense_params *sp,
		      const struct jd_camera_model *cam, void *ws, size_t ws_bytes,
		      struct jd_sense_result *out, const struct jd_exec *ex)
{
	struct jd_sense_roi r;
	struct jd_sense_ws w;
	struct jd_disp map;
	long nblobs = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!s->on || s->last < 0) {
		snprintf(cu->err, sizeof(cu->err), "GPU sensing: no collected frame");
		return -ENOENT;
	}
	JD_TRY(jd_sense_check(sp, cam, s->w, s->h, &r));
	if (jd_sense_carve(ws, ws_bytes, s->w, s->h, &w)) {
		return -ENOMEM;
	}
	jd_cudeviceptr disp = s->d_disp[s->last];
	if (!sp->use_fixed) {
		rc = fit_plane(cu, s, disp, sp, cam, &r, &w, &out->plane);
		if (rc == -ERANGE) {
			goto on_host; /* more candidates than the stage holds (--ransac-iters) */
		}
		JD_TRY(rc);
	}
	jd_sense_extent(cam, &r, &out->plane, s->w, &w);
	struct gpu_gather gg = {cu, s, disp, px_args(s, sp, cam, &r, &out->plane)};
	JD_TRY(label_objects(cu, s, disp, &gg.px, sp->min_area_px, &nblobs));
	if (nblobs > s->max_blobs) {
		goto on_host; /* more blobs than the list holds: the reference knows which first */
	}
	struct jd_sense_blob *blobs = (struct jd_sense_blob *)s->h_blobs; /* in no order */
	struct jd_sense_gather g = {gpu_first, gpu_axes, &gg};
	return jd_sense_objects(sp, cam, &r, &w, blobs, nblobs, &g, out);
on_host:
	s->on_host++;
	JD_TRY(bring_map(cu, s, &map));
	return jd_sense_run(sp, cam, &map, ws, ws_bytes, out, ex);
}
