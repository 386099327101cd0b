#include "sad_cuda.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../algo/cuda/sad_launch.h"
#include "../../algo/jd_status.h"

enum { CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8, THREADS = 256, REFINE_THREADS = 128 };

/* Two disparities a word: the strip kernels for windows whose sums fit 16 bits. */
static int packed(int win)
{
	return win <= JD_SAD_PACK_WINDOW_MAX;
}

/* The strip kernel's block: a thread a padded column of the tile, in whole warps. */
static unsigned strip_threads(int tile, int win)
{
	return (unsigned)(tile + win - 1 + 31) / 32 * 32;
}

/* The row kernel's shared-memory layout (algo/cuda/sad_cuda.cu). */
static size_t sad_smem(int w, int win)
{
	return (size_t)2 * win * w + sizeof(uint32_t) * (size_t)(w + win - 1) +
	       (size_t)4 * sizeof(uint32_t) * w;
}

/*
 * The strip kernel's for a tile of tw pixels: the column sums (odd row stride), the left
 * and right keys, the staged right rows (a 16-byte run longer than the tile, whole words).
 */
static size_t strip_smem(int tw, int win, int smax)
{
	size_t pw = (size_t)tw + win - 1, rrow = (pw + JD_SAD_DG + 7) / 4 * 4;
	size_t tws = (size_t)tw + JD_SAD_SEG; /* items slide past the tile's end */

	return sizeof(uint32_t) *
		   ((size_t)JD_SAD_DG * JD_SAD_VSTRIDE(pw, packed(win)) + 2 * tws + (size_t)smax) +
	       2 * rrow;
}

/*
 * Rows a block: whole waves of STRIP_RESIDENT blocks an SM (a half-empty last wave cost up to
 * 25 % at 720p), with strips short enough that a wave is not one long tail (at most 72 rows)
 * and long enough to pay for their first 2 rad + 1 rows (at least 8). Measured on the H100:
 * 1280x720/128 0.389 -> 0.342 ms at 66 rows, one wave.
 */
enum { STRIP_RESIDENT = 2, STRIP_ROWS_MIN = 8, STRIP_ROWS_MAX = 72 };

static int strip_rows(int h, int blocks_a_strip, int sms)
{
	int per_wave = STRIP_RESIDENT * sms / blocks_a_strip, rows = STRIP_ROWS_MIN;

	for (int waves = 1; per_wave > 0; waves++) {
		rows = (h + per_wave * waves - 1) / (per_wave * waves);
		if (rows <= STRIP_ROWS_MAX) {
			break;
		}
	}
	return rows < STRIP_ROWS_MIN ? STRIP_ROWS_MIN : rows;
}

/* Two disparities a word where the window sums fit 16 bits, the default window's slide in
 * registers (algo/cuda/sad_cuda.cu). */
static const char *strip_kernel(int win)
{
	if (win == 11) {
		return "jd_sad_strips16_w11_cuda";
	}
	return packed(win) ? "jd_sad_strips16_cuda" : "jd_sad_strips_cuda";
}

double jd_cuda_sad_traffic(const struct jd_match_params *p, int w, int h)
{
	double n = (double)w * h;
	double post = (p->sad.lr_check && p->sad.fill ? 8 * n : 0) + (p->sad.median ? 8 * n : 0);
	int groups = (p->ndisp + JD_SAD_DG - 1) / JD_SAD_DG;
	/* the pair in, the keys (cleared, merged per disparity group, read once), the map out,
	 * then fill and median */
	double keys = 8 * n * (2 + groups);

	return 2 * n + keys + 4 * n + post;
}

/* The fit's block: its window rows of the left image and, dmax columns wider, of the right. */
static size_t refine_smem(const struct jd_match_params *p)
{
	size_t win = (size_t)p->sad.window, dmax = (size_t)(p->min_disp + p->ndisp - 1);

	return win * (2 * (REFINE_THREADS + win - 1) + dmax);
}

int jd_cuda_sad_init(struct jd_cuda_sad *s, struct jd_cuda *cu, const struct jd_match_params *p,
		     int w, int h)
{
	memset(s, 0, sizeof(*s));
	s->cu = cu;
	s->w = w;
	s->h = h;
	JD_TRY(jd_cuda_function(cu, "jd_sad_refine_cuda", &s->refine));
	s->refine_smem = refine_smem(p);
	if (p->sad.subpixel && s->refine_smem > 48 * 1024) {
		if (s->refine_smem > (size_t)cu->smem_optin) {
			snprintf(
			    cu->err, sizeof(cu->err),
			    "sad --subpixel on %s: window %d up to disparity %d needs %zu bytes of "
			    "shared memory, the GPU has %d",
			    cu->name, p->sad.window, p->min_disp + p->ndisp - 1, s->refine_smem,
			    cu->smem_optin);
			return -EINVAL;
		}
		JD_TRY(JD_CU(cu, cuFuncSetAttribute(s->refine,
						    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
						    (int)s->refine_smem)));
	}
	int win = p->sad.window, tiles = (w + win - 1 + JD_SAD_STRIP_COLS - 1) / JD_SAD_STRIP_COLS;
	s->tile = (w + tiles - 1) / tiles;
	s->groups = (p->ndisp + JD_SAD_DG - 1) / JD_SAD_DG;
	size_t ssmem = strip_smem(s->tile, win, p->min_disp + s->groups * JD_SAD_DG - 1);
	/* within the kernels' launch bounds */
	s->strips = strip_threads(s->tile, win) <= (packed(win) ? JD_SAD_PACK_THREADS : 1024) &&
		    ssmem <= (size_t)cu->smem_optin;
	if (s->strips) {
		const char *env = getenv("JD_SAD_ROWS"); /* tuning experiments */
		s->rows = strip_rows(h, s->groups * tiles, cu->sm_count);
		s->rows = env && atoi(env) > 0 ? atoi(env) : s->rows;
		s->smem = ssmem;
		JD_TRY(jd_cuda_function(cu, strip_kernel(win), &s->fn));
		JD_TRY(jd_cuda_function(cu, "jd_sad_finish_cuda", &s->finish));
		JD_TRY(JD_CU(cu, cuFuncSetAttribute(s->fn,
						    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
						    (int)s->smem)));
		JD_TRY(jd_cuda_frame_take(cu, &s->frame, w, h));
		JD_TRY(jd_cuda_frame_rank_take(cu, &s->frame, p));
		JD_TRY(jd_cuda_take(cu, sizeof(float) * (size_t)w * h, &s->d_med));
		JD_TRY(jd_cuda_take(cu, 2 * sizeof(uint32_t) * (size_t)w * h, &s->d_keys));
		return jd_cuda_post_init(&s->post, cu);
	}
	s->smem = sad_smem(w, p->sad.window);
	if (s->smem > (size_t)cu->smem_optin) {
		snprintf(
		    cu->err, sizeof(cu->err),
		    "sad on %s: a %d-pixel row with window %d needs %zu bytes of shared memory, "
		    "the GPU has %d",
		    cu->name, w, p->sad.window, s->smem, cu->smem_optin);
		return -EINVAL;
	}
	JD_TRY(jd_cuda_function(cu, "jd_sad_rows_cuda", &s->fn));
	JD_TRY(JD_CU(cu, cuFuncSetAttribute(s->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
					    (int)s->smem)));
	JD_TRY(jd_cuda_frame_take(cu, &s->frame, w, h));
	JD_TRY(jd_cuda_frame_rank_take(cu, &s->frame, p));
	JD_TRY(jd_cuda_take(cu, sizeof(float) * (size_t)w * h, &s->d_med));
	return jd_cuda_post_init(&s->post, cu);
}

/* The strip kernel, then the keys to the map; blocks merge keys by atomicMin, so they start
 * cleared (all ones: no candidate). */
static int strips(struct jd_cuda_sad *s, const struct jd_match_params *p, jd_cudeviceptr dl,
		  jd_cudeviceptr dr, jd_cudeviceptr out)
{
	struct jd_cuda *cu = s->cu;
	int w = s->w, h = s->h, stride = s->w, nd = p->ndisp, md = p->min_disp;
	int win = p->sad.window, lr = p->sad.lr_check, rows = s->rows, ostride = s->w;
	int tile = s->tile;
	jd_cudeviceptr kl = s->d_keys, kr = s->d_keys + sizeof(uint32_t) * (size_t)w * h;
	void *args[] = {&dl, &dr, &w, &h, &stride, &nd, &md, &win, &rows, &tile, &kl, &kr};
	void *fargs[] = {&kl, &kr, &w, &h, &md, &lr, &out, &ostride};

	JD_TRY(JD_CU(cu, cuMemsetD8Async(s->d_keys, 0xff, 2 * sizeof(uint32_t) * (size_t)w * h,
					 cu->stream[0])));
	JD_TRY(
	    JD_CU(cu, cuLaunchKernel(s->fn, (unsigned)((h + rows - 1) / rows), (unsigned)s->groups,
				     (unsigned)((w + tile - 1) / tile), strip_threads(tile, win), 1,
				     1, (unsigned)s->smem, cu->stream[0], args, NULL)));
	return JD_CU(cu, cuLaunchKernel(s->finish, (unsigned)((w + 127) / 128), (unsigned)h, 1, 128,
					1, 1, 0, cu->stream[0], fargs, NULL));
}

int jd_cuda_sad_submit(struct jd_cuda_sad *s, const struct jd_match_params *p,
		       const struct jd_image *left, const struct jd_image *right)
{
	struct jd_cuda *cu = s->cu;
	struct jd_cuda_frame *f = &s->frame;
	int w = s->w, h = s->h, stride = s->w, nd = p->ndisp, md = p->min_disp;
	int win = p->sad.window, lr = p->sad.lr_check, ostride = s->w;
	jd_cudeviceptr result, dl, dr, raw, scratch;
	void *args[] = {&dl, &dr, &w, &h, &stride, &nd, &md, &win, &lr, &raw, &ostride};

	JD_TRY(jd_cuda_frame_rank_check(cu, f, p));
	JD_TRY(jd_cuda_frame_upload(cu, f, left, right));
	jd_cuda_frame_pair(f, &dl, &dr);
	jd_cuda_post_buffers(cu, p->sad.median, f->d_out, s->d_med, &raw, &scratch);
	if (s->strips) {
		JD_TRY(strips(s, p, dl, dr, raw));
	} else {
		JD_TRY(JD_CU(cu, cuLaunchKernel(s->fn, (unsigned)h, 1, 1, THREADS, 1, 1,
						(unsigned)s->smem, cu->stream[0], args, NULL)));
	}
	if (p->sad.subpixel) {
		void *ra[] = {&dl, &dr, &w, &h, &stride, &nd, &md, &win, &raw, &ostride};
		JD_TRY(
		    JD_CU(cu, cuLaunchKernel(s->refine,
					     (unsigned)((w + REFINE_THREADS - 1) / REFINE_THREADS),
					     (unsigned)h, 1, REFINE_THREADS, 1, 1,
					     (unsigned)s->refine_smem, cu->stream[0], ra, NULL)));
	}
	/* The rest of jd_sad_ref(): fill after the left-right check, median. */
	JD_TRY(jd_cuda_post_run(&s->post, cu, raw, scratch, w, h, p->sad.lr_check && p->sad.fill,
				p->sad.median, &result));
	return jd_cuda_frame_finish(cu, f, result);
}
