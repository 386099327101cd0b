/*
 * Per-kernel timings, reference vs NEON, single thread, on the sizes of the standard bench
 * table. On x86 the NEON column is SIMDe's emulation: a proxy that shows which kernels
 * vectorise, not Orin speed (docs/perf.md). Allocation is fine here: this is no frame loop.
 */
#include "bench_kernels.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../algo/bp/bp_kernels.h"
#include "../../algo/convert.h"
#include "../../algo/geometry/rectify.h"
#include "../../algo/sad/sad_kernels.h"
#include "../../algo/sgm/sgm.h"
#include "../../algo/synth.h"
#include "../../hal/clock.h"

enum { W = 450, H = 375, ND = 64, CW = 640, CH = 480 };

struct bufs {
	struct jd_image l, r, out;
	uint8_t *rgb, *cost;
	uint64_t *cl, *cr;
	uint16_t *s_fwd, *s_bwd, *colsum;
	void *sweep, *select;
	struct jd_disp disp;
	struct jd_remap map;
	struct jd_match_params p;
	/* BP: one chunk of 128 pixels, nd disparities, sources and targets */
	void *bp_src[5], *bp_dst[4];
	float *bp_h;
};

typedef void (*kernel_call)(const struct jd_kernels *k, struct bufs *b);

static void k_gray_rgb(const struct jd_kernels *k, struct bufs *b)
{
	k->gray_from_rgb(b->rgb, CW * CH, b->out.data);
}

static void k_gray_yuyv(const struct jd_kernels *k, struct bufs *b)
{
	k->gray_from_yuyv(b->rgb, CW * CH, b->out.data);
}

static void k_gray_uyvy(const struct jd_kernels *k, struct bufs *b)
{
	k->gray_from_uyvy(b->rgb, CW * CH, b->out.data);
}

/* 640x480 of 12-bit samples (the RGB buffer holds 3 bytes a pixel: room for 2). */
static void k_gray_mono16(const struct jd_kernels *k, struct bufs *b)
{
	for (int y = 0; y < CH; y++) {
		k->gray_from_mono16(b->rgb + (size_t)2 * CW * y, CW, 12,
				    b->out.data + (size_t)CW * y);
	}
}

/* A 640x480 RGGB mosaic of 12-bit samples, rows mirrored at the ends as capture does. */
static void k_gray_bayer(const struct jd_kernels *k, struct bufs *b)
{
	const size_t row = (size_t)2 * CW;

	for (int y = 0; y < CH; y++) {
		int up = y > 0 ? y - 1 : 1, down = y < CH - 1 ? y + 1 : CH - 2;
		k->gray_from_bayer(b->rgb + row * up, b->rgb + row * y, b->rgb + row * down, CW, 12,
				   0, (y & 1) == 0, b->out.data + (size_t)CW * y);
	}
}

static void k_remap(const struct jd_kernels *k, struct bufs *b)
{
	struct jd_image src = {b->rgb, CW, CH, CW};

	k->remap(&b->map, &src, &b->out, NULL);
}

static void k_census(const struct jd_kernels *k, struct bufs *b)
{
	k->census(&b->l, b->cl, NULL);
}

static void k_sgm_cost(const struct jd_kernels *k, struct bufs *b)
{
	k->sgm_cost(&b->p, &b->l, &b->r, b->cl, b->cr, b->cost, NULL);
}

static void k_sgm_aggregate(const struct jd_kernels *k, struct bufs *b)
{
	k->sgm_aggregate(&b->p, &b->l, b->cost, b->s_fwd, b->s_bwd, b->sweep, NULL);
}

static void k_sgm_select(const struct jd_kernels *k, struct bufs *b)
{
	/* Selection adds s_bwd into s_fwd in place: re-adding each run changes nothing timed. */
	k->sgm_select(&b->p, b->s_fwd, b->s_bwd, &b->disp, b->select, NULL);
}

static void k_sad_accumulate(const struct jd_kernels *k, struct bufs *b)
{
	for (int y = 0; y < CH; y++) {
		k->sad_accumulate(b->colsum, b->rgb + y * 16, b->rgb, CW + 10, ND, 0, ND - 1,
				  y & 1 ? -1 : 1);
	}
}

static void k_sad_wta(const struct jd_kernels *k, struct bufs *b)
{
	static uint32_t best[CW], best_r[CW];
	static int bd[CW], bdr[CW];

	for (int y = 0; y < CH; y++) {
		for (int d = 0; d < ND; d++) {
			k->sad_wta(b->colsum + (size_t)d * (CW + 10), CW, 11, d, d, best, bd,
				   best_r, bdr);
		}
	}
}

/* BP: a level-0 sweep's worth of chunks (450x375: 2 colours x 375 rows x 2 chunks). */
static void bp_calls(const struct jd_kernels *k, struct bufs *b, int fp16, jd_bp_send_fn fn)
{
	struct jd_bp_scratch sc = {.h = b->bp_h};
	struct jd_bp_chunk c = {.hp = 144, .len = 113, .nd = ND, .fp16 = fp16, .disc_k = 8.5f};

	(void)k;
	for (int i = 0; i < 5; i++) {
		c.src[i] = b->bp_src[i];
		sc.in[i] =
		    (float *)b->bp_dst[i % 4] + 2 * ND * 144; /* spare space for fp16 input */
	}
	for (int i = 0; i < 4; i++) {
		c.dst[i] = b->bp_dst[i];
		c.doff[i] = 1;
	}
	for (int n = 0; n < 2 * H * 2; n++) {
		fn(&c, &sc);
	}
}

static void k_bp_float(const struct jd_kernels *k, struct bufs *b)
{
	bp_calls(k, b, 0, k->bp_send);
}

static void k_bp_fp16(const struct jd_kernels *k, struct bufs *b)
{
	bp_calls(k, b, 1, k->bp_send_fp16);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double time_ms(kernel_call fn, const struct jd_kernels *k, struct bufs *b, int runs)
{
	uint64_t t[64];

	fn(k, b); /* warm-up */
	for (int i = 0; i < runs; i++) {
		uint64_t t0 = jd_clock_ns();
		fn(k, b);
		t[i] = jd_clock_ns() - t0;
	}
	qsort(t, (size_t)runs, sizeof(t[0]), cmp_u64);
	return (double)t[runs / 2] / 1e6;
}

static int setup(struct bufs *b)
{
	size_t vol = (size_t)W * H * ND, npx = (size_t)CW * CH;
	int ok = 1;

	memset(b, 0, sizeof(*b));
	jd_params_default(&b->p, JD_ALGO_SGM, ND);
	b->l = (struct jd_image){malloc((size_t)W * H), W, H, W};
	b->r = (struct jd_image){malloc((size_t)W * H), W, H, W};
	b->out = (struct jd_image){malloc(npx), CW, CH, CW};
	b->rgb = malloc(3 * npx + 64);
	b->cost = malloc(vol);
	b->cl = malloc(8 * (size_t)W * H);
	b->cr = malloc(8 * (size_t)W * H);
	b->s_fwd = malloc(2 * vol);
	b->s_bwd = malloc(2 * vol);
	b->colsum = calloc((size_t)ND * (CW + 10), 2);
	b->sweep = malloc(2 * jd_sgm_sweep_mem_required(W, ND));
	b->select = malloc(jd_sgm_select_mem_required(W));
	b->disp = (struct jd_disp){malloc(4 * (size_t)W * H), W, H, W};
	b->map = (struct jd_remap){CW, CH, malloc(4 * npx), malloc(4 * npx)};
	b->bp_h = malloc(sizeof(float) * 4 * ND * JD_BP_CHUNK);
	for (int i = 0; i < 5; i++) {
		b->bp_src[i] = calloc((size_t)ND * 144 * 4, 1);
		ok &= b->bp_src[i] != NULL;
	}
	for (int i = 0; i < 4; i++) {
		b->bp_dst[i] = calloc((size_t)ND * 144 * 4 * 2 + 4 * ND * JD_BP_CHUNK * 2, 1);
		ok &= b->bp_dst[i] != NULL;
	}
	if (!ok || !b->l.data || !b->r.data || !b->out.data || !b->rgb || !b->cost || !b->cl ||
	    !b->cr || !b->s_fwd || !b->s_bwd || !b->colsum || !b->sweep || !b->select ||
	    !b->disp.data || !b->map.sx || !b->map.sy || !b->bp_h) {
		return -ENOMEM;
	}
	jd_synth_render(0, ND, &b->l, &b->r, NULL);
	for (size_t i = 0; i < 3 * npx + 64; i++) {
		b->rgb[i] = (uint8_t)(i * 2654435761u >> 24);
	}
	for (int y = 0; y < CH; y++) {
		for (int x = 0; x < CW; x++) {
			/* a mild barrel distortion, the usual shape of a rectification map */
			float dx = (float)(x - CW / 2) / CW, dy = (float)(y - CH / 2) / CH;
			float s = 1.0f + 0.05f * (dx * dx + dy * dy);
			b->map.sx[y * CW + x] = (int32_t)((CW / 2 + dx * s * CW) * JD_REMAP_ONE);
			b->map.sy[y * CW + x] = (int32_t)((CH / 2 + dy * s * CH) * JD_REMAP_ONE);
		}
	}
	for (int i = 0; i < 5; i++) {
		float *f = b->bp_src[i];
		for (int j = 0; j < ND * 144; j++) {
			f[j] = (float)((j * 37 + i * 11) % 23) * 0.1f;
		}
	}
	jd_census_ref(&b->l, b->cl, NULL);
	jd_census_ref(&b->r, b->cr, NULL);
	jd_sgm_cost_ref(&b->p, &b->l, &b->r, b->cl, b->cr, b->cost, NULL);
	jd_sgm_aggregate_ref(&b->p, &b->l, b->cost, b->s_fwd, b->s_bwd, b->sweep, NULL);
	return 0;
}

static void teardown(struct bufs *b)
{
	void *all[] = {b->l.data,    b->r.data, b->out.data, b->rgb,	b->cost,  b->cl,
		       b->cr,	     b->s_fwd,	b->s_bwd,    b->colsum, b->sweep, b->select,
		       b->disp.data, b->map.sx, b->map.sy,   b->bp_h};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		free(all[i]);
	}
	for (int i = 0; i < 5; i++) {
		free(b->bp_src[i]);
	}
	for (int i = 0; i < 4; i++) {
		free(b->bp_dst[i]);
	}
}

int jd_bench_kernels(int runs)
{
	static const struct {
		const char *name, *size;
		kernel_call fn;
	} rows[] = {
	    {"gray_rgb", "640x480", k_gray_rgb},
	    {"gray_yuyv", "640x480", k_gray_yuyv},
	    {"gray_uyvy", "640x480", k_gray_uyvy},
	    {"gray_mono16 Y12", "640x480", k_gray_mono16},
	    {"gray_bayer RG12", "640x480", k_gray_bayer},
	    {"remap", "640x480", k_remap},
	    {"census 9x7", "450x375", k_census},
	    {"sgm_cost census", "450x375/64", k_sgm_cost},
	    {"sgm_aggregate 8p", "450x375/64", k_sgm_aggregate},
	    {"sgm_select", "450x375/64", k_sgm_select},
	    {"sad_accumulate", "640x480/64", k_sad_accumulate},
	    {"sad_wta 11x11", "640x480/64", k_sad_wta},
	    {"bp_messages float", "450x375/64", k_bp_float},
	    {"bp_messages fp16", "450x375/64", k_bp_fp16},
	};
	struct jd_kernels neon;
	struct bufs b;
	char err[200];
	int have_neon = jd_kernels_select(JD_BACKEND_NEON, 1, &neon, err, sizeof(err)) == 0;

	if (runs > 64) {
		runs = 64;
	}
	if (setup(&b)) {
		teardown(&b);
		fprintf(stderr, "jetdepth: bench --kernels: out of memory\n");
		return -ENOMEM;
	}
	printf("kernels, one thread, median of %d runs; neon = %s\n", runs,
	       !have_neon	      ? "not built"
	       : jd_cpu_neon_native() ? "native"
				      : "SIMDe emulation");
	printf("%-20s %-11s %10s %10s %8s  %s\n", "kernel", "size", "ref ms", "neon ms", "ratio",
	       "neon variant");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double ref = time_ms(rows[i].fn, &jd_kernels_ref, &b, runs);
		double nn = have_neon ? time_ms(rows[i].fn, &neon, &b, runs) : 0.0;
		const char *variant = i == sizeof(rows) / sizeof(rows[0]) - 1
					  ? neon.backend_of[JD_K_BP_MESSAGES]
					  : "neon";

		if (have_neon) {
			printf("%-20s %-11s %10.2f %10.2f %7.2fx  %s\n", rows[i].name, rows[i].size,
			       ref, nn, ref / nn, variant);
		} else {
			printf("%-20s %-11s %10.2f %10s %8s\n", rows[i].name, rows[i].size, ref,
			       "-", "-");
		}
	}
	teardown(&b);
	return 0;
}
