/*
 * SGM on the GPU, stage by stage the twin of sgm_cost.c, sgm_aggregate.c and sgm_select.c:
 * the same bytes, edge rules and tie rules, so the disparity map is identical to jd_sgm_ref()
 * (fill and median follow in postfilter_cuda.cu).
 *
 * Aggregation: every direction at once, each writing what it adds into the sum (sgm_priv.h's
 * rule) into its own slice of the path volume: its path costs t, a byte a disparity, or, for
 * the vertical paths with census and 8 paths, the levels of V' (half a byte) and min t (a byte
 * a pixel). The selection then sums the slices of a pixel on chip. No stored cost volume (the
 * path kernels make their matching costs from the census images) and no atomics: a slice is
 * written once and read once.
 */
#include <stdint.h>

#include "../sgm/sgm_census.h"
#include "../sgm/sgm_levels.h"
#include "dpx.h"
#include "sgm_launch.h"

/*
 * Cache hints: the path volume is written once and read once, far apart, so its stores and the
 * selection's loads stream (evict first) and leave L2 to the census images every direction reads.
 */
#define JD_SGM_ST(p, v) __stcs(p, v)
#define JD_SGM_LD(p) __ldcs(p)

static __device__ __forceinline__ int clampi_s(int v, int lo, int hi)
{
	return v < lo ? lo : (v > hi ? hi : v);
}

extern "C" __global__ void jd_census_cuda(const uint8_t *__restrict__ im, int w, int h, int stride,
					  uint64_t *__restrict__ out)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;

	if (x >= w) {
		return;
	}
	uint8_t c = im[(size_t)y * stride + x];
	uint64_t bits = 0;

	for (int j = 0; j < JD_CENSUS_H; j++) {
		const uint8_t *row =
		    im + (size_t)clampi_s(y + j - JD_CENSUS_H / 2, 0, h - 1) * stride;
		for (int i = -JD_CENSUS_W / 2; i <= JD_CENSUS_W / 2; i++) {
			if (j == JD_CENSUS_H / 2 && i == 0) {
				continue;
			}
			bits = (bits << 1) | (row[clampi_s(x + i, 0, w - 1)] < c ? 1u : 0u);
		}
	}
	out[(size_t)y * w + x] = bits;
}

/* jd__sgm_adapt_p2() of sgm_priv.h. */
static __device__ __forceinline__ int adapt_p2(int p1, int p2, int t, int i0, int i1)
{
	int diff = i0 > i1 ? i0 - i1 : i1 - i0, v;

	if (t == 0) {
		return p2;
	}
	v = p2 * t / (t + diff);
	return v > p1 + 1 ? v : p1 + 1;
}

/* The reference's sweeps, direction by direction: (dx, dy) steps from the previous pixel. */
__constant__ int jd_sgm_dirs8[8][2] = JD_SGM_DIRS8;
__constant__ int jd_sgm_dirs4[4][2] = JD_SGM_DIRS4;

/* Where scanline `line` of direction (dx, dy) enters the image: 0 when there is no such line. */
static __device__ __forceinline__ int line_start(int line, int dx, int dy, int w, int h, int *x,
						 int *y)
{
	if (dy == 0) {
		*x = dx > 0 ? 0 : w - 1;
		*y = line;
		return line < h;
	}
	if (dx == 0) {
		*x = line;
		*y = dy > 0 ? 0 : h - 1;
		return line < w;
	}
	if (line < w) {
		*x = line;
		*y = dy > 0 ? 0 : h - 1;
	} else {
		*x = dx > 0 ? 0 : w - 1;
		*y = dy > 0 ? line - w + 1 : h - 2 - (line - w);
	}
	return line < w + h - 1;
}

/*
 * C(x, y, d) (sgm_priv.h's jd__sgm_cost_one) of the disparity `off` past the lane's first (cp,
 * rp at its right pixel): the census Hamming distance or the absolute difference. The caller
 * gives the maximum where the right pixel falls off the image.
 */
template <bool CENSUS>
static __device__ __forceinline__ unsigned match(uint64_t cl, const uint64_t *cp, const uint8_t *rp,
						 int i0, int off)
{
	if (CENSUS) {
		return (unsigned)__popcll(cl ^ cp[-off]);
	}
	int diff = i0 - rp[-off];
	return (unsigned)(diff < 0 ? -diff : diff);
}

/*
 * The level (algo/sgm/sgm_levels.h) of both halves of v (each 0..255): min(v, 8 + v / 16, 15). The
 * shift brings four bits of the high half into the low half's top, which the mask drops.
 */
static __device__ __forceinline__ unsigned level_u16x2(unsigned v)
{
	const unsigned coarse =
	    ((v >> JD__SGM_CODE_SHIFT) & 0x000f000fu) + JD__SGM_CODE_EXACT * 0x00010001u;
	return jd_vimin3_small(v, coarse, JD__SGM_CODE_MAX * 0x00010001u);
}

/*
 * Four levels (0..15 each, j = 0, 1 in a's halves, 2, 3 in b's) as the two bytes of a slice of
 * levels, j = 0 and 2 in the low four bits: (l0 | l1 << 4) | (l2 | l3 << 4) << 8.
 */
static __device__ __forceinline__ unsigned level_pack4(unsigned a, unsigned b)
{
	const unsigned j = __byte_perm(a, b, 0x6420); /* bytes l0 l1 l2 l3 */
	return __byte_perm(j | j >> 4, 0, 0x0020);
}

/* The minimum of v over the G lanes of a group (a butterfly; one reduction for a whole warp). */
template <int G> static __device__ __forceinline__ unsigned group_min(unsigned v, unsigned mask)
{
	if constexpr (G == 32) {
		return __reduce_min_sync(mask, v);
	} else {
#pragma unroll
		for (int o = G / 2; o > 0; o >>= 1) {
			v = min(v, __shfl_xor_sync(mask, v, o, G));
		}
		return v;
	}
}

/* N words (1, 2 or a multiple of 4) to o, streaming, in as few stores as they fit. */
template <int N>
static __device__ __forceinline__ void store_words(uint8_t *o, const unsigned (&word)[N])
{
	if constexpr (N == 1) {
		JD_SGM_ST((unsigned *)o, word[0]);
	} else if constexpr (N == 2) {
		JD_SGM_ST((uint2 *)o, make_uint2(word[0], word[1]));
	} else {
#pragma unroll
		for (int v = 0; v < N; v += 4) {
			JD_SGM_ST((uint4 *)(o + 4 * v),
				  make_uint4(word[v], word[v + 1], word[v + 2], word[v + 3]));
		}
	}
}

/*
 * One scanline of one direction for a group of G lanes (a warp walks 32 / G scanlines side by
 * side). Lane g of the group holds the K disparities d = g + G j, two a register: d = g + 2 G q
 * in the low half of pair q, d = g + 2 G q + G in the high half. So Hopper's DPX instructions
 * do the reference's min(a + b, c) on both halves at once (CUDA emulates them before sm_90),
 * the lanes of a group read consecutive census words of the right row, and one shuffle brings
 * the d - 1 (or d + 1) neighbours of both halves from the lane beside; the group's first and
 * last lane take theirs across the pair boundary with a byte permute whose selector is per
 * lane. Disparities from nd up to G K are padding: cost 255 and 255 in the kept vector, which
 * is the reference's edge for d = nd - 1. Lane g stores its K path costs as K bytes at g K of
 * the pixel's G K bytes in the direction's slice sl (jd_cuda_sgm_byte_of() says where d lands).
 * LEVELS: what the path adds into the sum is min t + the level of V' (algo/sgm/sgm_priv.h), so
 * the lane stores the K levels of V' as K / 2 bytes at g K / 2 of the pixel's G K / 2, each
 * byte two levels (the lower j in the low four bits: the byte slice with every byte halved),
 * and min t, a byte a pixel, goes to mt in walk order (a column every JD_SGM_MT_PITCH(h) bytes).
 */
template <int G, int K, bool CENSUS, bool LEVELS>
static __device__ __forceinline__ void
path_walk(const uint64_t *__restrict__ census_l, const uint64_t *__restrict__ census_r,
	  const uint8_t *__restrict__ guide, const uint8_t *__restrict__ right, int stride, int w,
	  int h, int nd, int min_disp, int p1, int dx, int dy, uint8_t *__restrict__ sl,
	  uint8_t *__restrict__ mt, const uint8_t *p2tab)
{
	constexpr int Q = K / 2;
	const unsigned cmax = CENSUS ? 62u : 255u, edge = 0x00ff00ffu;
	const int lane = threadIdx.x % 32, g = lane % G;
	const unsigned mask = G == 32 ? 0xffffffffu : ((1u << G) - 1) << (lane - g);
	const int line = (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32) * (32 / G) + lane / G;
	const int nreal = (nd - g + G - 1) / G; /* this lane's real disparities: j < nreal */
	const unsigned p1x2 = (unsigned)p1 * 0x00010001u;
	const unsigned sel_m = g == 0 ? 0x5432u : 0x7654u, sel_p = g == G - 1 ? 0x5432u : 0x3210u;
	const int src_m = (g + G - 1) % G, src_p = (g + 1) % G;
	int x, y;

	if (!line_start(line, dx, dy, w, h, &x, &y)) {
		return;
	}
	const int n = dy == 0	? w
		      : dx == 0 ? h
				: min(dx > 0 ? w - x : x + 1, dy > 0 ? h - y : y + 1);
	constexpr int KB = LEVELS ? K / 2 : K; /* bytes a lane a pixel */
	const int step_pix = dy * w + dx, step_g = dy * stride + dx;
	int pix = y * w + x, goff = y * stride + x;
	uint8_t *o = sl + (size_t)pix * (G * KB) + KB * g;
	/*
	 * Levels (the vertical walks): min t a pixel in walk order, column x at x pitch, four rows
	 * a store (a byte a step, stored by every lane of the group, cost the walk 9 % more at
	 * 1280x720/128, 3 % of the frame).
	 */
	uint8_t *om = mt + (size_t)x * JD_SGM_MT_PITCH(h);
	int ye = y;
	unsigned mtw = 0;
	const long long ostep = (long long)step_pix * (G * KB);
	unsigned kept[Q], padc[Q];
#pragma unroll
	for (int q = 0; q < Q; q++) {
		padc[q] = (2 * q < nreal ? 0u : 0xffu) | (2 * q + 1 < nreal ? 0u : 0xff0000u);
		/* kept in a register: remade from nreal it cost 6 instructions a step a register */
		asm("" : "+r"(padc[q]));
		kept[q] = padc[q]; /* the path enters from outside: zeros */
	}
	/*
	 * The matching costs of a step, two a register (padding costs 255: c <= 255, so an OR of
	 * 0xff), and its guide pixels. A step's are made one step ahead, so their loads overlap
	 * the previous step's chain of shuffles and minima.
	 */
	auto costs = [&](int at_pix, int at_goff, int at_x, unsigned(&out)[Q], int &i0, int &i1,
			 int first) {
		const int xr0 = at_x - min_disp - g; /* the right pixel of d = g */
		const uint64_t cl = CENSUS ? census_l[at_pix] : 0;
		const uint64_t *cp = census_r + (at_pix - at_x) + xr0;
		const uint8_t *rp = right + (at_goff - at_x) + xr0;
		i0 = guide[at_goff];
		i1 = first ? i0 : guide[at_goff - step_g]; /* the entry: any P2 serves */
		if (xr0 - G * (K - 1) >= 0) { /* every d inside the right image: no checks */
#pragma unroll
			for (int q = 0; q < Q; q++) {
				out[q] = (match<CENSUS>(cl, cp, rp, i0, G * 2 * q) |
					  match<CENSUS>(cl, cp, rp, i0, G * (2 * q + 1)) << 16) |
					 padc[q];
			}
		} else {
#pragma unroll
			for (int q = 0; q < Q; q++) {
				const int j0 = G * 2 * q, j1 = G * (2 * q + 1);
				out[q] =
				    ((xr0 - j0 >= 0 ? match<CENSUS>(cl, cp, rp, i0, j0) : cmax) |
				     (xr0 - j1 >= 0 ? match<CENSUS>(cl, cp, rp, i0, j1) : cmax)
					 << 16) |
				    padc[q];
			}
		}
	};
	/*
	 * Levels: a step's V' as K / 2 bytes and its min t, at o and om, which then move on a
	 * step. Made and stored during the next step's chain (a warp issues in order, and the
	 * packing after a step held back the next one's start: 12 % of the walk at 1280x720).
	 */
	auto emit = [&](unsigned bst) {
		unsigned word[Q / 2];
#pragma unroll
		for (int q = 1; q < Q; q += 2) {
			word[q / 2] = level_pack4(level_u16x2(kept[q - 1]), level_u16x2(kept[q]));
		}
		if constexpr (K == 4) {
			JD_SGM_ST((unsigned short *)o, (unsigned short)word[0]);
		} else {
			unsigned half[Q / 4];
#pragma unroll
			for (int v = 0; v < Q / 4; v++) {
				half[v] = __byte_perm(word[2 * v], word[2 * v + 1], 0x5410);
			}
			store_words<Q / 4>(o, half);
		}
		if (dy > 0) {
			mtw = mtw >> 8 | bst << 24;
			if ((ye & 3) == 3) {
				JD_SGM_ST((unsigned *)(om + ye - 3), mtw);
			}
		} else {
			mtw = mtw << 8 | bst;
			if ((ye & 3) == 0) {
				JD_SGM_ST((unsigned *)(om + ye), mtw);
			}
		}
		ye += dy;
		o += ostep;
	};
	unsigned next[Q], last_best = 0;
	int n0, n1;
	costs(pix, goff, x, next, n0, n1, 1);
	for (int s = 0; s < n; s++) {
		unsigned cost[Q];
#pragma unroll
		for (int q = 0; q < Q; q++) {
			cost[q] = next[q];
		}
		const int i0 = n0, i1 = n1;
		const unsigned p2x2 = p2tab[i0 > i1 ? i0 - i1 : i1 - i0] * 0x00010001u;
		if (s + 1 < n) {
			costs(pix + step_pix, goff + step_g, x + dx, next, n0, n1, 0);
		}
		if (LEVELS && s > 0) { /* the step before's, beside this step's chain */
			emit(last_best);
		}
		unsigned t[Q], best = 0x7bff7bffu; /* above any cost, below 0x7c00 */
		unsigned r_prev = edge, r_cur = __shfl_sync(mask, kept[0], src_m, G);
		unsigned s_cur = __shfl_sync(mask, kept[0], src_p, G);

#pragma unroll
		for (int q = 0; q < Q; q++) {
			const unsigned s_next =
			    q + 1 < Q ? __shfl_sync(mask, kept[q + 1 < Q ? q + 1 : q], src_p, G)
				      : edge;
			const unsigned r_next =
			    q + 1 < Q ? __shfl_sync(mask, kept[q + 1 < Q ? q + 1 : q], src_m, G)
				      : edge;
			const unsigned dm1 = __byte_perm(r_prev, r_cur, sel_m);
			const unsigned dp1 = __byte_perm(s_cur, s_next, sel_p);
			const unsigned cc = cost[q];
			/* no carry between the halves: each stays below 2^9 (the _small forms'
			 * 0x7c00) */
			const unsigned near = jd_viaddmin_small(dm1, p1x2, dp1 + p1x2);
			const unsigned m = jd_vimin3_small(kept[q], p2x2, near);
			t[q] = jd_viaddmin_small(cc, m, edge);
			best = jd_vimin_small(best, t[q]);
			r_prev = r_cur;
			r_cur = r_next;
			s_cur = s_next;
		}
		best = group_min<G>(min(best & 0xffffu, best >> 16), mask);
		const unsigned b2 = best * 0x00010001u;
#pragma unroll
		for (int q = 0; q < Q; q++) {
			kept[q] = (t[q] - b2) | padc[q];
		}
		if constexpr (!LEVELS) {
			unsigned word[Q / 2];
#pragma unroll
			for (int q = 1; q < Q; q += 2) {
				word[q / 2] = __byte_perm(t[q - 1], t[q], 0x6420);
			}
			store_words<Q / 2>(o, word);
			o += ostep;
		} else {
			last_best = best;
		}
		pix += step_pix;
		goff += step_g;
		x += dx;
	}
	if (LEVELS) {
		emit(last_best);
		if (dy > 0 && (h & 3) != 0) { /* the last rows' min t, short of a word */
			JD_SGM_ST((unsigned *)(om + (h & ~3)), mtw >> 8 * (4 - (h & 3)));
		}
	}
}

/*
 * The path kernels, one a shape (G lanes a scanline, K disparities a lane: nd up to G K) and
 * cost: blockIdx.y picks the direction, the (blockIdx.y)-th four bits of dirs its index in the
 * 4- or 8-path table. A direction adds t or, in the kernels of LEVELS (census, 8 paths), levels
 * where it is vertical (algo/sgm/sgm_priv.h); the n-th of its kind in dirs writes the n-th slice of
 * bytes (a pixel every G K bytes), or of levels (every G K / 2) and the n-th min t plane of mt.
 */
template <int G, int K, bool CENSUS, bool LEVELS>
static __device__ __forceinline__ void
path_kernel(const uint64_t *__restrict__ census_l, const uint64_t *__restrict__ census_r,
	    const uint8_t *__restrict__ guide, const uint8_t *__restrict__ right, int stride, int w,
	    int h, int nd, int min_disp, int paths, int p1, int p2, int p2_adapt, unsigned dirs,
	    long long slice, uint8_t *__restrict__ bytes, uint8_t *__restrict__ levels,
	    uint8_t *__restrict__ mt)
{
	__shared__ uint8_t p2tab[256];
	const int mine = (int)(dirs >> 4 * blockIdx.y) & 15;
	const int dx = paths == 8 ? jd_sgm_dirs8[mine][0] : jd_sgm_dirs4[mine][0];
	const int dy = paths == 8 ? jd_sgm_dirs8[mine][1] : jd_sgm_dirs4[mine][1];
	const bool lv = LEVELS && dx == 0;
	int rank = 0; /* directions of its kind before it */

	for (int i = 0; i < (int)blockIdx.y; i++) {
		const int dir = (int)(dirs >> 4 * i) & 15;
		const int ex = paths == 8 ? jd_sgm_dirs8[dir][0] : jd_sgm_dirs4[dir][0];
		rank += LEVELS && (ex == 0) != lv ? 0 : 1;
	}
	for (int i = threadIdx.x; i < 256; i += blockDim.x) {
		p2tab[i] = (uint8_t)adapt_p2(p1, p2, p2_adapt, i, 0);
	}
	__syncthreads();
	if (lv) {
		path_walk<G, K, CENSUS, true>(
		    census_l, census_r, guide, right, stride, w, h, nd, min_disp, p1, dx, dy,
		    levels + (size_t)rank * (size_t)(slice / 2),
		    mt + (size_t)rank * (size_t)w * JD_SGM_MT_PITCH(h), p2tab);
	} else {
		path_walk<G, K, CENSUS, false>(census_l, census_r, guide, right, stride, w, h, nd,
					       min_disp, p1, dx, dy,
					       bytes + (size_t)rank * (size_t)slice, mt, p2tab);
	}
}

#define JD_SGM_PATH_KERNEL(NAME, G, K, CENSUS, LEVELS)                                             \
	extern "C" __global__ void __launch_bounds__(JD_SGM_PATH_THREADS)                          \
	    NAME(const uint64_t *__restrict__ census_l, const uint64_t *__restrict__ census_r,     \
		 const uint8_t *__restrict__ guide, const uint8_t *__restrict__ right, int stride, \
		 int w, int h, int nd, int min_disp, int paths, int p1, int p2, int p2_adapt,      \
		 unsigned dirs, long long slice, uint8_t *__restrict__ bytes,                      \
		 uint8_t *__restrict__ levels, uint8_t *__restrict__ mt)                           \
	{                                                                                          \
		path_kernel<G, K, CENSUS, LEVELS>(census_l, census_r, guide, right, stride, w, h,  \
						  nd, min_disp, paths, p1, p2, p2_adapt, dirs,     \
						  slice, bytes, levels, mt);                       \
	}
JD_SGM_PATH_KERNEL(jd_sgm_path_c0, 1, 4, true, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_c1, 2, 4, true, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_c2, 4, 4, true, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_c3, 8, 4, true, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_c4, 16, 4, true, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_c5, 32, 4, true, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_c6, 1, 8, true, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_c7, 2, 8, true, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_c8, 4, 8, true, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_c9, 8, 8, true, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_c10, 16, 8, true, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_c11, 32, 8, true, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_c12, 32, 16, true, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_c13, 32, 32, true, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a0, 1, 4, false, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a1, 2, 4, false, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a2, 4, 4, false, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a3, 8, 4, false, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a4, 16, 4, false, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a5, 32, 4, false, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a6, 1, 8, false, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a7, 2, 8, false, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a8, 4, 8, false, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a9, 8, 8, false, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a10, 16, 8, false, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a11, 32, 8, false, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a12, 32, 16, false, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a13, 32, 32, false, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_m0, 1, 4, true, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_m1, 2, 4, true, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_m2, 4, 4, true, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_m3, 8, 4, true, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_m4, 16, 4, true, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_m5, 32, 4, true, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_m6, 1, 8, true, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_m7, 2, 8, true, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_m8, 4, 8, true, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_m9, 8, 8, true, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_m10, 16, 8, true, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_m11, 32, 8, true, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_m12, 32, 16, true, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_m13, 32, 32, true, true)

/*
 * The selection's view of a pixel's G K bytes (a direction's slice): GS lanes a pixel, each taking
 * the KS contiguous bytes of R path lanes (16 bytes where the path lanes hold fewer), so one
 * vector load a slice brings a lane's share and a warp selects 32 / GS pixels at once. Byte b of
 * selection lane gs is path lane gs R + b / K's disparity j = b % K: d = gs R + b / K + G (b % K).
 */
template <int G, int K> struct sel_shape {
	static constexpr int R = K >= 16 ? 1 : (16 / K < G ? 16 / K : G);
	static constexpr int GS = G / R, KS = K * R;
	static __device__ __forceinline__ int d_of(int gs, int b)
	{
		return gs * R + b / K + G * (b % K);
	}
};

/* A lane's N contiguous bytes of a slice (2, 4, 8 or a multiple of 16) as words, streaming. */
template <int N>
static __device__ __forceinline__ void load_share(const uint8_t *q,
						  unsigned (&u)[N < 4 ? 1 : N / 4])
{
	if constexpr (N == 2) {
		u[0] = JD_SGM_LD((const unsigned short *)q);
	} else if constexpr (N == 4) {
		u[0] = JD_SGM_LD((const unsigned *)q);
	} else if constexpr (N == 8) {
		const uint2 v2 = JD_SGM_LD((const uint2 *)q);
		u[0] = v2.x;
		u[1] = v2.y;
	} else {
#pragma unroll
		for (int v = 0; v < N / 4; v += 4) {
			const uint4 v4 = JD_SGM_LD((const uint4 *)q + v / 4);
			u[v] = v4.x;
			u[v + 1] = v4.y;
			u[v + 2] = v4.z;
			u[v + 3] = v4.w;
		}
	}
}

/* s[] of the lane that holds disparity d (every lane of the pixel's group passes its own). */
template <int G, int K>
static __device__ __forceinline__ unsigned take(const unsigned (&v)[sel_shape<G, K>::KS], int d,
						unsigned mask)
{
	using S = sel_shape<G, K>;
	const int gp = d % G, b = (gp % S::R) * K + d / G;
	unsigned mine = 0;
#pragma unroll
	for (int i = 0; i < S::KS; i++) {
		mine = i == b ? v[i] : mine;
	}
	return __shfl_sync(mask, mine, gp / S::R, S::GS);
}

/*
 * Selection, one block a row: GS lanes a pixel (sel_shape), each lane the sums of its KS
 * disparities over the directions' slices (added two to a register): the ndirs slices of
 * bytes at vol, then the nlev of levels at lev (slice / 2 bytes each) and their min t planes
 * at mt (a column every JD_SGM_MT_PITCH(h) bytes). Then the winner,
 * uniqueness and sub-pixel through group reductions and shuffles, and every sum offered to the
 * right view's winner at x - min_disp - d in shared memory, keyed sum << 10 | d so that the least
 * key is the reference's first least sum (sums stay below 2^12, d below 2^10). Then, the row
 * complete, the left-right check. Shared memory: the keys (w words), the winners (w int16).
 */
template <int G, int K>
static __device__ __forceinline__ void
select_row(const uint8_t *__restrict__ vol, long long slice, int ndirs,
	   const uint8_t *__restrict__ lev, int nlev, const uint8_t *__restrict__ mt, int w, int nd,
	   int min_disp, int uniq, int subpix, int lr, int lr_max_diff, float *__restrict__ out)
{
	using S = sel_shape<G, K>;
	constexpr int GS = S::GS, KS = S::KS, W = KS / 4; /* W words a lane a slice */
	extern __shared__ uint32_t rkey[];
	int16_t *best_l = (int16_t *)(rkey + w);
	const unsigned full = 0xffffffffu;
	const int y = blockIdx.x, lane = threadIdx.x % 32, g = lane % GS, warps = blockDim.x / 32;
	const unsigned mask = GS == 32 ? full : ((1u << GS) - 1) << (lane - g);
	float *orow = out + (size_t)y * w;

	for (int i = threadIdx.x; i < w; i += blockDim.x) {
		rkey[i] = 0xffffffffu;
	}
	__syncthreads();
	for (int x = (threadIdx.x / 32) * (32 / GS) + lane / GS; x < w; x += warps * (32 / GS)) {
		const uint8_t *pix = vol + ((size_t)y * w + x) * (G * K) + KS * g;
		unsigned even[W], odd[W], s[KS], bkey = full;

#pragma unroll
		for (int v = 0; v < W; v++) {
			even[v] = odd[v] = 0;
		}
		for (int r = 0; r < ndirs; r++) {
			unsigned u[W];
			load_share<KS>(pix + (size_t)r * (size_t)slice, u);
#pragma unroll
			for (int v = 0; v < W; v++) {
				even[v] += u[v] & 0x00ff00ffu;
				odd[v] += (u[v] >> 8) & 0x00ff00ffu;
			}
		}
		/*
		 * Slices of levels: KS / 2 bytes a lane, the byte slice's bytes halved, so a
		 * word's bytes 0 and 1 spread to the halves of a register are the levels of bytes
		 * 4v .. 4v + 3 (v even; bytes 2 and 3 those of v + 1): the low four bits the even
		 * ones, the high the odd. A level c stands for c + 15 max(c - 8, 0).
		 */
		unsigned base = 0;
		for (int r = 0; r < nlev; r++) {
			const uint8_t *q = lev + (size_t)r * (size_t)(slice / 2) +
					   ((size_t)y * w + x) * (G * K / 2) + KS / 2 * g;
			unsigned u[W < 2 ? 1 : W / 2];
			load_share<KS / 2>(q, u);
#pragma unroll
			for (int v = 0; v < W; v++) {
				const unsigned x2 =
				    __byte_perm(u[v / 2], 0, v % 2 ? 0x4342 : 0x4140);
				const unsigned ce = x2 & 0x000f000fu, co = (x2 >> 4) & 0x000f000fu;
				const unsigned m8 = 0xfff8fff8u; /* -8 in both halves */
				even[v] += ce + 15u * jd_viaddmax_s16x2(ce, m8, 0);
				odd[v] += co + 15u * jd_viaddmax_s16x2(co, m8, 0);
			}
			const int pitch = JD_SGM_MT_PITCH(gridDim.x); /* a block a row */
			base += mt[(size_t)r * w * pitch + (size_t)x * pitch + y];
		}
#pragma unroll
		for (int v = 0; v < W; v++) { /* bytes 4v .. 4v + 3 */
			even[v] += base * 0x00010001u;
			odd[v] += base * 0x00010001u;
			s[4 * v] = even[v] & 0xffffu;
			s[4 * v + 1] = odd[v] & 0xffffu;
			s[4 * v + 2] = even[v] >> 16;
			s[4 * v + 3] = odd[v] >> 16;
		}
#pragma unroll
		for (int b = 0; b < KS; b++) {
			const int d = S::d_of(g, b), xr = x - min_disp - d;
			if (d < nd) {
				unsigned key = s[b] << 10 | (unsigned)d;
				bkey = min(bkey, key);
				if (lr && xr >= 0) {
					atomicMin(rkey + xr, key);
				}
			}
		}
		bkey = group_min<GS>(bkey, mask);
		const unsigned bv = bkey >> 10;
		const int best = (int)(bkey & 1023u);
		int invalid = x - min_disp - best < 0;
		if (uniq && !invalid) {
			/* OpenCV's rule: the best outside best +- 1 must stay out of the margin. */
			unsigned m = full;
#pragma unroll
			for (int b = 0; b < KS; b++) {
				const int d = S::d_of(g, b);
				if (d < nd && (d < best - 1 || d > best + 1)) {
					m = min(m, s[b]);
				}
			}
			m = group_min<GS>(m, mask);
			invalid = m != full && (long)m * (100 - uniq) < (long)bv * 100;
		}
		const int inner = subpix && !invalid && best > 0 && best < nd - 1;
		int c0 = 0, c2 = 0;
		if (inner) { /* group-uniform: every lane of the group passes its value */
			c0 = (int)take<G, K>(s, best - 1, mask);
			c2 = (int)take<G, K>(s, best + 1, mask);
		}
		if (g != 0) {
			continue;
		}
		best_l[x] = (int16_t)(invalid ? -1 : best);
		if (invalid) {
			orow[x] = __int_as_float(0x7f800000);
			continue;
		}
		float v = (float)(min_disp + best);
		if (inner) {
			int c1 = (int)bv, rise = (c0 > c2 ? c0 : c2) - c1;
			/* IEEE division, as the reference's (nvcc's default -prec-div=true). */
			v = v + (rise > 0 ? __fdiv_rn((float)(c0 - c2), (float)(2 * rise)) : 0.0f);
		}
		orow[x] = v;
	}
	if (!lr) {
		return;
	}
	__syncthreads();
	for (int x = threadIdx.x; x < w; x += blockDim.x) {
		int b = best_l[x];
		if (b < 0) {
			continue;
		}
		/* The reference starts at UINT16_MAX with strict <: a right pixel no sum reached
		 * has no winner. */
		unsigned key = rkey[x - min_disp - b];
		int dr = key == 0xffffffffu ? -1 : (int)(key & 1023u);
		if (dr < 0 || (dr > b ? dr - b : b - dr) > lr_max_diff) {
			orow[x] = __int_as_float(0x7f800000);
		}
	}
}

#define JD_SGM_SELECT_KERNEL(NAME, G, K)                                                           \
	extern "C" __global__ void NAME(const uint8_t *__restrict__ vol, long long slice,          \
					int ndirs, const uint8_t *__restrict__ lev, int nlev,      \
					const uint8_t *__restrict__ mt, int w, int nd,             \
					int min_disp, int uniq, int subpix, int lr,                \
					int lr_max_diff, float *__restrict__ out)                  \
	{                                                                                          \
		select_row<G, K>(vol, slice, ndirs, lev, nlev, mt, w, nd, min_disp, uniq, subpix,  \
				 lr, lr_max_diff, out);                                            \
	}
JD_SGM_SELECT_KERNEL(jd_sgm_select_0, 1, 4)
JD_SGM_SELECT_KERNEL(jd_sgm_select_1, 2, 4)
JD_SGM_SELECT_KERNEL(jd_sgm_select_2, 4, 4)
JD_SGM_SELECT_KERNEL(jd_sgm_select_3, 8, 4)
JD_SGM_SELECT_KERNEL(jd_sgm_select_4, 16, 4)
JD_SGM_SELECT_KERNEL(jd_sgm_select_5, 32, 4)
JD_SGM_SELECT_KERNEL(jd_sgm_select_6, 1, 8)
JD_SGM_SELECT_KERNEL(jd_sgm_select_7, 2, 8)
JD_SGM_SELECT_KERNEL(jd_sgm_select_8, 4, 8)
JD_SGM_SELECT_KERNEL(jd_sgm_select_9, 8, 8)
JD_SGM_SELECT_KERNEL(jd_sgm_select_10, 16, 8)
JD_SGM_SELECT_KERNEL(jd_sgm_select_11, 32, 8)
JD_SGM_SELECT_KERNEL(jd_sgm_select_12, 32, 16)
JD_SGM_SELECT_KERNEL(jd_sgm_select_13, 32, 32)
