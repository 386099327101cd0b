/*
 * SGM on the GPU, stage by stage the twin of sgm_cost.c, sgm_aggregate.c and sgm_select.c:
 * the same integer arithmetic, edge rules and tie rules, so the disparity map is identical to
 * jd_sgm_ref() (fill and median follow in postfilter_cuda.cu).
 *
 * Aggregation: matching costs computed from the census images where they are used (no
 * stored cost volume); one warp walks one scanline of one direction (a row, a column or a
 * diagonal); its lanes hold the disparities, the previous pixel's path costs live in shared
 * memory with a sentinel on each side, and the minimum over d is a warp reduction. All
 * directions run at once, adding their path costs into the one uint16 sum volume with atomic
 * adds (every sum stays below 8 * 2048, so no wrap: the reference's two partial sums add up
 * to the same).
 */
#include <stdint.h>

#include "../sgm_census.h"
#include "sgm_cuda.h"

#define SENTINEL 0x3fff

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

/*
 * Every direction at once (blockIdx.y picks it, counted from dir0), so 4-8x more warps hide
 * the latency of the scanline walks. Each lane owns pairs of disparities (d, d + 1) and adds
 * both path costs with one 32-bit atomic add (compiled to a fire-and-forget reduction): the
 * two uint16 halves cannot carry into each other because every total stays below 8 * 2048.
 * sstride is the even per-pixel stride of the sum volume, so every pair is 4-byte aligned.
 * Scanline k starts at the k-th pixel of the border the direction enters through.
 * Shared memory per warp: two vectors of nd + 2 int16 (previous and current path costs).
 */
extern "C" __global__ void
jd_sgm_aggregate_cuda(const uint64_t *__restrict__ census_l, const uint64_t *__restrict__ census_r,
		      const uint8_t *__restrict__ guide, const uint8_t *__restrict__ right,
		      int stride, int w, int h, int nd, int min_disp, int census, int sstride,
		      int paths, int p1, int p2, int p2_adapt, int dir0, uint32_t *__restrict__ sum)
{
	extern __shared__ int16_t vec[];
	const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	const int line = blockIdx.x * JD_SGM_AGGREGATE_WARPS + warp;
	const int dir = dir0 + blockIdx.y; /* dir0: 0, or the one direction a stage check runs */
	const int dx = paths == 8 ? jd_sgm_dirs8[dir][0] : jd_sgm_dirs4[dir][0];
	const int dy = paths == 8 ? jd_sgm_dirs8[dir][1] : jd_sgm_dirs4[dir][1];
	int16_t *prev = vec + (size_t)warp * 2 * (nd + 2) + 1;
	int16_t *cur = prev + (nd + 2);
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
	/* The path enters from outside: L = 0 there and min 0 (sentinels at both ends). */
	for (int d = lane; d < nd; d += 32) {
		prev[d] = 0;
	}
	if (lane == 0) {
		prev[-1] = prev[nd] = SENTINEL;
		cur[-1] = cur[nd] = SENTINEL;
	}
	int prev_min = 0;
	__syncwarp();
	for (; x >= 0 && x < w && y >= 0 && y < h; x += dx, y += dy) {
		int px = x - dx, py = y - dy;
		int gx = px < 0 || px >= w ? x : px, gy = py < 0 || py >= h ? y : py;
		int p2e = adapt_p2(p1, p2, p2_adapt, guide[(size_t)y * stride + x],
				   guide[(size_t)gy * stride + gx]);
		int lim = prev_min + p2e, best = SENTINEL;
		/* the left pixel's census (or intensity) for every lane; the right row's */
		const uint64_t cl = census ? census_l[(size_t)y * w + x] : 0;
		const int il = census ? 0 : guide[(size_t)y * stride + x];
		const uint64_t *crow = census_r + (size_t)y * w;
		const uint8_t *rrow = right + (size_t)y * stride;
		uint32_t *s = sum + ((size_t)y * w + x) * (sstride / 2);

		for (int d = 2 * lane; d < nd; d += 64) {
			uint32_t packed = 0;

			for (int k = 0; k < 2 && d + k < nd; k++) {
				int e = d + k;
				int nearv = min((int)prev[e - 1], (int)prev[e + 1]) + p1;
				int v = min(min((int)prev[e], nearv), lim);
				int l = match_cost(census, cl, il, crow, rrow, x - min_disp - e) + v -
					prev_min;

				cur[e] = (int16_t)l;
				packed |= (uint32_t)l << (16 * k);
				best = min(best, l);
			}
			atomicAdd(s + d / 2, packed);
		}
		prev_min = __reduce_min_sync(0xffffffffu, best);
		__syncwarp();
		int16_t *t = prev;
		prev = cur;
		cur = t;
	}
}

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
 * Selection, one block a row, reading the sum volume once: each warp takes pixels x = warp,
 * warp + JD_SGM_AGGREGATE_WARPS, ... (lanes over d, so a pixel's vector is one coalesced read) for
 * the winner, uniqueness and sub-pixel, and offers every sum to the right view's winner at x -
 * min_disp - d in shared memory, keyed sum << 10 | d so that the least key is the reference's first
 * least sum (sums stay below 2^14, d below 2^10). Then, the row complete, the left-right check.
 * Shared memory: the keys (w words), the winners (w int16).
 */
extern "C" __global__ void jd_sgm_select_row_cuda(const uint16_t *__restrict__ sum, int w, int nd,
						  int sstride, int min_disp, int uniq, int subpix,
						  int lr, int lr_max_diff, float *__restrict__ out)
{
	extern __shared__ uint32_t rkey[];
	int16_t *best_l = (int16_t *)(rkey + w);
	const int y = blockIdx.x, lane = threadIdx.x % 32, warps = blockDim.x / 32;
	float *orow = out + (size_t)y * w;

	for (int i = threadIdx.x; i < w; i += blockDim.x) {
		rkey[i] = 0xffffffffu;
	}
	__syncthreads();
	for (int x = threadIdx.x / 32; x < w; x += warps) {
		const uint16_t *s = sum + ((size_t)y * w + x) * sstride;
		unsigned bv = 0xffffffffu;
		int best = 0x7fffffff;

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
