#include "sgm_cuda.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../algo/cuda/sgm_launch.h"
#include "../../algo/jd_status.h"
#include "../../algo/sgm/sgm_levels.h"

enum {
	THREADS = 128,
	SELECT_THREADS = 256, /* a row's selection */
	CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

/*
 * Disparities a lane of the path and selection kernels holds (K): 4 up to 128 disparities, 8 up
 * to 256, then 16, then 32. Fewer a lane means more lanes a scanline, so more threads in flight
 * to hide each step's chain of shuffles and minima, and more instructions a disparity (a step's
 * fixed work is shared by fewer). Measured on the H200 (docs/perf_log.md), 4 beat 8 at 640x480/64,
 * 1280x720/128 and 1920x1080/128, with 8 paths and with 4. JD_SGM_LANE_DISPARITIES (4 or 8)
 * overrides it where it fits, to measure the other.
 */
static int lane_disparities(const struct jd_match_params *p)
{
	const char *env = getenv("JD_SGM_LANE_DISPARITIES");
	int nd = p->ndisp, k = 4;

	if (env && (!strcmp(env, "4") || !strcmp(env, "8"))) {
		k = atoi(env);
	}
	while (32 * k < nd) {
		k *= 2;
	}
	return k;
}

/*
 * The kernels' shape for nd disparities, k a lane: G lanes a pixel (a power of two up to 32,
 * G k >= nd). The variant is 0 .. 5 for G = 1 .. 32 with k = 4, 6 .. 11 with k = 8, 12 for 16,
 * 13 for 32 (the order of algo/cuda/sgm_cuda.cu's instances).
 */
static int shape(int nd, int k, int *lanes)
{
	int g = 1, v = 0;

	while (g * k < nd) {
		g *= 2;
		v++;
	}
	*lanes = g;
	return k == 4 ? v : k == 8 ? 6 + v : k == 16 ? 12 : 13;
}

/*
 * The order the path kernel takes the directions in (four bits each, first lowest). Blocks
 * start in blockIdx order, so with 8 paths the long horizontal walks go first, then the
 * vertical ones, then the diagonals: measured on the H200 against the table's order,
 * 1280x720/128 1.67 -> 1.56 ms, 640x480/64 0.49 -> 0.46, 1920x1080/256 the same.
 */
static unsigned launch_order(int paths)
{
	return paths == 8 ? 0x76325140u : 0x3210u; /* 0, 4, 1, 5, 2, 3, 6, 7 */
}

/* Whether direction k adds levels (algo/sgm/sgm_priv.h: vertical, census, 8 paths). */
static int adds_levels(const struct jd_match_params *p, int k)
{
	static const int d8[8][2] = JD_SGM_DIRS8;

	return p->sgm.cost == JD_SGM_COST_CENSUS && p->sgm.paths == 8 && d8[k][0] == 0;
}

/*
 * The directions that add levels, and the others, each in launch order: the path kernel writes
 * the n-th of a kind into the n-th slice of that kind.
 */
static void split_dirs(const struct jd_match_params *p, struct jd_cuda_sgm *s)
{
	unsigned order = launch_order(p->sgm.paths);

	s->nbytes = s->nlevels = 0;
	s->dirs_bytes = s->dirs_levels = 0;
	for (int i = 0; i < p->sgm.paths; i++) {
		unsigned k = order >> 4 * i & 15;
		if (adds_levels(p, (int)k)) {
			s->dirs_levels |= k << 4 * s->nlevels++;
		} else {
			s->dirs_bytes |= k << 4 * s->nbytes++;
		}
	}
}

/* Bytes a min t plane takes: a byte a pixel, in columns (walk order). */
static size_t mt_plane(const struct jd_cuda_sgm *s)
{
	return (size_t)s->w * JD_SGM_MT_PITCH(s->h);
}

static size_t slice_bytes(int nd, int k, int w, int h)
{
	int g;

	shape(nd, k, &g);
	return (size_t)w * h * (size_t)(g * k);
}

/* The row selection's shared memory: a key (uint32) and a winner (int16) a pixel. */
static unsigned select_smem(int w)
{
	return (unsigned)(6 * (size_t)w);
}

double jd_cuda_sgm_traffic(const struct jd_match_params *p, int w, int h)
{
	const struct jd_sgm_params *g = &p->sgm;
	double n = (double)w * h;
	double slice = (double)slice_bytes(p->ndisp, lane_disparities(p), w, h);
	int nlevels = 0;
	double t = 0;

	for (int k = 0; k < g->paths; k++) {
		nlevels += adds_levels(p, k);
	}
	/* what a frame's paths write and the selection reads: slices of t, of levels, min t */
	double out = (g->paths - nlevels) * slice + nlevels * (slice / 2 + n);
	if (g->cost == JD_SGM_COST_CENSUS) {
		t += 2 * n + 16 * n; /* census of both views */
	}
	/* paths: each direction reads both views' census (or images) and writes its slice */
	t += g->paths * (g->cost == JD_SGM_COST_CENSUS ? 16 * n : 2 * n) + out;
	t += out + 4 * n; /* selection reads every slice once (right view on chip) */
	t += (g->fill ? 8 * n : 0) + (g->median ? 8 * n : 0);
	return t;
}

int jd_cuda_sgm_init(struct jd_cuda_sgm *s, struct jd_cuda *cu, const struct jd_match_params *p,
		     int w, int h)
{
	static const char *const names[JD_CUDA_SGM_NFN] = {
	    "jd_census_cuda",  "jd_sgm_path_c0",   "jd_sgm_path_c1",   "jd_sgm_path_c2",
	    "jd_sgm_path_c3",  "jd_sgm_path_c4",   "jd_sgm_path_c5",   "jd_sgm_path_c6",
	    "jd_sgm_path_c7",  "jd_sgm_path_c8",   "jd_sgm_path_c9",   "jd_sgm_path_c10",
	    "jd_sgm_path_c11", "jd_sgm_path_c12",  "jd_sgm_path_c13",  "jd_sgm_path_a0",
	    "jd_sgm_path_a1",  "jd_sgm_path_a2",   "jd_sgm_path_a3",   "jd_sgm_path_a4",
	    "jd_sgm_path_a5",  "jd_sgm_path_a6",   "jd_sgm_path_a7",   "jd_sgm_path_a8",
	    "jd_sgm_path_a9",  "jd_sgm_path_a10",  "jd_sgm_path_a11",  "jd_sgm_path_a12",
	    "jd_sgm_path_a13", "jd_sgm_path_m0",   "jd_sgm_path_m1",   "jd_sgm_path_m2",
	    "jd_sgm_path_m3",  "jd_sgm_path_m4",   "jd_sgm_path_m5",   "jd_sgm_path_m6",
	    "jd_sgm_path_m7",  "jd_sgm_path_m8",   "jd_sgm_path_m9",   "jd_sgm_path_m10",
	    "jd_sgm_path_m11", "jd_sgm_path_m12",  "jd_sgm_path_m13",  "jd_sgm_select_0",
	    "jd_sgm_select_1", "jd_sgm_select_2",  "jd_sgm_select_3",  "jd_sgm_select_4",
	    "jd_sgm_select_5", "jd_sgm_select_6",  "jd_sgm_select_7",  "jd_sgm_select_8",
	    "jd_sgm_select_9", "jd_sgm_select_10", "jd_sgm_select_11", "jd_sgm_select_12",
	    "jd_sgm_select_13"};
	size_t n = (size_t)w * h;

	memset(s, 0, sizeof(*s));
	s->cu = cu;
	s->w = w;
	s->h = h;
	s->nd = p->ndisp;
	for (int i = 0; i < JD_CUDA_SGM_NFN; i++) {
		JD_TRY(jd_cuda_function(cu, names[i], &s->fn[i]));
	}
	JD_TRY(jd_cuda_frame_take(cu, &s->frame, w, h));
	JD_TRY(jd_cuda_frame_rank_take(cu, &s->frame, p));
	JD_TRY(jd_cuda_take(cu, 8 * n, &s->d_cl));
	JD_TRY(jd_cuda_take(cu, 8 * n, &s->d_cr));
	s->k = lane_disparities(p);
	s->variant = shape(p->ndisp, s->k, &s->lanes);
	s->slice = slice_bytes(p->ndisp, s->k, w, h);
	split_dirs(p, s);
	s->levels_at = s->nbytes * s->slice;
	s->mt_at = s->levels_at + s->nlevels * (s->slice / 2);
	JD_TRY(jd_cuda_take(cu, s->mt_at + s->nlevels * mt_plane(s), &s->d_vol));
	JD_TRY(jd_cuda_take(cu, 4 * n, &s->d_spare));
	unsigned smem = select_smem(w);
	jd_cufunction sel = s->fn[JD_CUDA_SGM_SELECT + s->variant];
	if (smem > 48 * 1024) {
		if (smem > (unsigned)cu->smem_optin) {
			snprintf(
			    cu->err, sizeof(cu->err),
			    "SGM selection needs %u bytes of shared memory a row at width %d, %s "
			    "gives %d",
			    smem, w, cu->name, cu->smem_optin);
			return -ENOMEM;
		}
		JD_TRY(JD_CU(cu, cuFuncSetAttribute(sel,
						    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
						    (int)smem)));
	}
	return jd_cuda_post_init(&s->post, cu);
}

static int launch(struct jd_cuda *cu, jd_cufunction f, unsigned gx, unsigned gy, unsigned block,
		  unsigned smem, void **args)
{
	return JD_CU(cu,
		     cuLaunchKernel(f, gx, gy, 1, block, 1, 1, smem, cu->stream[0], args, NULL));
}

int jd_cuda_sgm_slice_of(const struct jd_cuda_sgm *s, int dir, size_t *at, size_t *mt)
{
	for (int i = 0; i < s->nlevels; i++) {
		if ((int)(s->dirs_levels >> 4 * i & 15) == dir) {
			*at = s->levels_at + i * (s->slice / 2);
			*mt = s->mt_at + i * mt_plane(s);
			return 1;
		}
	}
	for (int i = 0; i < s->nbytes; i++) {
		if ((int)(s->dirs_bytes >> 4 * i & 15) == dir) {
			*at = i * s->slice;
			return 0;
		}
	}
	*at = 0;
	return 0;
}

int jd_cuda_sgm_summand(const struct jd_cuda_sgm *s, int levels, const uint8_t *slice,
			const uint8_t *mt, size_t i, int d)
{
	int b = jd_cuda_sgm_byte_of(s, d), gs = jd_cuda_sgm_pixel_bytes(s);

	if (!levels) {
		return slice[i * gs + b];
	}
	int c = slice[i * (gs / 2) + b / 2] >> 4 * (b % 2) & 15;
	size_t x = i % (size_t)s->w, y = i / (size_t)s->w;
	return mt[x * JD_SGM_MT_PITCH(s->h) + y] + jd__sgm_decode(c);
}

/*
 * count directions (dirs: four bits each) with the path kernel of the volume's kind (with
 * levels where some directions add them): the n-th of a kind into the n-th slice of bytes or
 * of levels (and the n-th min t plane of mt).
 */
static int launch_paths(struct jd_cuda_sgm *s, const struct jd_match_params *p, unsigned dirs,
			int count, jd_cudeviceptr bytes, jd_cudeviceptr levels, jd_cudeviceptr mt)
{
	const struct jd_sgm_params *g = &p->sgm;
	int w = s->w, h = s->h, nd = s->nd, stride = s->w;
	int p1 = g->p1, p2 = g->p2, adapt = g->p2_adapt, paths = g->paths;
	int lines = w + h - 1; /* the most any direction has: the diagonals */
	int md = p->min_disp, v = s->variant;
	int per_block = (JD_SGM_PATH_THREADS / 32) * (32 / s->lanes); /* scanlines */
	int fn = (s->nlevels > 0		  ? JD_CUDA_SGM_PATH_LEVELS
		  : g->cost == JD_SGM_COST_CENSUS ? JD_CUDA_SGM_PATH_CENSUS
						  : JD_CUDA_SGM_PATH_AD) +
		 v;
	long long slice = (long long)s->slice;
	void *ap[] = {&s->d_cl, &s->d_cr, &s->d_guide, &s->d_right, &stride, &w,
		      &h,	&nd,	  &md,	       &paths,	    &p1,     &p2,
		      &adapt,	&dirs,	  &slice,      &bytes,	    &levels, &mt};

	return launch(s->cu, s->fn[fn], (unsigned)((lines + per_block - 1) / per_block),
		      (unsigned)count, JD_SGM_PATH_THREADS, 0, ap);
}

int jd_cuda_sgm_path_one(struct jd_cuda_sgm *s, const struct jd_match_params *p, int dir)
{
	size_t at, mt = 0;

	if (dir < 0 || dir >= p->sgm.paths) {
		return -EINVAL;
	}
	jd_cuda_sgm_slice_of(s, dir, &at, &mt);
	return launch_paths(s, p, (unsigned)dir, 1, s->d_vol + at, s->d_vol + at, s->d_vol + mt);
}

/* Every direction in one launch. */
static int run_paths(struct jd_cuda_sgm *s, const struct jd_match_params *p)
{
	return launch_paths(s, p, launch_order(p->sgm.paths), p->sgm.paths, s->d_vol,
			    s->d_vol + s->levels_at, s->d_vol + s->mt_at);
}

int jd_cuda_sgm_pixel_bytes(const struct jd_cuda_sgm *s)
{
	return s->lanes * s->k;
}

int jd_cuda_sgm_byte_of(const struct jd_cuda_sgm *s, int d)
{
	return s->k * (d % s->lanes) + d / s->lanes;
}

int jd_cuda_sgm_submit(struct jd_cuda_sgm *s, const struct jd_match_params *p,
		       const struct jd_image *left, const struct jd_image *right)
{
	struct jd_cuda *cu = s->cu;
	struct jd_cuda_frame *f = &s->frame;
	const struct jd_sgm_params *g = &p->sgm;
	int w = s->w, h = s->h, nd = s->nd, md = p->min_disp, stride = s->w;
	int census = g->cost == JD_SGM_COST_CENSUS;
	unsigned gx = (unsigned)((w + THREADS - 1) / THREADS); /* a thread per pixel */
	jd_cudeviceptr result, dl, dr;

	JD_TRY(jd_cuda_frame_rank_check(cu, f, p));
	JD_TRY(jd_cuda_frame_upload(cu, f, left, right));
	jd_cuda_frame_pair(f, &dl, &dr);
	s->d_guide = dl;
	s->d_right = dr;
	if (census) {
		void *al[] = {&dl, &w, &h, &stride, &s->d_cl};
		void *ar[] = {&dr, &w, &h, &stride, &s->d_cr};
		JD_TRY(launch(cu, s->fn[JD_CUDA_SGM_CENSUS], gx, (unsigned)h, THREADS, 0, al));
		JD_TRY(launch(cu, s->fn[JD_CUDA_SGM_CENSUS], gx, (unsigned)h, THREADS, 0, ar));
	}
	JD_TRY(run_paths(s, p));
	int uniq = g->uniqueness, sub = g->subpixel, lr = g->lr_check, lrd = g->lr_max_diff;
	jd_cudeviceptr raw, scratch;
	jd_cuda_post_buffers(cu, g->median, f->d_out, s->d_spare, &raw, &scratch);
	long long slice = (long long)s->slice;
	jd_cudeviceptr lev = s->d_vol + s->levels_at, dmt = s->d_vol + s->mt_at;
	void *as[] = {&s->d_vol, &slice, &s->nbytes, &lev, &s->nlevels, &dmt, &w,
		      &nd,	 &md,	 &uniq,	     &sub, &lr,		&lrd, &raw};
	JD_TRY(launch(cu, s->fn[JD_CUDA_SGM_SELECT + s->variant], (unsigned)h, 1, SELECT_THREADS,
		      select_smem(w), as));
	/* The rest of jd_sgm_ref(): fill, median (into the spare map). */
	JD_TRY(jd_cuda_post_run(&s->post, cu, raw, scratch, w, h, g->fill, g->median, &result));
	return jd_cuda_frame_finish(cu, f, result);
}
