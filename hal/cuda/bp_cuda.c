#include "bp_cuda.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../algo/bp/bp.h"
#include "../../algo/cuda/bp_launch.h"
#include "../../algo/jd_status.h"
#include "../../algo/match/prefilter.h"

enum {
	CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
	THREADS = 128,
};

static int costs_made(int nd);

/* The reference's level geometry (bp.c layout()): slots per (row, colour, d) padded to 16. */
static int level_hp(int w)
{
	return ((w + 1) / 2 + 2 + 15) & ~15;
}

static size_t level_bytes(int w, int h, int nd, int es)
{
	return (size_t)2 * h * nd * level_hp(w) * es;
}

double jd_cuda_bp_traffic(const struct jd_match_params *p, int w, int h)
{
	double es = p->bp.fp16 ? 2 : 4, nd = p->ndisp, n0 = (double)w * h, prev = 0, t;

	int made = costs_made(p->ndisp); /* level 0's costs: made from the images, not stored */

	t = 2 * n0 + 8 * n0 + (made ? 0 : 8 * n0 + n0 * nd * es); /* images, floats, volume */
	for (int l = 0; l < p->bp.levels; l++) {
		double n = (double)w * h, vec = nd * es, stored = l || !made;

		if (l > 0) {
			/* coarse costs from the finer level's (from the images where made) */
			t += (l == 1 && made ? 8 * n0 : prev * vec) + n * vec;
		}
		if (l == p->bp.levels - 1) {
			t += 4 * n * vec; /* zeroed messages */
		}
		/* senders: their data costs (or the images) and four vectors in, four out */
		t += p->bp.iters * ((n / 2) * (stored ? 9 : 8) * vec + (stored ? 0 : 8 * n));
		prev = n;
		w = (w + 1) / 2;
		h = (h + 1) / 2;
	}
	/*
	 * selection: four vectors and the data costs, the map; where level 0's costs are made
	 * (the staged kernel), the last iteration selects for its senders from what it has
	 * read, and the selection kernel reads four vectors and the images for the others
	 */
	return t + (made ? n0 / 2 * 4 * nd * es + 8 * n0 : n0 * 5 * nd * es) + 4 * n0;
}

/*
 * The message kernels in the fatbin (bp_cuda.cu's BP_ITER_ALL) for nd: the staged kernel (px
 * > 0: a block a tile of px pixels, its inputs copied into shared memory, h in registers; seg
 * > 1: seg threads a message, each a segment of the disparities; half: two messages a thread
 * in half2 arithmetic, on the levels where that is exact) and the register kernel
 * (nreg values of h in registers, the rest in shared memory), registers capped for minb
 * blocks an SM. The first that fits the GPU's shared memory is the default;
 * $JD_BP_VARIANT (e.g. "r128_b1") picks another. Register splits that made ptxas spill
 * (r64_b4 and r32_b6 at 128, r64_b3 and r32_b4 at 256) ran 2-3x slower and were dropped.
 */
static const struct {
	int nd, px, nreg, minb, seg, half;
} bp_variants[] = {
    {16, 0, 16, 8, 1, 0},   {16, 0, 16, 4, 1, 0},  {16, 32, 0, 8, 1, 0},  {32, 0, 32, 4, 1, 0},
    {32, 0, 32, 6, 1, 0},   {32, 32, 0, 6, 1, 0},  {64, 32, 0, 4, 4, 1},  {64, 32, 0, 4, 2, 0},
    {64, 32, 0, 4, 2, 1},   {64, 32, 0, 4, 1, 0},  {64, 0, 64, 4, 1, 0},  {64, 0, 64, 2, 1, 0},
    {128, 64, 0, 2, 4, 1},  {128, 32, 0, 3, 4, 1}, {128, 32, 0, 3, 2, 0}, {128, 64, 0, 1, 4, 0},
    {128, 32, 0, 2, 8, 1},  {128, 32, 0, 2, 4, 0}, {128, 32, 0, 3, 1, 0}, {128, 0, 96, 3, 1, 0},
    {128, 0, 128, 1, 1, 0}, {256, 0, 96, 1, 1, 0},
};
enum { NVARIANTS = sizeof(bp_variants) / sizeof(bp_variants[0]) };

static void variant_tag(int i, char *tag, size_t n)
{
	if (bp_variants[i].px && bp_variants[i].seg > 1) {
		snprintf(tag, n, "s%d_%c%d_b%d", bp_variants[i].px, bp_variants[i].half ? 'h' : 'g',
			 bp_variants[i].seg, bp_variants[i].minb);
	} else if (bp_variants[i].px) {
		snprintf(tag, n, "s%d_b%d", bp_variants[i].px, bp_variants[i].minb);
	} else {
		snprintf(tag, n, "r%d_b%d", bp_variants[i].nreg, bp_variants[i].minb);
	}
}

/*
 * Whether level 0's data costs are made from the images where they are used (no w x h x nd
 * volume): at the counts with a staged kernel (their register kernels have an _img twin for
 * level 0). Above 128 and on the generic path, making them inside the message kernel spilled
 * (450x375/256: 5.5 -> 9.7 ms), so level 0 keeps its volume there.
 */
static int costs_made(int nd)
{
	for (int i = 0; i < NVARIANTS; i++) {
		if (bp_variants[i].nd == nd && bp_variants[i].px) {
			return 1;
		}
	}
	return 0;
}

/*
 * Elements of a staged tile's row (bp_cuda.cu's bp_tile<T, PX>::w): px + 1 slots, or the
 * parent's two colours of px / 2 + 1, each rounded up to 16-byte copies.
 */
static int tile_w(int px, int es)
{
	int per = 16 / es, own = (px + 1 + per - 1) / per * per;
	int parent = (px / 2 + 1 + per - 1) / per * per;

	return own > 2 * parent ? own : 2 * parent;
}

/* Dynamic shared memory of variant i (-1: the generic kernel) a block. */
static size_t variant_smem(int i, int nd, int es)
{
	if (i < 0) {
		return sizeof(float) * (size_t)nd * 8 * 4; /* h of 8 pixels x 4 directions */
	}
	if (bp_variants[i].px) {
		/*
		 * data and four incoming tiles, then level 0's image row segments and the
		 * segments' three carries (floats)
		 */
		int seg = bp_variants[i].seg, px = bp_variants[i].px;
		int slots = (bp_variants[i].half ? 2 : 4) * px; /* messages (pairs) a segment */

		return 5 * (size_t)nd * tile_w(px, es) * es +
		       sizeof(float) * (size_t)(4 * px + nd + (seg > 1 ? 3 * seg * slots : 0));
	}
	return sizeof(float) * (size_t)(nd - bp_variants[i].nreg) * 32 * 4;
}

int jd_cuda_bp_variants(int nd, char names[][JD_CUDA_BP_VARIANT_LEN], int max)
{
	int n = 0;

	for (int i = 0; i < NVARIANTS && n < max; i++) {
		if (bp_variants[i].nd == nd) {
			variant_tag(i, names[n++], JD_CUDA_BP_VARIANT_LEN);
		}
	}
	if (n < max) {
		snprintf(names[n++], JD_CUDA_BP_VARIANT_LEN, "any"); /* the generic kernel */
	}
	return n;
}

/*
 * want: a variant jd_cuda_bp_variants() names, NULL for the default (the first of the
 * count's that fits the GPU's shared memory, $JD_BP_VARIANT overriding it), or "any" for the
 * generic kernel.
 */
static int choose_wide(struct jd_cuda_bp *s, struct jd_cuda *cu, const char *st, int half);

static int choose_iter(struct jd_cuda_bp *s, struct jd_cuda *cu, const char *st, const char *want)
{
	int pick = -1;
	char tag[32] = "any";

	want = want ? want : getenv("JD_BP_VARIANT");
	want = want && *want ? want : NULL;
	for (int i = 0; i < NVARIANTS && !(want && !strcmp(want, "any")); i++) {
		variant_tag(i, tag, sizeof(tag));
		if (bp_variants[i].nd == s->nd &&
		    (want ? !strcmp(want, tag)
			  : variant_smem(i, s->nd, s->es) <= (size_t)cu->smem_optin)) {
			pick = i;
			break;
		}
	}
	if (want && pick < 0 && strcmp(want, "any")) {
		snprintf(cu->err, sizeof(cu->err),
			 "bp: no message-kernel variant '%s' for ndisp %d %s", want, s->nd, st);
		return -ENOENT;
	}
	if (pick < 0) {
		snprintf(s->iter_name, sizeof(s->iter_name), "jd_bp_iter_%s_any", st);
	} else {
		variant_tag(pick, tag, sizeof(tag));
		snprintf(s->iter_name, sizeof(s->iter_name), "jd_bp_iter_%s_%d_%s", st, s->nd, tag);
	}
	s->iter_px = pick < 0 ? 8 : bp_variants[pick].px ? bp_variants[pick].px : 32;
	s->iter_staged = pick >= 0 && bp_variants[pick].px;
	s->iter_seg = pick >= 0 ? bp_variants[pick].seg : 1;
	s->iter_half = pick >= 0 && bp_variants[pick].half;
	s->iter_smem = (unsigned)variant_smem(pick, s->nd, s->es);
	if (s->iter_smem > (unsigned)cu->smem_optin) {
		snprintf(cu->err, sizeof(cu->err),
			 "bp: message kernel %s needs %u bytes of shared memory a block, the GPU "
			 "has %d",
			 s->iter_name, s->iter_smem, cu->smem_optin);
		return -EINVAL;
	}
	/*
	 * level 0 where its costs are made: the staged kernel makes them itself, the others
	 * have an _img twin
	 */
	char name0[72];
	snprintf(name0, sizeof(name0), "%s%s", s->iter_name,
		 s->iter_staged || !costs_made(s->nd) ? "" : "_img");
	JD_TRY(jd_cuda_function(cu, s->iter_name, &s->fn[JD_CUDA_BP_ITER]));
	JD_TRY(jd_cuda_function(cu, name0, &s->fn[JD_CUDA_BP_ITER0]));
	for (int f = JD_CUDA_BP_ITER0; f <= JD_CUDA_BP_ITER; f++) {
		JD_TRY(JD_CU(cu, cuFuncSetAttribute(s->fn[f],
						    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
						    (int)s->iter_smem)));
	}
	return s->iter_half ? choose_wide(s, cu, st, pick) : 0;
}

/*
 * A half-arithmetic kernel's twin for the levels where half is not exact: the count's first
 * float-arithmetic staged kernel that fits (the same tile of pixels).
 */
static int choose_wide(struct jd_cuda_bp *s, struct jd_cuda *cu, const char *st, int half)
{
	char tag[32], name[72];

	for (int i = 0; i < NVARIANTS; i++) {
		size_t smem = variant_smem(i, s->nd, s->es);

		if (bp_variants[i].nd != s->nd || !bp_variants[i].px || bp_variants[i].half ||
		    bp_variants[i].px != bp_variants[half].px || smem > (size_t)cu->smem_optin) {
			continue;
		}
		variant_tag(i, tag, sizeof(tag));
		snprintf(name, sizeof(name), "jd_bp_iter_%s_%d_%s", st, s->nd, tag);
		s->wide_seg = bp_variants[i].seg;
		s->wide_smem = (unsigned)smem;
		JD_TRY(jd_cuda_function(cu, name, &s->fn[JD_CUDA_BP_ITER_WIDE]));
		return JD_CU(cu, cuFuncSetAttribute(s->fn[JD_CUDA_BP_ITER_WIDE],
						    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
						    (int)smem));
	}
	snprintf(cu->err, sizeof(cu->err), "bp: no float twin for message kernel %s", s->iter_name);
	return -ENOENT;
}

int jd_cuda_bp_init(struct jd_cuda_bp *s, struct jd_cuda *cu, const struct jd_match_params *p,
		    int w, int h, const char *variant)
{
	const char *st = p->bp.fp16 ? "f16" : "f32";
	const char *names[] = {"jd_bp_to_float_cuda",
			       "jd_bp_census_cuda",
			       "jd_bp_data0_%s",
			       "jd_bp_coarse_%s",
			       "jd_bp_copy_msgs_%s",
			       NULL,
			       NULL,
			       NULL,
			       "jd_bp_select_%s",
			       "jd_bp_smooth_cuda"};
	size_t n = (size_t)w * h;

	memset(s, 0, sizeof(*s));
	s->cu = cu;
	s->w = w;
	s->h = h;
	s->nd = p->ndisp;
	s->levels = p->bp.levels;
	s->es = p->bp.fp16 ? 2 : 4;
	for (int i = 0; i < JD_CUDA_BP_NFN; i++) {
		char name[40];

		if (!names[i]) {
			continue;
		}
		snprintf(name, sizeof(name), names[i], st);
		JD_TRY(jd_cuda_function(cu, name, &s->fn[i]));
	}
	JD_TRY(choose_iter(s, cu, st, variant));
	for (int l = 0; l < s->levels; l++) {
		struct jd_cuda_bp_level *lv = &s->lv[l];
		size_t bytes = level_bytes(w, h, s->nd, s->es);
		jd_cudeviceptr base;

		lv->w = w;
		lv->h = h;
		lv->hp = level_hp(w);
		int stored = l || !costs_made(s->nd); /* else made where they are used */

		JD_TRY(jd_cuda_take(cu, (stored ? 5 : 4) * bytes, &base));
		for (int k = 0; k < 4; k++) {
			lv->msg[k] = base + k * bytes;
		}
		lv->data = stored ? base + 4 * bytes : 0;
		w = (w + 1) / 2;
		h = (h + 1) / 2;
	}
	JD_TRY(jd_cuda_frame_take(cu, &s->frame, s->w, s->h));
	JD_TRY(jd_cuda_frame_rank_take(cu, &s->frame, p));
	JD_TRY(jd_cuda_take(cu, 4 * n, &s->d_tmp));
	for (int k = 0; k < 2; k++) {
		JD_TRY(jd_cuda_take(cu, 4 * n, &s->d_f[k]));
		if (jd_prefilter_census_on(p)) {
			JD_TRY(jd_cuda_take(cu, 4 * n, &s->d_cen[k]));
		}
	}
	/*
	 * Messages from outside the image are 0 at every level and nothing ever writes their
	 * slots (sends off the edge land in the sinks): zero every level once, here.
	 */
	for (int l = 0; l < s->levels; l++) {
		size_t bytes = level_bytes(s->lv[l].w, s->lv[l].h, s->nd, s->es);

		JD_TRY(JD_CU(cu, cuMemsetD8Async(s->lv[l].msg[0], 0, 4 * bytes, cu->stream[0])));
	}
	return JD_CU(cu, cuStreamSynchronize(cu->stream[0]));
}

static int launch3(struct jd_cuda *cu, jd_cufunction f, unsigned gx, unsigned gy, unsigned gz,
		   unsigned bx, unsigned by, unsigned bz, unsigned smem, void **args)
{
	return JD_CU(cu,
		     cuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem, cu->stream[0], args, NULL));
}

static int launch(struct jd_cuda *cu, jd_cufunction f, unsigned gx, unsigned gy, unsigned gz,
		  unsigned bx, unsigned by, unsigned smem, void **args)
{
	return launch3(cu, f, gx, gy, gz, bx, by, 1, smem, args);
}

/*
 * Level-0 float images on the device: the 8-bit pair uploaded (rectified and ranked there
 * when the frame staging does), converted, and smoothed where sigma > 0, as
 * jd_bp_prepare_image() does. s->d_in[] point at them for the data-cost kernel.
 */
static int upload_floats(struct jd_cuda_bp *s, const struct jd_match_params *p,
			 const struct jd_image *left, const struct jd_image *right)
{
	struct jd_cuda *cu = s->cu;
	struct jd_cuda_frame *f = &s->frame;
	unsigned gx = (unsigned)((s->w + THREADS - 1) / THREADS), gy = (unsigned)s->h;
	int n = s->w * s->h;
	struct jd_bp_gauss g;
	jd_cudeviceptr u8[2];

	JD_TRY(jd_cuda_frame_rank_check(cu, f, p));
	JD_TRY(jd_cuda_frame_upload(cu, f, left, right));
	jd_cuda_frame_pair(f, &u8[0], &u8[1]);
	jd_bp_gauss(p->bp.sigma, &g);
	for (int k = 0; k < 2; k++) {
		void *a[] = {&u8[k], &n, &s->d_f[k]};
		void *rows[] = {&s->d_f[k], &s->d_tmp, &s->w, &s->h, &g, &(int){0}};
		void *cols[] = {&s->d_tmp, &s->d_f[k], &s->w, &s->h, &g, &(int){1}};

		JD_TRY(launch(cu, s->fn[JD_CUDA_BP_TO_FLOAT], (unsigned)((n + 255) / 256), 1, 1,
			      256, 1, 0, a));
		if (g.rad) {
			JD_TRY(
			    launch(cu, s->fn[JD_CUDA_BP_SMOOTH], gx, gy, 1, THREADS, 1, 0, rows));
			JD_TRY(
			    launch(cu, s->fn[JD_CUDA_BP_SMOOTH], gx, gy, 1, THREADS, 1, 0, cols));
		}
		s->d_in[k] = s->d_f[k];
	}
	return 0;
}

/* What the level-0 costs compare: the float images, or their census codes. */
static int upload(struct jd_cuda_bp *s, const struct jd_match_params *p,
		  const struct jd_image *left, const struct jd_image *right)
{
	struct jd_cuda *cu = s->cu;

	if (jd_prefilter_census_on(p) && !s->d_cen[0]) {
		snprintf(cu->err, sizeof(cu->err),
			 "bp: the census cost needs its code buffers, boot took none");
		return -EINVAL;
	}
	JD_TRY(upload_floats(s, p, left, right));
	for (int k = 0; k < 2 && jd_prefilter_census_on(p); k++) {
		void *a[] = {&s->d_in[k], &s->w, &s->h, &s->d_cen[k]};

		JD_TRY(launch(cu, s->fn[JD_CUDA_BP_CENSUS],
			      (unsigned)((s->w + THREADS - 1) / THREADS), (unsigned)s->h, 1,
			      THREADS, 1, 0, a));
		s->d_in[k] = s->d_cen[k];
	}
	return 0;
}

/* The coarser levels' data costs, and level 0's where they are stored (not made). */
static int data_pyramid(struct jd_cuda_bp *s)
{
	struct jd_cuda *cu = s->cu;
	struct jd_cuda_bp_level *l0 = &s->lv[0];
	int nd = s->nd;

	if (l0->data) {
		void *a0[] = {&s->c0, &nd, &l0->hp, &l0->data};

		JD_TRY(launch(cu, s->fn[JD_CUDA_BP_DATA0],
			      (unsigned)((l0->hp + THREADS - 1) / THREADS), (unsigned)(2 * l0->h),
			      (unsigned)((nd + JD_BP_DCHUNK - 1) / JD_BP_DCHUNK), THREADS, 1, 0,
			      a0));
	}
	for (int l = 1; l < s->levels; l++) {
		struct jd_cuda_bp_level *f = &s->lv[l - 1], *c = &s->lv[l];
		void *a[] = {&f->data, &f->w, &f->h, &f->hp, &c->data, &c->w, &c->hp, &nd, &s->c0};

		JD_TRY(launch(cu, s->fn[JD_CUDA_BP_COARSE],
			      (unsigned)((c->hp + THREADS - 1) / THREADS), (unsigned)(2 * c->h),
			      (unsigned)((nd + JD_BP_DCHUNK - 1) / JD_BP_DCHUNK), THREADS, 1, 0,
			      a));
	}
	return 0;
}

/*
 * Whether level l's message arithmetic is exact in half (the _h kernels): every value is on
 * the 1/16 grid, and h = D + three messages stays below 128, where half holds every multiple
 * of 1/16. A level's costs are at most 4^l times level 0's largest (the truncation), a
 * message at most disc_k.
 */
static int half_exact(const struct jd_match_params *p, int l)
{
	float dmax = jd_bp_truncated_cost(p, p->bp.data_k) * (float)(1 << (2 * l));

	return dmax + 3.0f * jd_bp_disc_k(p) < 128.0f;
}

/*
 * One level: messages start from the parent's (read by iteration 0 in place, or copied first
 * when there is only one iteration: the selection then reads them), or from 0 at the top.
 */
static int run_level(struct jd_cuda_bp *s, const struct jd_match_params *p, int l)
{
	struct jd_cuda *cu = s->cu;
	struct jd_cuda_bp_level *lv = &s->lv[l];
	struct jd_cuda_bp_level *pa = l + 1 < s->levels ? &s->lv[l + 1] : NULL;
	int nd = s->nd, es = s->es, php = pa ? pa->hp : 0;
	float disc_k = jd_bp_disc_k(p);
	unsigned long long bytes = level_bytes(lv->w, lv->h, nd, es);
	jd_cudeviceptr none = 0, *par[4] = {&none, &none, &none, &none};
	/* the staged kernel selects for its senders in level 0's last iteration */
	jd_cudeviceptr sel = s->iter_staged ? s->frame.d_out : 0;
	int wide = s->iter_half && !half_exact(p, l);

	if (!pa) {
		JD_TRY(JD_CU(cu, cuMemsetD8Async(lv->msg[0], 0, 4 * (size_t)bytes, cu->stream[0])));
	} else if (p->bp.iters == 1) {
		unsigned long long pstep = level_bytes(pa->w, pa->h, nd, es);
		void *a[] = {&pa->msg[0], &pa->hp, &pstep, &lv->msg[0],
			     &lv->w,	  &lv->hp, &bytes, &nd};

		JD_TRY(launch(cu, s->fn[JD_CUDA_BP_COPY],
			      (unsigned)((lv->hp + THREADS - 1) / THREADS), (unsigned)(2 * lv->h),
			      (unsigned)(4 * nd), THREADS, 1, 0, a));
	} else {
		for (int k = 0; k < 4; k++) {
			par[k] = &pa->msg[k];
		}
	}
	for (int t = 0; t < p->bp.iters; t++) {
		void *a[] = {&lv->data,
			     &lv->msg[0],
			     &lv->msg[1],
			     &lv->msg[2],
			     &lv->msg[3],
			     t == 0 ? par[0] : &none,
			     t == 0 ? par[1] : &none,
			     t == 0 ? par[2] : &none,
			     t == 0 ? par[3] : &none,
			     &lv->w,
			     &lv->h,
			     &lv->hp,
			     &php,
			     &nd,
			     &t,
			     &disc_k,
			     &s->c0,
			     l == 0 && t == p->bp.iters - 1 ? &sel : &none};
		jd_cufunction f = s->fn[wide ? JD_CUDA_BP_ITER_WIDE
					: l  ? JD_CUDA_BP_ITER
					     : JD_CUDA_BP_ITER0];
		unsigned tiles = (unsigned)(((lv->w + 1) / 2 + s->iter_px - 1) / s->iter_px);
		unsigned tiles_all = tiles * (unsigned)lv->h;

		if (s->iter_staged) { /* a block a tile, in a 1-D grid */
			JD_TRY(launch3(cu, f, tiles_all, 1, 1, (unsigned)s->iter_px,
				       s->iter_half && !wide ? 2 : 4,
				       (unsigned)(wide ? s->wide_seg : s->iter_seg),
				       wide ? s->wide_smem : s->iter_smem, a));
		} else {
			JD_TRY(launch(cu, f, tiles, (unsigned)lv->h, 1, (unsigned)s->iter_px, 4,
				      s->iter_smem, a));
		}
	}
	return 0;
}

int jd_cuda_bp_submit(struct jd_cuda_bp *s, const struct jd_match_params *p,
		      const struct jd_image *left, const struct jd_image *right)
{
	struct jd_cuda *cu = s->cu;
	struct jd_cuda_bp_level *l0 = &s->lv[0];
	int h = s->h, nd = s->nd, md = p->min_disp;

	JD_TRY(upload(s, p, left, right));
	s->c0 = (struct jd_bp_cost0){s->d_in[0],
				     s->d_in[1],
				     s->w,
				     md,
				     p->bp.lambda,
				     p->bp.data_k,
				     jd_prefilter_census_on(p),
				     p->bp.subpixel};
	JD_TRY(data_pyramid(s));
	for (int l = s->levels - 1; l >= 0; l--) {
		JD_TRY(run_level(s, p, l));
	}
	/* the colour the last iteration's senders were not (staged), or both (-1) */
	int only = s->iter_staged ? ((p->bp.iters - 1) & 1) ^ 1 : -1;
	void *a[] = {&l0->data, &l0->msg[0], &l0->msg[1], &l0->msg[2],	   &l0->msg[3], &l0->w,
		     &l0->hp,	&nd,	     &md,	  &s->frame.d_out, &s->c0,	&only};
	JD_TRY(launch(cu, s->fn[JD_CUDA_BP_SELECT], (unsigned)((l0->hp + THREADS - 1) / THREADS),
		      (unsigned)(only < 0 ? 2 * h : h), 1, THREADS, 1, 0, a));
	return jd_cuda_frame_finish(cu, &s->frame, s->frame.d_out);
}
