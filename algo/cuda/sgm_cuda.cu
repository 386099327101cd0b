/*
 * SGM on the GPU, stage by stage the twin of sgm_cost.c, sgm_aggregate.c and sgm_select.c:
 * the same bytes, edge rules and tie rules, so the disparity map is identical to jd_sgm_ref()
 * (fill and median follow in postfilter_cuda.cu).
 *
 * Aggregation: every direction at once, each writing its path costs t (sgm_priv.h's rule,
 * one byte a disparity) into its own slice of the path volume; the selection then sums the
 * slices of a pixel on chip. No stored cost volume (the path kernels make their matching costs
 * from the census images) and no atomics: a path cost is written once and read once.
 */
#include <stdint.h>

#include "../sgm_census.h"
#include "sgm_cuda.h"


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

extern "C" __global__ void jd_census_cuda(const uint8_t *__restrict__ im, int w, int h,
					  int stride, uint64_t *__restrict__ out)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;

	if (x >= w) {
		return;
	}
	uint8_t c = im[(size_t)y * stride + x];
	uint64_t bits = 0;

	for (int j = 0; j < JD_CENSUS_H; j++) {
		const uint8_t *row = im + (size_t)clampi_s(y + j - JD_CENSUS_H / 2, 0, h - 1) * stride;
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

/* The minimum of v over the G lanes of a group (a butterfly; one reduction for a whole warp). */
template <int G>
static __device__ __forceinline__ unsigned group_min(unsigned v, unsigned mask)
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
 * the pixel's G K bytes in the direction's slice (jd_cuda_sgm_byte_of() says where d lands).
 */
template <int G, int K, bool CENSUS>
static __device__ __forceinline__ void
path_walk(const uint64_t *__restrict__ census_l, const uint64_t *__restrict__ census_r,
	  const uint8_t *__restrict__ guide, const uint8_t *__restrict__ right, int stride, int w,
	  int h, int nd, int min_disp, int paths, int p1, int dir0, long long slice,
	  uint8_t *__restrict__ vol, const uint8_t *p2tab)
{
	constexpr int Q = K / 2;
	const unsigned cmax = CENSUS ? 62u : 255u, edge = 0x00ff00ffu;
	const int lane = threadIdx.x % 32, g = lane % G;
	const unsigned mask = G == 32 ? 0xffffffffu : ((1u << G) - 1) << (lane - g);
	const int line = (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32) * (32 / G) + lane / G;
	const int dir = dir0 + blockIdx.y;
	const int dx = paths == 8 ? jd_sgm_dirs8[dir][0] : jd_sgm_dirs4[dir][0];
	const int dy = paths == 8 ? jd_sgm_dirs8[dir][1] : jd_sgm_dirs4[dir][1];
	const int nreal = (nd - g + G - 1) / G; /* this lane's real disparities: j < nreal */
	const unsigned p1x2 = (unsigned)p1 * 0x00010001u;
	const unsigned sel_m = g == 0 ? 0x5432u : 0x7654u, sel_p = g == G - 1 ? 0x5432u : 0x3210u;
	const int src_m = (g + G - 1) % G, src_p = (g + 1) % G;
	int x, y;

	if (!line_start(line, dx, dy, w, h, &x, &y)) {
		return;
	}
	const int n = dy == 0 ? w
		    : dx == 0 ? h
			      : min(dx > 0 ? w - x : x + 1, dy > 0 ? h - y : y + 1);
	const int step_pix = dy * w + dx, step_g = dy * stride + dx;
	int pix = y * w + x, goff = y * stride + x;
	uint8_t *o = vol + (size_t)dir * (size_t)slice + (size_t)pix * (G * K) + K * g;
	const long long ostep = (long long)step_pix * (G * K);
	unsigned kept[Q], padc[Q];
#pragma unroll
	for (int q = 0; q < Q; q++) {
		padc[q] = (2 * q < nreal ? 0u : 0xffu) | (2 * q + 1 < nreal ? 0u : 0xff0000u);
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
				out[q] = ((xr0 - j0 >= 0 ? match<CENSUS>(cl, cp, rp, i0, j0) : cmax) |
					  (xr0 - j1 >= 0 ? match<CENSUS>(cl, cp, rp, i0, j1) : cmax) << 16) |
					 padc[q];
			}
		}
	};
	unsigned next[Q];
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
		unsigned t[Q], best = 0xffffffffu;
		unsigned r_prev = edge, r_cur = __shfl_sync(mask, kept[0], src_m, G);
		unsigned s_cur = __shfl_sync(mask, kept[0], src_p, G);

#pragma unroll
		for (int q = 0; q < Q; q++) {
			const unsigned s_next =
			    q + 1 < Q ? __shfl_sync(mask, kept[q + 1 < Q ? q + 1 : q], src_p, G) : edge;
			const unsigned r_next =
			    q + 1 < Q ? __shfl_sync(mask, kept[q + 1 < Q ? q + 1 : q], src_m, G) : edge;
			const unsigned dm1 = __byte_perm(r_prev, r_cur, sel_m);
			const unsigned dp1 = __byte_perm(s_cur, s_next, sel_p);
			const unsigned cc = cost[q];
			/* no carry between the halves: each stays below 2^9 */
			const unsigned near = __viaddmin_u16x2(dm1, p1x2, dp1 + p1x2);
			const unsigned m = __vimin3_u16x2(kept[q], p2x2, near);
			t[q] = __viaddmin_u16x2(cc, m, edge);
			best = __vimin3_u16x2(best, t[q], t[q]);
			r_prev = r_cur;
			r_cur = r_next;
			s_cur = s_next;
		}
		best = group_min<G>(min(best & 0xffffu, best >> 16), mask);
		const unsigned b2 = best * 0x00010001u;
		unsigned word[Q / 2];
#pragma unroll
		for (int q = 0; q < Q; q++) {
			kept[q] = (t[q] - b2) | padc[q];
			if (q % 2 == 1) {
				word[q / 2] = __byte_perm(t[q - 1], t[q], 0x6420);
			}
		}
		if constexpr (K == 4) {
			JD_SGM_ST((unsigned *)o, word[0]);
		} else if constexpr (K == 8) {
			JD_SGM_ST((uint2 *)o, make_uint2(word[0], word[1]));
		} else {
#pragma unroll
			for (int v = 0; v < Q / 2; v += 4) {
				JD_SGM_ST((uint4 *)(o + 4 * v),
					  make_uint4(word[v], word[v + 1], word[v + 2], word[v + 3]));
			}
		}
		pix += step_pix;
		goff += step_g;
		x += dx;
		o += ostep;
	}
}

/*
 * The path kernels, one a shape (G lanes a scanline, K disparities a lane: nd up to G K) and
 * cost: blockIdx.y picks the direction, counted from dir0 (0, or the one direction a stage check
 * runs), and every direction's slice of vol gets its path costs, a pixel every G K bytes.
 */
#define JD_SGM_PATH_KERNEL(NAME, G, K, CENSUS)                                                   \
	extern "C" __global__ void __launch_bounds__(JD_SGM_PATH_THREADS) NAME(                    \
	    const uint64_t *__restrict__ census_l, const uint64_t *__restrict__ census_r,          \
	    const uint8_t *__restrict__ guide, const uint8_t *__restrict__ right, int stride, int w, \
	    int h, int nd, int min_disp, int paths, int p1, int p2, int p2_adapt, int dir0,         \
	    long long slice, uint8_t *__restrict__ vol)                                            \
	{                                                                                         \
		__shared__ uint8_t p2tab[256];                                                    \
		for (int i = threadIdx.x; i < 256; i += blockDim.x) {                             \
			p2tab[i] = (uint8_t)adapt_p2(p1, p2, p2_adapt, i, 0);                     \
		}                                                                                 \
		__syncthreads();                                                                  \
		path_walk<G, K, CENSUS>(census_l, census_r, guide, right, stride, w, h, nd,          \
					min_disp, paths, p1, dir0, slice, vol, p2tab);              \
	}
JD_SGM_PATH_KERNEL(jd_sgm_path_c0, 1, 4, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_c1, 2, 4, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_c2, 4, 4, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_c3, 8, 4, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_c4, 16, 4, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_c5, 32, 4, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_c6, 1, 8, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_c7, 2, 8, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_c8, 4, 8, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_c9, 8, 8, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_c10, 16, 8, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_c11, 32, 8, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_c12, 32, 16, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_c13, 32, 32, true)
JD_SGM_PATH_KERNEL(jd_sgm_path_a0, 1, 4, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a1, 2, 4, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a2, 4, 4, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a3, 8, 4, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a4, 16, 4, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a5, 32, 4, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a6, 1, 8, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a7, 2, 8, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a8, 4, 8, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a9, 8, 8, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a10, 16, 8, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a11, 32, 8, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a12, 32, 16, false)
JD_SGM_PATH_KERNEL(jd_sgm_path_a13, 32, 32, false)

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
 * disparities over the directions' slices (added two to a register). Then the winner,
 * uniqueness and sub-pixel through group reductions and shuffles, and every sum offered to the
 * right view's winner at x - min_disp - d in shared memory, keyed sum << 10 | d so that the least
 * key is the reference's first least sum (sums stay below 2^11, d below 2^10). Then, the row
 * complete, the left-right check. Shared memory: the keys (w words), the winners (w int16).
 */
template <int G, int K>
static __device__ __forceinline__ void
select_row(const uint8_t *__restrict__ vol, long long slice, int ndirs, int w, int nd,
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
			const uint8_t *q = pix + (size_t)r * (size_t)slice;
			unsigned u[W];
			if constexpr (W == 1) {
				u[0] = JD_SGM_LD((const unsigned *)q);
			} else if constexpr (W == 2) {
				const uint2 v2 = JD_SGM_LD((const uint2 *)q);
				u[0] = v2.x;
				u[1] = v2.y;
			} else {
#pragma unroll
				for (int v = 0; v < W; v += 4) {
					const uint4 v4 = JD_SGM_LD((const uint4 *)q + v / 4);
					u[v] = v4.x;
					u[v + 1] = v4.y;
					u[v + 2] = v4.z;
					u[v + 3] = v4.w;
				}
			}
#pragma unroll
			for (int v = 0; v < W; v++) {
				even[v] += u[v] & 0x00ff00ffu;
				odd[v] += (u[v] >> 8) & 0x00ff00ffu;
			}
		}
#pragma unroll
		for (int v = 0; v < W; v++) { /* bytes 4v .. 4v + 3 */
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

#define JD_SGM_SELECT_KERNEL(NAME, G, K)                                                         \
	extern "C" __global__ void NAME(const uint8_t *__restrict__ vol, long long slice,         \
					int ndirs, int w, int nd, int min_disp, int uniq,          \
					int subpix, int lr, int lr_max_diff,                       \
					float *__restrict__ out)                                   \
	{                                                                                         \
		select_row<G, K>(vol, slice, ndirs, w, nd, min_disp, uniq, subpix, lr,             \
				 lr_max_diff, out);                                                \
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
