/*
 * Rectification on the GPU (hal/cuda/rectify_cuda.h) against jd_remap_ref(): the raw pair goes up,
 * the device remaps it and matches; the rectified pair that comes back must be the
 * reference's bytes (from gray, or from each camera's own GREY, YUYV, UYVY, deep mono or raw
 * Bayer frame written into the slot, whose luma the device takes by the CPU's rules), and the
 * map the reference matcher's on the
 * reference-rectified pair (SAD, SGM and BP, pipelined two deep). Tables: a smooth
 * rotation-plus-distortion field like a calibration's, and a random one with positions outside, on
 * the last row and column and at every 1/32 fraction. No allocation after boot. Without a GPU:
 * skipped (exit 77), saying why.
 */
#include <math.h>

#include "convert.h"
#include "cuda/rectify_cuda.h"
#include "gpu_util.h"
#include "matcher.h"
#include "rectify.h"
#include "sad.h"
#include "sgm.h"
#include "workers.h"

/* Tables for both cameras: kind 0 smooth (camera c rotated the other way), 1 random. */
static void make_tables(int w, int h, int kind, unsigned seed, struct jd_remap map[2])
{
	size_t n = (size_t)w * h;

	for (int c = 0; c < 2; c++) {
		map[c] = (struct jd_remap){w, h, malloc(sizeof(int32_t) * n),
					   malloc(sizeof(int32_t) * n)};
		float *mx = malloc(sizeof(float) * n), *my = malloc(sizeof(float) * n);
		float a = c ? -0.02f : 0.02f, cx = w / 2.0f, cy = h / 2.0f;

		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++) {
				size_t i = (size_t)y * w + x;
				float dx = x - cx, dy = y - cy;
				float r2 = (dx * dx + dy * dy) / (cx * cx + cy * cy);

				if (kind == 0) {
					mx[i] =
					    cx + (cosf(a) * dx - sinf(a) * dy) * (1 + 0.05f * r2);
					my[i] =
					    cy + (sinf(a) * dx + cosf(a) * dy) * (1 + 0.05f * r2);
				} else {
					unsigned v = jd_test_rand(&seed);
					mx[i] = (float)((int)(v % (unsigned)(w + 8)) - 4) +
						(float)(v >> 27) / 32.0f;
					my[i] = (float)((int)((v >> 8) % (unsigned)(h + 8)) - 4) +
						(float)((v >> 3) & 31) / 32.0f;
					if (v % 97 == 0) {
						mx[i] = NAN;
					}
				}
			}
		}
		jd_remap_from_float(&map[c], mx, my);
		free(mx);
		free(my);
	}
}

/*
 * Each camera's layout in the lent cases: lend 1 GREY, 2 YUYV and UYVY, 3 UYVY and GREY, 4
 * 12-bit RGGB and Y10, 5 8-bit BGGR and 10-bit GBRG (the device's own luma step).
 */
#define LAYOUTS 5
static const enum jd_pixfmt layouts[LAYOUTS][2] = {{JD_PIX_GREY, JD_PIX_GREY},
						   {JD_PIX_YUYV, JD_PIX_UYVY},
						   {JD_PIX_UYVY, JD_PIX_GREY},
						   {JD_PIX_RGGB12, JD_PIX_Y10},
						   {JD_PIX_BGGR8, JD_PIX_GBRG10}};

/*
 * A deep mono or raw Bayer frame of the gray scene img: a Bayer site keeps its colour's share
 * (R 3/4, G 1, B 1/2), every sample at the depth with its top bits repeated below, a sample
 * in 97 past the depth (a corrupt one, which every backend must clamp alike).
 */
static void deep_frame(const struct jd_image *img, enum jd_pixfmt fmt, unsigned char *dst)
{
	const int bits = jd_pixfmt_bits(fmt), wide = jd_pixfmt_pixel_bytes(fmt) == 2;
	int r_col, r_row;

	jd_pixfmt_bayer_red(fmt, &r_col, &r_row);
	for (int y = 0; y < img->height; y++) {
		for (int x = 0; x < img->width; x++) {
			size_t i = (size_t)y * img->width + x;
			unsigned g = img->data[(size_t)y * img->stride + x];
			if (jd_pixfmt_is_bayer(fmt)) {
				int rc = ((x ^ r_col) & 1) == 0, rr = ((y ^ r_row) & 1) == 0;
				g = rc && rr ? g * 3 / 4 : !rc && !rr ? g / 2 : g;
			}
			if (!wide) {
				dst[i] = (unsigned char)g;
				continue;
			}
			unsigned v = (g << (bits - 8) | g >> (16 - bits)) & 0xffffu;
			v = i % 97 == 5 ? 0xffffu : v;
			dst[2 * i] = (unsigned char)v;
			dst[2 * i + 1] = (unsigned char)(v >> 8);
		}
	}
}

/* The luma the reference takes of img laid out as fmt (the CPU's rules, convert.h). */
static void camera_luma(const struct jd_image *img, enum jd_pixfmt fmt, struct jd_image *out)
{
	const int w = img->width, h = img->height, bits = jd_pixfmt_bits(fmt);
	const size_t pitch = (size_t)w * jd_pixfmt_pixel_bytes(fmt);
	unsigned char *raw = malloc(2 * (size_t)w * h);
	int r_col, r_row;

	jd_pixfmt_bayer_red(fmt, &r_col, &r_row);
	deep_frame(img, fmt, raw);
	for (int y = 0; y < h; y++) {
		unsigned char *o = out->data + (size_t)y * out->stride;
		if (jd_pixfmt_is_bayer(fmt)) {
			int up = y > 0 ? y - 1 : 1, down = y < h - 1 ? y + 1 : h - 2;
			jd_gray_from_bayer_ref(raw + up * pitch, raw + y * pitch,
					       raw + down * pitch, w, bits, r_col, (y & 1) == r_row,
					       o);
		} else {
			jd_gray_from_mono16_ref(raw + y * pitch, w, bits, o);
		}
	}
	free(raw);
}

/* The camera's frame whose luma is img, in layout fmt, chroma random, rows packed, into dst. */
static void camera_frame(const struct jd_image *img, enum jd_pixfmt fmt, unsigned seed,
			 unsigned char *dst)
{
	int step = jd_pixfmt_pixel_bytes(fmt), off = fmt == JD_PIX_UYVY;

	if (jd_pixfmt_is_bayer(fmt) || jd_pixfmt_bits(fmt) > 8) {
		deep_frame(img, fmt, dst);
		return;
	}

	for (int y = 0; y < img->height; y++) {
		for (int x = 0; x < img->width; x++) {
			unsigned char *px = dst + ((size_t)y * img->width + x) * step;
			px[step - 1 - off] =
			    (unsigned char)jd_test_rand(&seed); /* chroma or luma */
			px[off] = img->data[(size_t)y * img->stride + x];
		}
	}
}

/*
 * lend 0: the gray pair is uploaded and the map and rectified pair copied out; 1-5: the
 * camera writes the raw pair into the slot in layouts[lend - 1] (submit is handed a black
 * pair, which must not be used) and collect lends the map and the rectified pair.
 */
static int check(int algo, int w, int h, int kind, int lend, const struct jd_exec *ex)
{
	static struct gpu_rig g;
	struct jd_match_params p;
	struct jd_image raw_l, raw_r, l, r, got, got_r;
	struct jd_remap map[2];
	struct jd_cuda *cu = &g.cu;
	struct jd_disp ref = {malloc(sizeof(float) * w * h), w, h, w};
	struct jd_disp out = {malloc(sizeof(float) * w * h), w, h, w};
	float *own = out.data; /* a lent map points elsewhere */
	const char *name = jd_algo_name(algo);
	int same = 0;

	struct jd_image black = {calloc((size_t)w * h, 1), w, h, w};

	own[0] = -12345.0f;
	jd_params_default(&p, algo, 32);
	gpu_textured_pair(w, h, 7u + (unsigned)kind, &raw_l, &raw_r);
	make_tables(w, h, kind, 11u + (unsigned)w, map);
	l = (struct jd_image){malloc((size_t)w * h), w, h, w};
	r = (struct jd_image){malloc((size_t)w * h), w, h, w};
	got = (struct jd_image){malloc((size_t)w * h), w, h, w};
	got_r = (struct jd_image){malloc((size_t)w * h), w, h, w};
	/* the reference rectifies the luma the cameras' layouts give (deep and Bayer: their rule)
	 */
	struct jd_image seen[2] = {raw_l, raw_r};
	for (int c = 0; c < 2 && lend > 3; c++) {
		seen[c] = (struct jd_image){malloc((size_t)w * h), w, h, w};
		camera_luma(c ? &raw_r : &raw_l, layouts[lend - 1][c], &seen[c]);
	}
	jd_remap_ref(&map[0], &seen[0], &l, ex);
	jd_remap_ref(&map[1], &seen[1], &r, ex);
	for (int c = 0; c < 2 && lend > 3; c++) {
		free(seen[c].data);
	}
	size_t n = jd_match_mem_required(&p, w, h, jd_exec_workers(ex));
	void *ws = malloc(n);
	JD_CHECK(jd_match_run(NULL, &p, &l, &r, &ref, ws, n, ex) == 0, "reference %s", name);

	g = (struct gpu_rig){.p = &p, .w = w, .h = h, .stages = JD_CUDA_STAGE_REMAP};
	int rc = gpu_rig_boot(&g, gpu_memory());
	JD_CHECK(rc == 0, "%s boot with the remap: %s", name, cu->err);
	if (rc == 0) {
		struct jd_cuda_frame *f = g.m.frame;

		JD_CHECK(jd_cuda_remap_load(cu, f, map, &got, &got_r) == 0, "remap load: %s",
			 cu->err);
		f->lend = lend != 0;
		gpu_count_allocations(cu);
		/* two frames in flight: the swapped pair ahead of this one */
		for (int i = 0; i < 2; i++) {
			struct jd_image a = i ? raw_l : raw_r, b = i ? raw_r : raw_l;
			if (lend && jd_cuda_frame_raw_next(f, 0)) {
				/* lent: the cameras write the raw pair into the next slot */
				camera_frame(&a, layouts[lend - 1][0], 3u + (unsigned)i,
					     jd_cuda_frame_raw_next(f, 0));
				camera_frame(&b, layouts[lend - 1][1], 5u + (unsigned)i,
					     jd_cuda_frame_raw_next(f, 1));
				JD_CHECK(jd_cuda_frame_raw_staged(f, layouts[lend - 1]) == 0,
					 "raw staged");
				a = b = black;
			}
			rc = jd_cuda_matcher_submit(&g.m, &p, &a, &b);
			JD_CHECK(rc == 0, "submit %d: %s", i, cu->err);
		}
		for (int i = 0; i < 2; i++) {
			rc = jd_cuda_matcher_collect(&g.m, &out);
			JD_CHECK(rc == 0, "collect %d: %s", i, cu->err);
		}
		JD_CHECK(gpu_alloc_calls == 0, "%lu allocations after boot", gpu_alloc_calls);
		gpu_restore_allocations(cu);
		if (lend) {
			/* the map and the pair where the slot holds them; nothing copied out */
			unsigned char *ll = jd_cuda_frame_rectified(f, 0);
			unsigned char *lr = jd_cuda_frame_rectified(f, 1);
			JD_CHECK(ll && lr && out.data != own && out.stride == w,
				 "%s %dx%d: lent map or pair missing", name, w, h);
			JD_CHECK(own[0] == -12345.0f, "%s %dx%d: a lent map was copied", name, w,
				 h);
			if (ll && lr) {
				memcpy(got.data, ll, (size_t)w * h);
				memcpy(got_r.data, lr, (size_t)w * h);
			}
		}
		long img = -1;
		for (long i = 0; i < (long)w * h && img < 0; i++) {
			img = got.data[i] != l.data[i] || got_r.data[i] != r.data[i] ? i : -1;
		}
		long first = gpu_first_diff(&ref, &out);
		JD_CHECK(img < 0, "%s %dx%d tables %d lend %d: rectified pixel %ld: ref %d gpu %d",
			 name, w, h, kind, lend, img, img >= 0 ? l.data[img] : 0,
			 img >= 0 ? got.data[img] : 0);
		JD_CHECK(first < 0,
			 "%s %dx%d tables %d lend %d: disparity pixel %ld: ref %g gpu %g", name, w,
			 h, kind, lend, first, first >= 0 ? ref.data[first] : 0.0,
			 first >= 0 ? out.data[first] : 0.0);
		same = img < 0 && first < 0;
	}
	jd_cuda_deinit(cu);
	for (int c = 0; c < 2; c++) {
		free(map[c].sx);
		free(map[c].sy);
	}
	free(raw_l.data);
	free(raw_r.data);
	free(black.data);
	free(l.data);
	free(r.data);
	free(got.data);
	free(got_r.data);
	free(ref.data);
	free(own);
	free(ws);
	return same;
}

int main(void)
{
	static const int sizes[][2] = {{640, 480}, {97, 61}, {1, 1}, {1280, 720}};
	static const int algos[] = {JD_ALGO_SAD, JD_ALGO_SGM, JD_ALGO_BP};
	struct jd_workers wk;
	int ok = 0, total = 0;

	gpu_require();
	jd_workers_init(&wk, 2);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		if ((long)sizes[i][0] * sizes[i][1] > gpu_case_limit()) {
			continue;
		}
		for (int kind = 0; kind < 2; kind++) {
			for (int lend = 0; lend <= LAYOUTS; lend++) {
				if (lend > 3 && (sizes[i][0] < 2 || sizes[i][1] < 2)) {
					continue; /* a Bayer mosaic has 2x2 cells */
				}
				for (int a = 0; a < 3; a++) {
					ok += check(algos[a], sizes[i][0], sizes[i][1], kind, lend,
						    &wk.exec);
					total++;
				}
			}
		}
	}
	printf("%d of %d cases identical to the reference (rectified pair and disparity; gray "
	       "copied, and GREY, YUYV, UYVY, deep mono and raw Bayer lent)\n",
	       ok, total);
	jd_workers_deinit(&wk);
	return jd_test_done("gpu.cuda_rectify");
}
