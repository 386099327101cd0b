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

/*
 * C(x, y, d) (sgm_priv.h's jd__sgm_cost_one): the census Hamming distance (census != 0) or
 * the absolute difference, the maximum where x - min_disp - d falls off the right image. The
 * path kernel computes it where it needs it instead of reading a stored volume.
 */
static __device__ __forceinline__ int match_cost(int census, uint64_t cl, int il,
						 const uint64_t *__restrict__ crow,
						 const uint8_t *__restrict__ rrow, int xr)
{
	if (xr < 0) {
		return census ? 62 : 255;
	}
	if (census) {
		return __popcll(cl ^ crow[xr]);
	}
	int ir = rrow[xr];
	return il > ir ? il - ir : ir - il;
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

/* The least of the four bytes of v. */
static __device__ __forceinline__ unsigned min_byte(unsigned v)
{
	v = __vminu4(v, v >> 16);
	v = __vminu4(v, v >> 8);
	return v & 0xffu;
}

/*
 * One scanline of one direction for a group of `glanes` lanes (a power of two up to 32; a warp
 * walks 32 / glanes scanlines side by side). Lane g of the group holds disparities
 * 4 (g V + v) + k in byte k of word v: four a register, so one SIMD instruction does the
 * reference's arithmetic for four disparities (saturating adds where it clamps at 255).
 * Disparities past nd are padding: cost 255, and 255 in the kept vector, which is the
 * reference's edge for d = nd - 1. The d - 1 and d + 1 neighbours come from funnel shifts of
 * adjacent words, across lanes through shuffles. The group's minimum is a warp reduction (a
 * butterfly when the group is smaller than the warp).
 */
template <int V>
static __device__ __forceinline__ void
path_walk(const uint64_t *__restrict__ census_l, const uint64_t *__restrict__ census_r,
	  const uint8_t *__restrict__ guide, const uint8_t *__restrict__ right, int stride, int w,
	  int h, int nd, int min_disp, int census, int paths, int p1, int dir0, int glanes,
	  int ndp, long long slice, uint8_t *__restrict__ vol, const uint8_t *p2tab)
{
	const int lane = threadIdx.x % 32, g = lane & (glanes - 1);
	const unsigned mask = glanes == 32 ? 0xffffffffu : ((1u << glanes) - 1) << (lane & ~(glanes - 1));
	const int line = (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32) * (32 / glanes) + lane / glanes;
	const int dir = dir0 + blockIdx.y;
	const int dx = paths == 8 ? jd_sgm_dirs8[dir][0] : jd_sgm_dirs4[dir][0];
	const int dy = paths == 8 ? jd_sgm_dirs8[dir][1] : jd_sgm_dirs4[dir][1];
	const unsigned cmax = census ? 62u : 255u, p1x4 = (unsigned)p1 * 0x01010101u;
	int x, y, nlines;

	if (dy == 0) {
		nlines = h;
		x = dx > 0 ? 0 : w - 1;
		y = line;
	} else if (dx == 0) {
		nlines = w;
		x = line;
		y = dy > 0 ? 0 : h - 1;
	} else {
		nlines = w + h - 1;
		if (line < w) {
			x = line;
			y = dy > 0 ? 0 : h - 1;
		} else {
			x = dx > 0 ? 0 : w - 1;
			y = dy > 0 ? line - w + 1 : h - 2 - (line - w);
		}
	}
	if (line >= nlines) {
		return;
	}
	uint8_t *out = vol + (size_t)dir * (size_t)slice + 4 * g * V;
	unsigned kept[V], pad[V];
	for (int v = 0; v < V; v++) {
		int e0 = 4 * (g * V + v);
		pad[v] = 0;
		for (int k = 0; k < 4; k++) {
			pad[v] |= e0 + k >= nd ? 0xffu << (8 * k) : 0u;
		}
		kept[v] = pad[v]; /* the path enters from outside: zeros */
	}
	for (int px = x - dx, py = y - dy; x >= 0 && x < w && y >= 0 && y < h;
	     px = x, py = y, x += dx, y += dy) {
		const int i0 = guide[(size_t)y * stride + x];
		const int first = px < 0 || px >= w || py < 0 || py >= h;
		const int i1 = first ? i0 : guide[(size_t)py * stride + px];
		const unsigned p2x4 = p2tab[i0 > i1 ? i0 - i1 : i1 - i0] * 0x01010101u;
		const uint64_t cl = census ? census_l[(size_t)y * w + x] : 0;
		const uint64_t *crow = census_r + (size_t)y * w;
		const uint8_t *rrow = right + (size_t)y * stride;
		unsigned left_in = __shfl_up_sync(mask, kept[V - 1], 1, glanes);
		unsigned right_in = __shfl_down_sync(mask, kept[0], 1, glanes);
		unsigned t[V], best = 0xffffffffu;

		left_in = g == 0 ? 0xffffffffu : left_in;
		right_in = g == glanes - 1 ? 0xffffffffu : right_in;
#pragma unroll
		for (int v = 0; v < V; v++) {
			const int e0 = 4 * (g * V + v);
			unsigned c = 0;
#pragma unroll
			for (int k = 0; k < 4; k++) {
				const int e = e0 + k, xr = x - min_disp - e;
				unsigned ck;
				if (e >= nd) {
					ck = 255u;
				} else if (xr < 0) {
					ck = cmax;
				} else if (census) {
					ck = (unsigned)__popcll(cl ^ crow[xr]);
				} else {
					int d = i0 - rrow[xr];
					ck = (unsigned)(d < 0 ? -d : d);
				}
				c |= ck << (8 * k);
			}
			const unsigned lo = v > 0 ? kept[v - 1] : left_in;
			const unsigned hi = v < V - 1 ? kept[v + 1] : right_in;
			const unsigned dm1 = __funnelshift_l(lo, kept[v], 8);
			const unsigned dp1 = __funnelshift_r(kept[v], hi, 8);
			const unsigned near = __vaddus4(__vminu4(dm1, dp1), p1x4);
			const unsigned m = __vminu4(__vminu4(kept[v], near), p2x4);
			t[v] = __vaddus4(c, m);
			best = __vminu4(best, t[v]);
		}
		unsigned b = min_byte(best);
		if (glanes == 32) {
			b = __reduce_min_sync(mask, b);
		} else {
			for (int o = glanes / 2; o > 0; o >>= 1) {
				b = min(b, __shfl_xor_sync(mask, b, o, glanes));
			}
		}
		const unsigned b4 = b * 0x01010101u;
		uint8_t *o = out + ((size_t)y * w + x) * ndp;
#pragma unroll
		for (int v = 0; v < V; v++) {
			kept[v] = __vsubus4(t[v], b4) | pad[v];
		}
		if (V == 1) {
			*(unsigned *)o = t[0];
		} else if (V == 2) {
			*(uint2 *)o = make_uint2(t[0], t[1]);
		} else {
#pragma unroll
			for (int v = 0; v < V; v += 4) {
				*(uint4 *)(o + 4 * v) = make_uint4(t[v], t[v + 1], t[v + 2], t[v + 3]);
			}
		}
	}
}

/*
 * The path kernels, one a register count a lane (V words: nd up to 128 V): blockIdx.y picks
 * the direction, counted from dir0 (0, or the one direction a stage check runs), and every
 * direction's slice of vol gets its path costs, a pixel every ndp bytes.
 */
#define JD_SGM_PATH_KERNEL(V)                                                                     \
	extern "C" __global__ void __launch_bounds__(JD_SGM_PATH_THREADS) jd_sgm_path_##V(          \
	    const uint64_t *__restrict__ census_l, const uint64_t *__restrict__ census_r,          \
	    const uint8_t *__restrict__ guide, const uint8_t *__restrict__ right, int stride, int w, \
	    int h, int nd, int min_disp, int census, int paths, int p1, int p2, int p2_adapt,       \
	    int dir0, int glanes, int ndp, long long slice, uint8_t *__restrict__ vol)             \
	{                                                                                         \
		__shared__ uint8_t p2tab[256];                                                    \
		for (int i = threadIdx.x; i < 256; i += blockDim.x) {                             \
			p2tab[i] = (uint8_t)adapt_p2(p1, p2, p2_adapt, i, 0);                     \
		}                                                                                 \
		__syncthreads();                                                                  \
		path_walk<V>(census_l, census_r, guide, right, stride, w, h, nd, min_disp, census,   \
			     paths, p1, dir0, glanes, ndp, slice, vol, p2tab);                        \
	}
JD_SGM_PATH_KERNEL(1)
JD_SGM_PATH_KERNEL(2)
JD_SGM_PATH_KERNEL(4)
JD_SGM_PATH_KERNEL(8)

/* (value, index) minimum over the warp, the smaller index on ties: the reference's first minimum. */
static __device__ __forceinline__ void warp_argmin(unsigned &v, int &i)
{
	for (int o = 16; o > 0; o >>= 1) {
		unsigned ov = __shfl_xor_sync(0xffffffffu, v, o);
		int oi = __shfl_xor_sync(0xffffffffu, i, o);
		if (ov < v || (ov == v && oi < i)) {
			v = ov;
			i = oi;
		}
	}
}

/*
 * Selection, one block a row: each warp takes pixels x = warp, warp + warps, ... and first sums
 * the pixel's path costs over the directions' slices (four disparities a lane and a load, two
 * 16-bit sums a register) into its vector in shared memory; then, lanes over d, the winner,
 * uniqueness and sub-pixel, and every sum offered to the right view's winner at x - min_disp
 * - d in shared memory, keyed sum << 10 | d so that the least key is the reference's first
 * least sum (sums stay below 2^11, d below 2^10). Then, the row complete, the left-right check.
 * Shared memory: the keys (w words), the winners (w int16, rounded up to even), a vector of
 * ndp uint16 a warp.
 */
extern "C" __global__ void jd_sgm_select_row_cuda(const uint8_t *__restrict__ vol, long long slice,
						  int ndirs, int w, int nd, int ndp, int min_disp,
						  int uniq, int subpix, int lr, int lr_max_diff,
						  float *__restrict__ out)
{
	extern __shared__ uint32_t rkey[];
	int16_t *best_l = (int16_t *)(rkey + w);
	const int y = blockIdx.x, lane = threadIdx.x % 32, warps = blockDim.x / 32;
	uint16_t *s = (uint16_t *)(best_l + ((w + 1) & ~1)) + (threadIdx.x / 32) * ndp;
	float *orow = out + (size_t)y * w;

	for (int i = threadIdx.x; i < w; i += blockDim.x) {
		rkey[i] = 0xffffffffu;
	}
	__syncthreads();
	for (int x = threadIdx.x / 32; x < w; x += warps) {
		__syncwarp(); /* the last pixel's lanes are done with the vector */
		const uint8_t *pix = vol + ((size_t)y * w + x) * ndp;
		unsigned bv = 0xffffffffu;
		int best = 0x7fffffff;

		for (int q = lane; q < ndp / 4; q += 32) {
			unsigned even = 0, odd = 0; /* d = 4q, 4q + 2 and d = 4q + 1, 4q + 3 */
			for (int r = 0; r < ndirs; r++) {
				unsigned v = *(const unsigned *)(pix + (size_t)r * (size_t)slice + 4 * q);
				even += v & 0x00ff00ffu;
				odd += (v >> 8) & 0x00ff00ffu;
			}
			unsigned *pair = (unsigned *)(s + 4 * q);
			pair[0] = (even & 0xffffu) | (odd << 16);
			pair[1] = (even >> 16) | (odd & 0xffff0000u);
		}
		__syncwarp();
		for (int d = lane; d < nd; d += 32) {
			unsigned v = s[d];
			int xr = x - min_disp - d;
			if (v < bv) {
				bv = v;
				best = d;
			}
			if (lr && xr >= 0) {
				atomicMin(rkey + xr, v << 10 | (unsigned)d);
			}
		}
		warp_argmin(bv, best);
		int invalid = x - min_disp - best < 0;
		if (uniq && !invalid) {
			/* OpenCV's rule: the best outside best +- 1 must stay out of the margin. */
			unsigned m = 0xffffffffu;
			for (int d = lane; d < nd; d += 32) {
				if ((d < best - 1 || d > best + 1) && s[d] < m) {
					m = s[d];
				}
			}
			m = __reduce_min_sync(0xffffffffu, m);
			invalid = m != 0xffffffffu && (long)m * (100 - uniq) < (long)bv * 100;
		}
		if (lane != 0) {
			continue;
		}
		best_l[x] = (int16_t)(invalid ? -1 : best);
		if (invalid) {
			orow[x] = __int_as_float(0x7f800000);
			continue;
		}
		float v = (float)(min_disp + best);
		if (subpix && best > 0 && best < nd - 1) {
			int c0 = s[best - 1], c1 = s[best], c2 = s[best + 1];
			int denom = c0 + c2 - 2 * c1;
			/* IEEE division, as the reference's (nvcc's default -prec-div=true). */
			v = v + (denom > 0 ? __fdiv_rn((float)(c0 - c2), (float)(2 * denom)) : 0.0f);
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
