/*
 * NEON twins of sgm_cost.c: the 9x7 census (sixteen pixels per step, eight comparisons packed
 * per byte, then one byte transpose into the reference's bit order) and the matching cost
 * (Hamming distance with vcnt, eight disparities per step). Integer: bit-identical.
 */
#include "../sgm/sgm_priv.h"
#include "neon_compat.h"

#define RX (JD_CENSUS_W / 2)
#define RY (JD_CENSUS_H / 2)

/*
 * Sixteen pixels from x: comparison k (in the reference's order) lands in bit 7 - k % 8 of
 * byte g[k / 8]. The 62 bits fill bytes 0..6 and the top six bits of byte 7, so the big-endian
 * 64-bit number g0 g1 ... g7 shifted right by two is the reference's value.
 */
static void census16(const uint8_t *const rows[JD_CENSUS_H], int x, uint64_t *out)
{
	uint8x16_t c = vld1q_u8(rows[RY] + x);
	uint8x16_t g[8];
	int k = 0;

	for (int j = 0; j < JD_CENSUS_H; j++) {
		for (int i = -RX; i <= RX; i++) {
			if (j == RY && i == 0) {
				continue;
			}
			uint8x16_t m = vcltq_u8(vld1q_u8(rows[j] + x + i), c);
			uint8x16_t bit = vshrq_n_u8(m, 7);

			g[k / 8] = k % 8 == 0 ? bit : vorrq_u8(vshlq_n_u8(g[k / 8], 1), bit);
			k++;
		}
	}
	g[7] = vshlq_n_u8(g[7], 2); /* six comparisons: align them with the top of the byte */
	/* Transpose: zip (hi, lo) pairs so each little-endian lane reads g0 first, g7 last. */
	uint8x16_t a0 = vzip1q_u8(g[1], g[0]), a1 = vzip2q_u8(g[1], g[0]);
	uint8x16_t b0 = vzip1q_u8(g[3], g[2]), b1 = vzip2q_u8(g[3], g[2]);
	uint8x16_t c0 = vzip1q_u8(g[5], g[4]), c1 = vzip2q_u8(g[5], g[4]);
	uint8x16_t d0 = vzip1q_u8(g[7], g[6]), d1 = vzip2q_u8(g[7], g[6]);
	uint16x8_t lo[4] = {
	    vzip1q_u16(vreinterpretq_u16_u8(b0), vreinterpretq_u16_u8(a0)),
	    vzip2q_u16(vreinterpretq_u16_u8(b0), vreinterpretq_u16_u8(a0)),
	    vzip1q_u16(vreinterpretq_u16_u8(b1), vreinterpretq_u16_u8(a1)),
	    vzip2q_u16(vreinterpretq_u16_u8(b1), vreinterpretq_u16_u8(a1)),
	};
	uint16x8_t hi[4] = {
	    vzip1q_u16(vreinterpretq_u16_u8(d0), vreinterpretq_u16_u8(c0)),
	    vzip2q_u16(vreinterpretq_u16_u8(d0), vreinterpretq_u16_u8(c0)),
	    vzip1q_u16(vreinterpretq_u16_u8(d1), vreinterpretq_u16_u8(c1)),
	    vzip2q_u16(vreinterpretq_u16_u8(d1), vreinterpretq_u16_u8(c1)),
	};
	for (int q = 0; q < 4; q++) {
		uint32x4_t l32 = vreinterpretq_u32_u16(lo[q]), h32 = vreinterpretq_u32_u16(hi[q]);
		uint64x2_t v0 = vreinterpretq_u64_u32(vzip1q_u32(h32, l32));
		uint64x2_t v1 = vreinterpretq_u64_u32(vzip2q_u32(h32, l32));

		vst1q_u64(out + 4 * q, vshrq_n_u64(v0, 2));
		vst1q_u64(out + 4 * q + 2, vshrq_n_u64(v1, 2));
	}
}

struct census_job {
	const struct jd_image *im;
	uint64_t *out;
};

static void census_row(void *ctx, int y, int worker)
{
	const struct census_job *job = ctx;
	const struct jd_image *im = job->im;
	const uint8_t *rows[JD_CENSUS_H];
	uint64_t *out = job->out + (size_t)y * im->width;
	int w = im->width, x = 0;

	(void)worker;
	for (int j = 0; j < JD_CENSUS_H; j++) {
		rows[j] = jd_image_row(im, jd_clampi(y + j - RY, 0, im->height - 1));
	}
	for (; x < RX && x < w; x++) {
		out[x] = jd__census_pixel(rows, x, w);
	}
	for (; x + 16 + RX <= w; x += 16) {
		census16(rows, x, out + x);
	}
	for (; x < w; x++) {
		out[x] = jd__census_pixel(rows, x, w);
	}
}

void jd_census_neon(const struct jd_image *im, uint64_t *out, const struct jd_exec *ex)
{
	struct census_job job = {im, out};

	jd_exec_run(ex, im->height, census_row, &job);
}

struct cost_job {
	const struct jd_match_params *p;
	const struct jd_image *l, *r;
	const uint64_t *cl, *cr;
	uint8_t *cost;
};

/* Eight Hamming distances |cl ^ cr[xr - k]|, k = 0..7, as bytes (xr - 7 >= 0). */
static uint8x8_t hamming8(uint64_t cl, const uint64_t *cr, int xr)
{
	uint64x2_t l = vdupq_n_u64(cl);
	uint8x16_t cnt[4];

	for (int q = 0; q < 4; q++) {
		uint64x2_t r = vld1q_u64(cr + xr - 2 * q - 1); /* [xr-2q-1, xr-2q] */
		r = vextq_u64(r, r, 1);			       /* [xr-2q, xr-2q-1] */
		cnt[q] = vcntq_u8(vreinterpretq_u8_u64(veorq_u64(l, r)));
	}
	uint8x16_t s = vpaddq_u8(vpaddq_u8(cnt[0], cnt[1]), vpaddq_u8(cnt[2], cnt[3]));
	return vget_low_u8(vpaddq_u8(s, s));
}

static void cost_row(void *ctx, int y, int worker)
{
	const struct cost_job *job = ctx;
	const struct jd_match_params *p = job->p;
	int w = job->l->width, nd = p->ndisp;
	int census = p->sgm.cost == JD_SGM_COST_CENSUS;
	uint8_t cmax = (uint8_t)jd_sgm_cost_max(p->sgm.cost);
	const uint8_t *lrow = jd_image_row(job->l, y);
	const uint8_t *rrow = jd_image_row(job->r, y);
	const uint64_t *cl = job->cl + (size_t)y * w;
	const uint64_t *cr = job->cr + (size_t)y * w;

	(void)worker;
	for (int x = 0; x < w; x++) {
		uint8_t *c = job->cost + ((size_t)y * w + x) * nd;
		int xr0 = x - p->min_disp; /* x_r of d = 0 */
		int d = 0;

		/* Whole vectors while all eight x_r = xr0 - d - k stay in the image. */
		for (; d + 8 <= nd && xr0 - d - 7 >= 0; d += 8) {
			if (census) {
				vst1_u8(c + d, hamming8(cl[x], cr, xr0 - d));
			} else {
				uint8x8_t r = vrev64_u8(vld1_u8(rrow + xr0 - d - 7));
				vst1_u8(c + d, vabd_u8(vdup_n_u8(lrow[x]), r));
			}
		}
		for (; d < nd; d++) {
			c[d] = jd__sgm_cost_one(census, cmax, lrow, rrow, cl[x], cr, x, xr0 - d);
		}
	}
}

void jd_sgm_cost_neon(const struct jd_match_params *p, const struct jd_image *left,
		      const struct jd_image *right, const uint64_t *census_l,
		      const uint64_t *census_r, uint8_t *cost, const struct jd_exec *ex)
{
	struct cost_job job = {p, left, right, census_l, census_r, cost};

	jd_exec_run(ex, left->height, cost_row, &job);
}
