/*
 * BP's message kernel as every backend provides it (the kernel table's bp_send): its
 * arguments, one run of same-colour pixels of a row, and the reference and NEON versions.
 */
#ifndef JD_ALGO_BP_KERNELS_H
#define JD_ALGO_BP_KERNELS_H

#include <stddef.h>

#include "kernels.h"

/* The four messages a pixel sends, named by where they come from at the receiver. */
enum { JD_BP_FROM_UP, JD_BP_FROM_DOWN, JD_BP_FROM_LEFT, JD_BP_FROM_RIGHT, JD_BP_NDIR };

/* Pixels per vectorised chunk of one checkerboard row: 32 floats per disparity row of h. */
#define JD_BP_CHUNK 128

struct jd_bp_scratch {
	float *in[5];  /* fp16 mode: converted data + 4 incoming, [nd][CHUNK] */
	float *h;      /* [4 messages][nd][CHUNK] */
	float *row[6]; /* one image row each, for the per-row helpers */
};

/*
 * One run of same-colour pixels of a row (at most JD_BP_CHUNK) sending their four messages:
 * the arguments of every backend's bp_send kernel.
 */
struct jd_bp_chunk {
	const void *src[5]; /* data, from up, down, left, right; (d, j) at off + d * hp + j */
	size_t off;
	size_t hp;		 /* elements between disparities, in sources and targets alike */
	void *dst[JD_BP_NDIR];	 /* where each outgoing message lands; NULL: off the image */
	size_t doff[JD_BP_NDIR]; /* its first slot */
	int len, nd, fp16;
	float disc_k;
};

/** Prefetch every target line of a chunk (the stores miss the cache otherwise). */
void jd_bp_prefetch_targets(const struct jd_bp_chunk *c);

/** The reference kernel (float arithmetic, float or fp16 storage). */
void jd_bp_send_ref(const struct jd_bp_chunk *c, const struct jd_bp_scratch *sc);
/** NEON twins: float arithmetic (bit-identical), and fp16 arithmetic (fp16 storage only). */
void jd_bp_send_neon(const struct jd_bp_chunk *c, const struct jd_bp_scratch *sc);
void jd_bp_send_neon_fp16(const struct jd_bp_chunk *c, const struct jd_bp_scratch *sc);
/** Columns j0 .. len - 1 of a chunk through fn (the vector kernels' remainders). */
void jd_bp_send_tail(const struct jd_bp_chunk *c, const struct jd_bp_scratch *sc, int j0,
		     jd_bp_send_fn fn);

#endif
