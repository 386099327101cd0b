#include <string.h>

#include "bp_priv.h"

#define CH JD__BP_CHUNK

static inline float minf(float a, float b)
{
	return a < b ? a : b;
}

/*
 * h[d][j] = D + a + b + c, then the message update of jd_bp_message_1d() on every column j,
 * written so the compiler vectorises across j. Inputs have row stride s; h has stride CH.
 */
static void compute_messages(const float *restrict dat, const float *restrict a,
			     const float *restrict b, const float *restrict c, size_t s,
			     float *restrict h, int len, int nd, float disc_k, float *restrict lo)
{
	float sum[CH];

	for (int d = 0; d < nd; d++) {
		for (int j = 0; j < len; j++) {
			size_t k = (size_t)d * s + j;
			h[d * CH + j] = dat[k] + a[k] + b[k] + c[k];
		}
	}
	for (int d = 1; d < nd; d++) {
		for (int j = 0; j < len; j++) {
			h[d * CH + j] = minf(h[d * CH + j], h[(d - 1) * CH + j] + 1.0f);
		}
	}
	for (int j = 0; j < len; j++) {
		lo[j] = h[(nd - 1) * CH + j];
	}
	for (int d = nd - 2; d >= 0; d--) {
		for (int j = 0; j < len; j++) {
			h[d * CH + j] = minf(h[d * CH + j], h[(d + 1) * CH + j] + 1.0f);
			lo[j] = minf(lo[j], h[d * CH + j]);
		}
	}
	for (int j = 0; j < len; j++) {
		lo[j] += disc_k;
		sum[j] = 0.0f;
	}
	for (int d = 0; d < nd; d++) {
		for (int j = 0; j < len; j++) {
			h[d * CH + j] = minf(h[d * CH + j], lo[j]);
			sum[j] += h[d * CH + j];
		}
	}
	for (int j = 0; j < len; j++) {
		lo[j] = sum[j] / (float)nd; /* lo now holds the mean */
	}
}

static void store_messages(const float *restrict h, const float *restrict mean, void *dst,
			   size_t off, size_t s, int len, int nd, int fp16)
{
	for (int d = 0; d < nd; d++) {
		if (fp16) {
			uint16_t *o = (uint16_t *)dst + off + (size_t)d * s;
			for (int j = 0; j < len; j++) {
				o[j] = jd_float_to_half(h[d * CH + j] - mean[j]);
			}
		} else {
			float *o = (float *)dst + off + (size_t)d * s;
			for (int j = 0; j < len; j++) {
				o[j] = h[d * CH + j] - mean[j];
			}
		}
	}
}

/* Pixels of colour c in row y send their four messages (those that stay in the image). */
static void row_update(const struct jd__bp_ctx *ctx, const struct jd__bp_level *lv, int y, int c,
		       const struct jd__bp_scratch *sc)
{
	int nd = ctx->nd, par = (y + c) & 1;
	int n = (lv->w - par + 1) / 2;
	size_t own = jd__bp_row(lv, nd, y, c);

	for (int i0 = 0; i0 < n; i0 += CH) {
		int len = n - i0 < CH ? n - i0 : CH;
		const float *in[5];
		size_t s;
		float mean[CH];

		if (ctx->fp16) {
			const void *src[5] = {lv->data, lv->msg[0], lv->msg[1], lv->msg[2],
					      lv->msg[3]};
			for (int k = 0; k < 5; k++) {
				const uint16_t *q = (const uint16_t *)src[k] + own + i0;
				for (int d = 0; d < nd; d++) {
					for (int j = 0; j < len; j++) {
						sc->in[k][d * CH + j] =
							jd_half_to_float(q[(size_t)d * lv->hp + j]);
					}
				}
				in[k] = sc->in[k];
			}
			s = CH;
		} else {
			in[0] = (const float *)lv->data + own + i0;
			for (int k = 0; k < JD__NDIR; k++) {
				in[k + 1] = (const float *)lv->msg[k] + own + i0;
			}
			s = lv->hp;
		}
		const float *u = in[1], *dn = in[2], *l = in[3], *r = in[4];
		int other = c ^ 1;

		if (y > 0) {
			compute_messages(in[0], dn, l, r, s, sc->h, len, nd, ctx->disc_k, mean);
			store_messages(sc->h, mean, lv->msg[JD__FROM_DOWN],
				       jd__bp_row(lv, nd, y - 1, other) + i0, lv->hp, len, nd,
				       ctx->fp16);
		}
		if (y < lv->h - 1) {
			compute_messages(in[0], u, l, r, s, sc->h, len, nd, ctx->disc_k, mean);
			store_messages(sc->h, mean, lv->msg[JD__FROM_UP],
				       jd__bp_row(lv, nd, y + 1, other) + i0, lv->hp, len, nd,
				       ctx->fp16);
		}
		/* Left neighbour is slot i + par - 1 of the other colour, right one i + par. */
		compute_messages(in[0], u, dn, r, s, sc->h, len, nd, ctx->disc_k, mean);
		store_messages(sc->h, mean, lv->msg[JD__FROM_RIGHT],
			       jd__bp_row(lv, nd, y, other) + i0 + par - 1, lv->hp, len, nd,
			       ctx->fp16);
		compute_messages(in[0], u, dn, l, s, sc->h, len, nd, ctx->disc_k, mean);
		store_messages(sc->h, mean, lv->msg[JD__FROM_LEFT],
			       jd__bp_row(lv, nd, y, other) + i0 + par, lv->hp, len, nd,
			       ctx->fp16);
	}
}

struct iter_job {
	const struct jd__bp_ctx *ctx;
	const struct jd__bp_level *lv;
	int level;
	int colour;
};

static void iter_row(void *arg, int y, int worker)
{
	const struct iter_job *job = arg;

	row_update(job->ctx, job->lv, y, job->colour, &job->ctx->scratch[worker]);
}

/* Children start from their parent's messages (coarse-to-fine initialisation). */
static void transfer_row(void *arg, int y, int worker)
{
	const struct iter_job *job = arg;
	const struct jd__bp_ctx *ctx = job->ctx;
	const struct jd__bp_level *lv = job->lv, *pa = &ctx->lv[job->level + 1];
	int nd = ctx->nd;

	(void)worker;
	for (int k = 0; k < JD__NDIR; k++) {
		for (int x = 0; x < lv->w; x++) {
			for (int d = 0; d < nd; d++) {
				size_t from = jd__bp_slot(pa, nd, x / 2, y / 2, d);
				size_t to = jd__bp_slot(lv, nd, x, y, d);
				if (ctx->fp16) {
					((uint16_t *)lv->msg[k])[to] =
						((const uint16_t *)pa->msg[k])[from];
				} else {
					((float *)lv->msg[k])[to] = ((const float *)pa->msg[k])[from];
				}
			}
		}
	}
}

void jd__bp_run_level(const struct jd__bp_ctx *ctx, int level, const struct jd_exec *ex)
{
	const struct jd__bp_level *lv = &ctx->lv[level];
	struct iter_job job = {ctx, lv, level, 0};

	if (level == ctx->p->bp.levels - 1) {
		size_t bytes = (size_t)2 * lv->h * ctx->nd * lv->hp * (ctx->fp16 ? 2 : 4);
		for (int k = 0; k < JD__NDIR; k++) {
			memset(lv->msg[k], 0, bytes);
		}
	} else {
		jd_exec_run(ex, lv->h, transfer_row, &job);
	}
	/* Iteration t updates the pixels with (x + y + t) even, i.e. colour t & 1. */
	for (int t = 0; t < ctx->p->bp.iters; t++) {
		job.colour = t & 1;
		jd_exec_run(ex, lv->h, iter_row, &job);
	}
}
