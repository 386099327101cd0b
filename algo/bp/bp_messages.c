#include <math.h>
#include <string.h>

#include "bp_priv.h"
#include "jd_compiler.h"

#define CH JD_BP_CHUNK

/*
 * Pass 1 for all four outgoing messages at once, so each input row is read once: build
 * h_k = D + the three incoming other than the one from neighbour k (in the order up, down,
 * left, right) and run the forward pass. Inputs have row stride s; h[k] has stride CH.
 */
static inline void build_forward(const float *restrict dat, const float *restrict u,
				 const float *restrict dn, const float *restrict l,
				 const float *restrict r, size_t s, float *restrict h,
				 float *restrict lo, int len, int nd)
{
	/* The previous disparity's values live in small local arrays the vectoriser can see. */
	float pu[CH], pd[CH], pl[CH], pr[CH];
	float mu[CH], md[CH], ml[CH], mr[CH];

	for (int d = 0; d < nd; d++) {
		const float *D = dat + (size_t)d * s, *U = u + (size_t)d * s;
		const float *N = dn + (size_t)d * s, *L = l + (size_t)d * s, *R = r + (size_t)d * s;
		float *hu = h + (size_t)d * CH, *hd = hu + (size_t)nd * CH;
		float *hl = hd + (size_t)nd * CH, *hr = hl + (size_t)nd * CH;
		float step = d > 0 ? 1.0f : INFINITY; /* d = 0 has no lower neighbour */

		if (d == 0) {
			for (int j = 0; j < len; j++) {
				pu[j] = pd[j] = pl[j] = pr[j] = 0.0f;
				mu[j] = md[j] = ml[j] = mr[j] = INFINITY;
			}
		}
		for (int j = 0; j < len; j++) {
			float du = D[j] + U[j];
			float dud = du + N[j];

			pu[j] = jd__minf(D[j] + N[j] + L[j] + R[j], pu[j] + step);
			pd[j] = jd__minf(du + L[j] + R[j], pd[j] + step);
			pl[j] = jd__minf(dud + R[j], pl[j] + step);
			pr[j] = jd__minf(dud + L[j], pr[j] + step);
			mu[j] = jd__minf(mu[j], pu[j]);
			md[j] = jd__minf(md[j], pd[j]);
			ml[j] = jd__minf(ml[j], pl[j]);
			mr[j] = jd__minf(mr[j], pr[j]);
			hu[j] = pu[j];
			hd[j] = pd[j];
			hl[j] = pl[j];
			hr[j] = pr[j];
		}
	}
	for (int j = 0; j < len; j++) {
		lo[j] = mu[j];
		lo[CH + j] = md[j];
		lo[2 * CH + j] = ml[j];
		lo[3 * CH + j] = mr[j];
	}
}

/*
 * The rest of jd_bp_message_1d() on every column j of one h: backward pass with the cap,
 * then the store with the minimum subtracted (half in fp16 mode).
 */
static inline void finish_store(float *restrict h, const float *restrict lo, int len, int nd,
				float disc_k, void *dst, size_t off, size_t ds, int fp16)
{
	float cap[CH];

	for (int j = 0; j < len; j++) {
		cap[j] = lo[j] + disc_k;
		h[(nd - 1) * CH + j] = jd__minf(h[(nd - 1) * CH + j], cap[j]);
	}
	for (int d = nd - 2; d >= 0; d--) {
		float *hd = h + (size_t)d * CH;
		const float *hn = hd + CH;

		for (int j = 0; j < len; j++) {
			hd[j] = jd__minf(jd__minf(hd[j], hn[j] + 1.0f), cap[j]);
		}
	}
	for (int d = 0; d < nd; d++) {
		if (fp16) {
			uint16_t *o = (uint16_t *)dst + off + (size_t)d * ds;
			for (int j = 0; j < len; j++) {
				o[j] = jd_float_to_half(h[d * CH + j] - lo[j]);
			}
		} else {
			float *o = (float *)dst + off + (size_t)d * ds;
			for (int j = 0; j < len; j++) {
				o[j] = h[d * CH + j] - lo[j];
			}
		}
	}
}

/*
 * Ask for the destination lines before computing: the stores go to 4 * nd rows scattered
 * through arrays far larger than the cache, and without this they stall on every line.
 */
void jd_bp_prefetch_targets(const struct jd_bp_chunk *c)
{
	size_t es = c->fp16 ? sizeof(uint16_t) : sizeof(float);

	for (int k = 0; k < JD_BP_NDIR; k++) {
		if (!c->dst[k]) {
			continue;
		}
		for (int d = 0; d < c->nd; d++) {
			const char *row =
			    (const char *)c->dst[k] + es * (c->doff[k] + (size_t)d * c->hp);
			for (size_t b = 0; b < es * (size_t)c->len; b += 64) {
				__builtin_prefetch(row + b, 1, 3);
			}
		}
	}
}

/* Full chunks get a constant trip count so the compiler drops the loop remainders. */
JD_VECTOR_CLONES static void send_chunk(const float *const in[5], size_t s, float *h,
					const struct jd_bp_chunk *c)
{
	float lo[JD_BP_NDIR * CH];
	int len = c->len, nd = c->nd;

	jd_bp_prefetch_targets(c);
	if (len == CH) {
		build_forward(in[0], in[1], in[2], in[3], in[4], s, h, lo, CH, nd);
	} else {
		build_forward(in[0], in[1], in[2], in[3], in[4], s, h, lo, len, nd);
	}
	for (int k = 0; k < JD_BP_NDIR; k++) {
		float *hk = h + (size_t)k * nd * CH;

		if (!c->dst[k]) {
			continue;
		}
		if (len == CH) {
			finish_store(hk, lo + k * CH, CH, nd, c->disc_k, c->dst[k], c->doff[k],
				     c->hp, c->fp16);
		} else {
			finish_store(hk, lo + k * CH, len, nd, c->disc_k, c->dst[k], c->doff[k],
				     c->hp, c->fp16);
		}
	}
}

void jd_bp_send_ref(const struct jd_bp_chunk *c, const struct jd_bp_scratch *sc)
{
	const float *in[5];
	size_t s;

	if (c->fp16) {
		for (int k = 0; k < 5; k++) {
			const uint16_t *q = (const uint16_t *)c->src[k] + c->off;
			for (int d = 0; d < c->nd; d++) {
				for (int j = 0; j < c->len; j++) {
					sc->in[k][d * CH + j] =
					    jd_half_to_float(q[(size_t)d * c->hp + j]);
				}
			}
			in[k] = sc->in[k];
		}
		s = CH;
	} else {
		for (int k = 0; k < 5; k++) {
			in[k] = (const float *)c->src[k] + c->off;
		}
		s = c->hp;
	}
	send_chunk(in, s, sc->h, c);
}

/* Pixels of colour c in row y send their four messages (those that stay in the image). */
static void row_update(const struct jd__bp_ctx *ctx, const struct jd__bp_level *lv, int y, int c,
		       const struct jd_bp_scratch *sc)
{
	int nd = ctx->nd, par = (y + c) & 1, other = c ^ 1;
	int n = (lv->w - par + 1) / 2;
	size_t own = jd__bp_row(lv, nd, y, c);
	size_t same = jd__bp_row(lv, nd, y, other);
	struct jd_bp_chunk t = {
	    .src = {lv->data, lv->msg[0], lv->msg[1], lv->msg[2], lv->msg[3]},
	    .hp = lv->hp,
	    .nd = nd,
	    .fp16 = ctx->fp16,
	    .disc_k = ctx->disc_k,
	};

	/*
	 * The message sent up lands in the upper pixel's from-down array, and so on. Left
	 * neighbour is slot i + par - 1 of the other colour, the right one slot i + par.
	 */
	t.dst[JD_BP_FROM_UP] = y > 0 ? lv->msg[JD_BP_FROM_DOWN] : NULL;
	t.doff[JD_BP_FROM_UP] = y > 0 ? jd__bp_row(lv, nd, y - 1, other) : 0;
	t.dst[JD_BP_FROM_DOWN] = y < lv->h - 1 ? lv->msg[JD_BP_FROM_UP] : NULL;
	t.doff[JD_BP_FROM_DOWN] = y < lv->h - 1 ? jd__bp_row(lv, nd, y + 1, other) : 0;
	t.dst[JD_BP_FROM_LEFT] = lv->msg[JD_BP_FROM_RIGHT];
	t.doff[JD_BP_FROM_LEFT] = same + par - 1;
	t.dst[JD_BP_FROM_RIGHT] = lv->msg[JD_BP_FROM_LEFT];
	t.doff[JD_BP_FROM_RIGHT] = same + par;

	for (int i0 = 0; i0 < n; i0 += CH) {
		struct jd_bp_chunk ti = t;

		ti.len = n - i0 < CH ? n - i0 : CH;
		ti.off = own + i0;
		for (int k = 0; k < JD_BP_NDIR; k++) {
			ti.doff[k] += i0;
		}
		ctx->send(&ti, sc);
	}
}

struct iter_job {
	const struct jd__bp_ctx *ctx;
	const struct jd__bp_level *lv;
	int iter;
};

static void iter_row(void *arg, int y, int worker)
{
	const struct iter_job *job = arg;

	/* Iteration t updates the pixels with (x + y + t) even, i.e. colour t & 1. */
	row_update(job->ctx, job->lv, y, job->iter & 1, &job->ctx->scratch[worker]);
}

/*
 * Children start from their parent's messages. Child slot i of row y is x = 2i + par, so its
 * parent (i, y / 2) alternates colour with i: even slots read one parent colour run, odd slots
 * the other, both at slot i / 2. Raw copies: fp16 bits need no conversion.
 */
static void copy_run(const struct jd__bp_ctx *ctx, const struct jd__bp_level *lv, int k, int y,
		     int c, int i0, int i1)
{
	const struct jd__bp_level *pa = lv + 1;
	int nd = ctx->nd, py = y / 2;
	size_t es = ctx->fp16 ? sizeof(uint16_t) : sizeof(float);

	for (int d = 0; d < nd; d++) {
		char *dst =
		    (char *)lv->msg[k] + es * (jd__bp_row(lv, nd, y, c) + (size_t)d * lv->hp);
		const char *a = (const char *)pa->msg[k] +
				es * (jd__bp_row(pa, nd, py, py & 1) + (size_t)d * pa->hp);
		const char *b = (const char *)pa->msg[k] +
				es * (jd__bp_row(pa, nd, py, (py + 1) & 1) + (size_t)d * pa->hp);

		if (ctx->fp16) {
			uint16_t *o = (uint16_t *)dst;
			for (int i = i0; i < i1; i++) {
				o[i] = ((const uint16_t *)((i & 1) ? b : a))[i >> 1];
			}
		} else if (i0 == 0) {
			/* Whole runs: two strided loops the compiler vectorises. */
			float *o = (float *)dst;
			for (int m = 0; 2 * m < i1; m++) {
				o[2 * m] = ((const float *)a)[m];
			}
			for (int m = 0; 2 * m + 1 < i1; m++) {
				o[2 * m + 1] = ((const float *)b)[m];
			}
		} else {
			float *o = (float *)dst;
			for (int i = i0; i < i1; i++) {
				o[i] = ((const float *)((i & 1) ? b : a))[i >> 1];
			}
		}
	}
}

/*
 * Iteration 0 (colour 0 sends) overwrites every message a colour-1 pixel receives from inside
 * the image, so colour 1 needs its parent's values only where a neighbour is missing: on the
 * first and last row and column. The rest of colour 1 is left alone (half the copy traffic).
 */
static void transfer_row(void *arg, int y, int worker)
{
	const struct iter_job *job = arg;
	const struct jd__bp_level *lv = job->lv;
	int n0 = jd__bp_count(lv->w, y, 0), n1 = jd__bp_count(lv->w, y, 1);
	int par1 = (y + 1) & 1;

	(void)worker;
	for (int k = 0; k < JD_BP_NDIR; k++) {
		copy_run(job->ctx, lv, k, y, 0, 0, n0);
		if (y == 0 || y == lv->h - 1) {
			copy_run(job->ctx, lv, k, y, 1, 0, n1);
			continue;
		}
		if (par1 == 0 && n1 > 0) {
			copy_run(job->ctx, lv, k, y, 1, 0, 1); /* x = 0 */
		}
		if (n1 > 0 && 2 * (n1 - 1) + par1 == lv->w - 1) {
			copy_run(job->ctx, lv, k, y, 1, n1 - 1, n1); /* x = w - 1 */
		}
	}
}

void jd__bp_run_level(const struct jd__bp_ctx *ctx, int level, const struct jd_exec *ex)
{
	const struct jd__bp_level *lv = &ctx->lv[level];
	struct iter_job job = {ctx, lv, 0};

	if (level == ctx->p->bp.levels - 1) {
		size_t bytes = (size_t)2 * lv->h * ctx->nd * lv->hp * (ctx->fp16 ? 2 : 4);
		for (int k = 0; k < JD_BP_NDIR; k++) {
			memset(lv->msg[k], 0, bytes);
		}
	} else {
		jd_exec_run(ex, lv->h, transfer_row, &job);
	}
	/*
	 * One parallel sweep per iteration. A wavefront over bands (several iterations in
	 * flight, to keep rows in cache) measured no faster: the update is compute-bound
	 * (docs/perf_log.md).
	 */
	for (int t = 0; t < ctx->p->bp.iters; t++) {
		job.iter = t;
		jd_exec_run(ex, lv->h, iter_row, &job);
	}
}
