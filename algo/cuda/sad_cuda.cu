/*
 * SAD block matching, winner-takes-all and the left-right check on the GPU: the twin of
 * jd_sad_ref() up to (not including) the fill and the median, which the host runs with the
 * reference functions. Integer arithmetic, the reference's edge replication and tie rules:
 * bit-identical.
 *
 * One block per image row. Per disparity the block first forms the column sums of the
 * window height (the thesis's separable box filter: win additions per column, not win^2 per
 * pixel), then each pixel adds win column sums. The row's winners for both views live in
 * shared memory, so the right view's winner (the left-right check) needs no second pass.
 * Loop bounds do not depend on the thread (thesis: 1.88x), inputs are staged in shared memory.
 */
#include <stdint.h>

#include "../match/subpixel.h"
#include "sad_launch.h"

static __device__ __forceinline__ int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : (v > hi ? hi : v);
}

/* Shared memory per block, in bytes: hal/cuda/sad_cuda.c's sad_smem() computes the same. */

extern "C" __global__ void jd_sad_rows_cuda(const uint8_t *__restrict__ left,
					    const uint8_t *__restrict__ right, int w, int h,
					    int stride, int ndisp, int min_disp, int win,
					    int lr_check, float *__restrict__ out, int out_stride)
{
	extern __shared__ uint32_t smem[];
	const int y = blockIdx.x, rad = win / 2, padw = w + win - 1;
	uint32_t *colsum = smem;
	uint32_t *best = colsum + padw;
	int *bestd = (int *)(best + w);
	uint32_t *best_r = (uint32_t *)(bestd + w);
	int *bestd_r = (int *)(best_r + w);
	uint8_t *ls = (uint8_t *)(bestd_r + w);
	uint8_t *rs = ls + (size_t)win * w;

	/* The window's rows, edge-replicated vertically as the reference pads them. */
	for (int i = threadIdx.x; i < win * w; i += blockDim.x) {
		int j = i / w, x = i - j * w;
		size_t row = (size_t)clampi(y + j - rad, 0, h - 1) * stride;
		ls[i] = left[row + x];
		rs[i] = right[row + x];
	}
	for (int x = threadIdx.x; x < w; x += blockDim.x) {
		best[x] = 0xffffffffu;
		bestd[x] = 0;
		best_r[x] = 0xffffffffu;
		bestd_r[x] = -1;
	}
	__syncthreads();
	for (int d = 0; d < ndisp; d++) {
		const int shift = min_disp + d;

		/* Column i of the padded row is image column i - rad (clamped), right at - shift.
		 */
		for (int i = threadIdx.x; i < padw; i += blockDim.x) {
			int xl = clampi(i - rad, 0, w - 1), xr = clampi(i - rad - shift, 0, w - 1);
			uint32_t c = 0;

			for (int j = 0; j < win; j++) {
				int a = ls[j * w + xl], b = rs[j * w + xr];
				c += (uint32_t)(a > b ? a - b : b - a);
			}
			colsum[i] = c;
		}
		__syncthreads();
		for (int x = threadIdx.x; x < w; x += blockDim.x) {
			uint32_t s = 0;

			for (int i = 0; i < win; i++) {
				s += colsum[x + i];
			}
			if (s < best[x]) {
				best[x] = s;
				bestd[x] = d;
			}
			/* Each x proposes to a different right pixel: no two threads collide. */
			if (x >= shift && s < best_r[x - shift]) {
				best_r[x - shift] = s;
				bestd_r[x - shift] = d;
			}
		}
		__syncthreads();
	}
	for (int x = threadIdx.x; x < w; x += blockDim.x) {
		int d = bestd[x], xr = x - min_disp - d;
		float v = (float)(min_disp + d);

		if (lr_check) {
			int dr = xr >= 0 ? bestd_r[xr] : -1;
			if (dr < 0 || (dr > d ? dr - d : d - dr) > 1) {
				v = __int_as_float(0x7f800000); /* JD_DISP_INVALID: +inf */
			}
		}
		out[(size_t)y * out_stride + x] = v;
	}
}

/*
 * The strip kernel: O(1) work per pixel and disparity whatever the window, and the work
 * split over blocks (row strips x disparity groups x column tiles) so that even 640x480
 * fills 132 SMs. Per row of its strip a block, with two barriers (after step 1, and after
 * step 3 and the next row's step 0):
 *  0. stages the entering and the leaving rows of the right view in shared memory, edge-
 *     replicated as the reference pads them, DG - 1 columns further left, so that no index
 *     needs clamping (a thread's left bytes go straight to its registers: only its own
 *     column reads them; every clamped column is computed once, before the rows);
 *  1. updates, per padded column (one a thread) and disparity of the group, the column's
 *     window-height sum kept in a register: + the entering row's |L - R|, - the leaving
 *     row's (jd_sad_accumulate_ref()); the right bytes of the DG disparities are one
 *     16-byte run, read as words and aligned with funnel shifts;
 *  2. slides the window sum along the row, SEG pixels and DSUB disparities an item
 *     (jd_sad_wta_ref());
 *  3. keeps the winners as packed keys (cost << 11 | d): the smallest key is the smallest
 *     cost, ties to the smallest disparity, as the reference's strict less-than in
 *     ascending d. Left and right (the left-right check's) keys are minimised per item in
 *     registers, then in shared memory, then merged into the frame's key maps (plain
 *     stores where one block covers a pixel, atomicMin otherwise); jd_sad_finish_cuda()
 *     turns them into the map.
 * Costs stay below 2^21 (31 * 31 * 255), disparities below 2^11 (ndisp <= 1024).
 */
#define SAD_KEY_BITS 11
#define SAD_DSUB 2			/* disparities an item */
#define SAD_NSUB (JD_SAD_DG / SAD_DSUB) /* items a segment of pixels */
#define SAD_NONE 0xffffffffu		/* no candidate: larger than every key */

/* A winner's key: the smallest is the smallest cost, ties to the smallest disparity. */
static __device__ __forceinline__ uint32_t sad_key(uint32_t cost, uint32_t d)
{
	return cost << SAD_KEY_BITS | d;
}

/*
 * Pixel i of a whole item (PACK): the keys of its window sums, disparity d in the low lane and
 * d + 1 in the high one. rk[i] holds pixel i - 1's key at d; rk[i + 1] is new.
 */
static __device__ __forceinline__ void whole_pixel_keys(uint32_t sum, uint32_t d, int i,
							uint32_t *lk, uint32_t *rk)
{
	const uint32_t k0 = sad_key(sum & 0xffffu, d), k1 = sad_key(sum >> 16, d + 1);

	lk[i] = min(k0, k1);
	rk[i] = min(rk[i], k1);
	rk[i + 1] = k0;
}

/* The first window of an item's slide (packed or not: one add either way). */
static __device__ __forceinline__ uint32_t window_sum(const uint32_t *cs, int win)
{
	uint32_t sum = 0;

#pragma unroll 4
	for (int i = 0; i < win; i++) {
		sum += cs[i];
	}
	return sum;
}

static_assert(SAD_DSUB == 2, "PACK items are one word of vs: two disparities");
static_assert(JD_SAD_DG == 16, "a column's right run is four words");

/*
 * Step 1 with two disparities a word (PACK): four |L - R| a __vabsdiffu4 against the left byte
 * repeated, their bytes moved into 16-bit lanes, and one three-way add a word. Byte j of
 * run word m is the right pixel at shift d0 + 15 - 4m - j, so bytes 3 and 2 are the
 * disparities 12 - 4m and 13 - 4m (word 6 - 2m, low lane first), bytes 1 and 0 are 14 - 4m
 * and 15 - 4m (word 7 - 2m). Exact: each lane's column sum plus the entering difference stays
 * below 15 * 255 + 255, and the leaving difference is part of the sum, so no carry or
 * borrow crosses lanes.
 */
static __device__ __forceinline__ void column_sums_packed(uint32_t vw[JD_SAD_DG / 2], uint32_t ai,
							  uint32_t ao, const uint32_t wi[4],
							  const uint32_t wo[4], bool warm)
{
	const uint32_t ai4 = ai * 0x01010101u, ao4 = ao * 0x01010101u;

#pragma unroll
	for (int m = 0; m < 4; m++) {
		const uint32_t di = __vabsdiffu4(ai4, wi[m]);
		const uint32_t dout = warm ? 0u : __vabsdiffu4(ao4, wo[m]);
		vw[6 - 2 * m] += __byte_perm(di, 0, 0x4243) - __byte_perm(dout, 0, 0x4243);
		vw[7 - 2 * m] += __byte_perm(di, 0, 0x4041) - __byte_perm(dout, 0, 0x4041);
	}
}

/*
 * Steps 2 and 3 of a whole item (no pixel past the tile, both disparities in the group) when
 * the window is known at compile time: the item's JD_SAD_SEG + WIN - 1 column sums come in as
 * 16-byte loads (rows of vs are 16-byte aligned, and the eight items of a segment read eight
 * different bank quads: JD_SAD_VSTRIDE), and the slide runs in registers. The same sums, keys
 * and order as the loop in sad_strips().
 */
template <int WIN>
static __device__ __forceinline__ void slide_registers(const uint32_t *cs, uint32_t d,
						       uint32_t lk[JD_SAD_SEG],
						       uint32_t rk[JD_SAD_SEG + 1])
{
	constexpr int n = (JD_SAD_SEG + WIN - 1 + 3) / 4;
	uint32_t c[4 * n];
	uint32_t sum = 0;

#pragma unroll
	for (int q = 0; q < n; q++) {
		const uint4 t = reinterpret_cast<const uint4 *>(cs)[q];
		c[4 * q] = t.x;
		c[4 * q + 1] = t.y;
		c[4 * q + 2] = t.z;
		c[4 * q + 3] = t.w;
	}
#pragma unroll
	for (int i = 0; i < WIN; i++) {
		sum += c[i];
	}
#pragma unroll
	for (int i = 0; i < JD_SAD_SEG; i++) {
		whole_pixel_keys(sum, d, i, lk, rk);
		if (i + 1 < JD_SAD_SEG) {
			sum = sum + c[i + WIN] - c[i];
		}
	}
}

/*
 * PACK: windows up to 15 keep two disparities' column sums in one word (16 bits each) and
 * slide both with one 32-bit add: a lane's window sum plus the entering column stays below
 * 16 * 15 * 255 = 61200 < 2^16, and no lane goes below zero (the leaving column is part of
 * the sum), so no carry or borrow crosses lanes and each lane is exact.
 */
template <bool PACK, int WIN>
static __device__ __forceinline__ void
sad_strips(const uint8_t *__restrict__ left, const uint8_t *__restrict__ right, int w, int h,
	   int stride, int ndisp, int min_disp, int win, int rows, int tile,
	   uint32_t *__restrict__ key_l, uint32_t *__restrict__ key_r)
{
	extern __shared__ uint32_t strip_smem[];
	if (WIN > 0) {
		win = WIN; /* the host chose this kernel for it */
	}
	const int rad = win / 2, nt = blockDim.x, tid = threadIdx.x;
	const int y0 = blockIdx.x * rows, y1 = min(h, y0 + rows);
	const int d0 = blockIdx.y * JD_SAD_DG, dn = min(JD_SAD_DG, ndisp - d0);
	const int x0 = blockIdx.z * tile, tw = min(tile, w - x0), pw = tw + 2 * rad;
	/* the largest shift of the group (as if it were full: the byte runs stay 16 long) */
	const int smax = min_disp + d0 + JD_SAD_DG - 1;
	const int rw = (pw + JD_SAD_DG + 7) / 4 * 4; /* right row bytes, whole words and one more */
	const int vstride = JD_SAD_VSTRIDE(pw, PACK);
	const int tws = tw + JD_SAD_SEG;	 /* keys past the tile's end: no bound inside */
	uint32_t *vs = strip_smem;		 /* [JD_SAD_DG][vstride] column sums */
	uint32_t *bl = vs + JD_SAD_DG * vstride; /* [tws] left keys of the row */
	uint32_t *br = bl + tws;		 /* [tws + smax] right keys, from x0 - smax */
	uint32_t *rin = br + tws + smax;	 /* [rw / 4] */
	uint32_t *rout = rin + rw / 4;
	const bool shared_pixels = gridDim.y > 1; /* a pixel's keys come from several blocks */
	/* the clamped columns: this thread's left one, and the right ones it stages (rw <= 2 nt) */
	const int p = tid;
	const bool col = p < pw;
	const int xl = clampi(x0 + p - rad, 0, w - 1);
	const int xr0 = tid < rw ? clampi(x0 - rad - smax + tid, 0, w - 1) : -1;
	const int xr1 = tid + nt < rw ? clampi(x0 - rad - smax + tid + nt, 0, w - 1) : -1;
	/* this thread's item: a segment of JD_SAD_SEG pixels and a pair of disparities */
	const int nseg = (tw + JD_SAD_SEG - 1) / JD_SAD_SEG;
	const int sub = tid % SAD_NSUB, s0 = tid / SAD_NSUB * JD_SAD_SEG;
	const bool item = tid < nseg * SAD_NSUB && sub * SAD_DSUB < dn;
	/* no pixel past the tile and both disparities in the group: no test inside the slide */
	const bool whole = s0 + JD_SAD_SEG <= tw && sub * SAD_DSUB + 1 < dn;
	uint32_t v[PACK ? JD_SAD_DG / 2 : JD_SAD_DG];

	static_assert(JD_SAD_SEG * SAD_NSUB <= 1024, "one item a thread needs tiles of nt pixels");
	for (int i = tid; i < tws + tws + smax; i += nt) {
		bl[i] = SAD_NONE; /* bl and br are one run */
	}
	for (int i = pw + tid; i < vstride; i += nt) {
		for (int k = 0; k < JD_SAD_DG; k++) {
			vs[k * vstride + i] = 0; /* read past the tile, never used */
		}
	}
#pragma unroll
	for (int k = 0; k < (PACK ? JD_SAD_DG / 2 : JD_SAD_DG); k++) {
		v[k] = 0;
	}
	/* 0. the entering and leaving right rows of row y into shared memory, the left bytes
	 * into registers; one row ahead of step 1, so that the staging shares a barrier */
	uint32_t ai, ao;
	auto stage = [&](int y) {
		const int yin = clampi(y + rad, 0, h - 1), yout = clampi(y - rad - 1, 0, h - 1);
		const uint8_t *ri = right + (size_t)yin * stride,
			      *ro = right + (size_t)yout * stride;
		if (xr0 >= 0) {
			((uint8_t *)rin)[tid] = ri[xr0];
			((uint8_t *)rout)[tid] = ro[xr0];
		}
		if (xr1 >= 0) {
			((uint8_t *)rin)[tid + nt] = ri[xr1];
			((uint8_t *)rout)[tid + nt] = ro[xr1];
		}
		ai = left[(size_t)yin * stride + xl];
		ao = left[(size_t)yout * stride + xl];
	};
	stage(y0 - 2 * rad - 1);
	__syncthreads();
	for (int y = y0 - 2 * rad - 1; y < y1; y++) {
		/* Rows y - 2 rad - 1 .. y0 - 1 only fill the sums (the strip's first window). */
		const bool warm = y < y0;
		/* 1. column sums: run k of column p holds R at shift d0 + k, read back to front */
		if (col) {
			const int a = p >> 2, sh = (p & 3) * 8;
			uint32_t wi[JD_SAD_DG / 4 + 1], wo[JD_SAD_DG / 4 + 1];
#pragma unroll
			for (int m = 0; m <= JD_SAD_DG / 4; m++) {
				wi[m] = rin[a + m];
				wo[m] = rout[a + m];
			}
#pragma unroll
			for (int m = 0; m < JD_SAD_DG / 4; m++) {
				wi[m] = __funnelshift_r(wi[m], wi[m + 1], sh);
				wo[m] = __funnelshift_r(wo[m], wo[m + 1], sh);
			}
			if (PACK) {
				column_sums_packed(v, ai, ao, wi, wo, warm);
				if (!warm) {
#pragma unroll
					for (int k = 0; k < JD_SAD_DG / 2; k++) {
						vs[k * vstride + p] = v[k];
					}
				}
			} else {
				/* byte j of the run is the right pixel at shift d0 + JD_SAD_DG - 1
				 * - j */
#pragma unroll
				for (int k = 0; k < JD_SAD_DG; k++) {
					const int j = JD_SAD_DG - 1 - k;
					const int bi = __byte_perm(wi[j >> 2], 0, 0x4440 + (j & 3));
					const int bo = __byte_perm(wo[j >> 2], 0, 0x4440 + (j & 3));
					/* the leaving row is not in the window while warming */
					v[k] =
					    __sad(ai, bi, v[k]) - (warm ? 0u : __sad(ao, bo, 0u));
					if (!warm) {
						vs[k * vstride + p] = v[k];
					}
				}
			}
		}
		__syncthreads(); /* the column sums are in; the staged rows are read */
		if (y + 1 < y1) {
			stage(y + 1);
		}
		/* 2. window sums along the row, 3. the item's winners */
		if (!warm && item) {
			uint32_t lk[JD_SAD_SEG], rk[JD_SAD_SEG + SAD_DSUB - 1];
#pragma unroll
			for (int i = 0; i < JD_SAD_SEG; i++) {
				lk[i] = SAD_NONE;
			}
#pragma unroll
			for (int i = 0; i < JD_SAD_SEG + SAD_DSUB - 1; i++) {
				rk[i] = SAD_NONE;
			}
			const int k = sub * SAD_DSUB;
			const uint32_t d = (uint32_t)(d0 + k);
			if (PACK) {
				/* the item's two disparities are one word of vs */
				const uint32_t *cs = vs + sub * vstride + s0;
				if (WIN > 0 && whole) {
					slide_registers<WIN>(cs, d, lk, rk);
				} else if (whole) {
					uint32_t sum = window_sum(cs, win);
#pragma unroll
					for (int i = 0; i < JD_SAD_SEG; i++) {
						whole_pixel_keys(sum, d, i, lk, rk);
						sum = sum + cs[i + win] - cs[i];
					}
				} else {
					uint32_t sum = window_sum(cs, win);
					const bool has1 = k + 1 < dn;
#pragma unroll
					for (int i = 0; i < JD_SAD_SEG; i++) {
						const bool in = s0 + i < tw;
						const uint32_t k0 =
						    in ? sad_key(sum & 0xffffu, d) : SAD_NONE;
						const uint32_t k1 = in && has1
									? sad_key(sum >> 16, d + 1)
									: SAD_NONE;
						lk[i] = min(k0, k1);
						rk[i + 1] = min(rk[i + 1], k0);
						rk[i] = min(rk[i], k1);
						sum = sum + cs[i + win] - cs[i];
					}
				}
			} else {
#pragma unroll
				for (int q = 0; q < SAD_DSUB; q++) {
					/* vs holds JD_SAD_SEG columns more than the tile: no bound
					 * inside */
					const uint32_t *cs = vs + min(k + q, dn - 1) * vstride + s0;
					uint32_t sum = window_sum(cs, win);
#pragma unroll
					for (int i = 0; i < JD_SAD_SEG; i++) {
						/* a pixel past the tile or a disparity past ndisp:
						 * no key */
						const uint32_t key = s0 + i < tw && k + q < dn
									 ? sad_key(sum, d + q)
									 : SAD_NONE;
						lk[i] = min(lk[i], key);
						/* right pixel x - shift: index i - q of the run */
						rk[i - q + SAD_DSUB - 1] =
						    min(rk[i - q + SAD_DSUB - 1], key);
						sum += cs[i + win] - cs[i];
					}
				}
			}
#pragma unroll
			for (int i = 0; i < JD_SAD_SEG; i++) {
				if (dn > SAD_DSUB) {
					atomicMin(&bl[s0 + i],
						  lk[i]); /* bl has room past the tile */
				} else {
					bl[s0 + i] = lk[i];
				}
			}
			/* rk[r] is the right pixel x0 + s0 + r - (DSUB - 1) - (min_disp + d0 + k):
			 * in br, from x0 - smax; SAD_NONE changes nothing */
			const int rb = s0 - (SAD_DSUB - 1) + JD_SAD_DG - 1 - k;
#pragma unroll
			for (int r = 0; r < JD_SAD_SEG + SAD_DSUB - 1; r++) {
				atomicMin(&br[rb + r], rk[r]);
			}
		}
		/* the row's keys are in, the next row is staged, the column sums are read */
		__syncthreads();
		if (warm) {
			continue;
		}
		/* the row's keys into the frame's; each thread resets what it merged, before the
		 * next row's step 3 (behind the next barrier) */
		uint32_t *gl = key_l + (size_t)y * w, *gr = key_r + (size_t)y * w;
		for (int i = tid; i < tws; i += nt) {
			if (i < tw && shared_pixels) {
				atomicMin(&gl[x0 + i], bl[i]);
			} else if (i < tw) {
				gl[x0 + i] = bl[i];
			}
			bl[i] = SAD_NONE;
		}
		for (int i = tid; i < tws + smax; i += nt) {
			const int xr = x0 - smax + i;
			if (br[i] != SAD_NONE && xr >= 0) {
				atomicMin(&gr[xr],
					  br[i]); /* tiles and groups overlap in the right view */
			}
			br[i] = SAD_NONE;
		}
	}
}

extern "C" __global__ void __launch_bounds__(1024)
    jd_sad_strips_cuda(const uint8_t *__restrict__ left, const uint8_t *__restrict__ right, int w,
		       int h, int stride, int ndisp, int min_disp, int win, int rows, int tile,
		       uint32_t *__restrict__ key_l, uint32_t *__restrict__ key_r)
{
	sad_strips<false, 0>(left, right, w, h, stride, ndisp, min_disp, win, rows, tile, key_l,
			     key_r);
}

/* The same for windows up to 15 (two disparities a word). */
extern "C" __global__ void __launch_bounds__(JD_SAD_PACK_THREADS, 2)
    jd_sad_strips16_cuda(const uint8_t *__restrict__ left, const uint8_t *__restrict__ right, int w,
			 int h, int stride, int ndisp, int min_disp, int win, int rows, int tile,
			 uint32_t *__restrict__ key_l, uint32_t *__restrict__ key_r)
{
	sad_strips<true, 0>(left, right, w, h, stride, ndisp, min_disp, win, rows, tile, key_l,
			    key_r);
}

/* The same for the default window, 11, its slide in registers. */
extern "C" __global__ void __launch_bounds__(JD_SAD_PACK_THREADS, 2)
    jd_sad_strips16_w11_cuda(const uint8_t *__restrict__ left, const uint8_t *__restrict__ right,
			     int w, int h, int stride, int ndisp, int min_disp, int win, int rows,
			     int tile, uint32_t *__restrict__ key_l, uint32_t *__restrict__ key_r)
{
	sad_strips<true, 11>(left, right, w, h, stride, ndisp, min_disp, win, rows, tile, key_l,
			     key_r);
}

/* Keys to the map with the reference's left-right check (jd_sad_ref()'s last loop). */
extern "C" __global__ void jd_sad_finish_cuda(const uint32_t *__restrict__ key_l,
					      const uint32_t *__restrict__ key_r, int w, int h,
					      int min_disp, int lr_check, float *__restrict__ out,
					      int out_stride)
{
	const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	if (x >= w) {
		return;
	}
	const uint32_t mask = (1u << SAD_KEY_BITS) - 1;
	const int d = (int)(key_l[(size_t)y * w + x] & mask), xr = x - min_disp - d;
	float v = (float)(min_disp + d);

	if (lr_check) {
		uint32_t kr = xr >= 0 ? key_r[(size_t)y * w + xr] : 0xffffffffu;
		int dr = kr == 0xffffffffu ? -1 : (int)(kr & mask);
		if (dr < 0 || (dr > d ? dr - d : d - dr) > 1) {
			v = __int_as_float(0x7f800000); /* JD_DISP_INVALID: +inf */
		}
	}
	out[(size_t)y * out_stride + x] = v;
}

/*
 * The sub-pixel fit (algo/match/subpixel.h) of each valid winner, when asked: the window sums at d
 * - 1, d and d + 1 recomputed from the pair the kernels matched with the reference's edge
 * replication, so the same integers jd_sad_ref() keeps, and the same offset. One thread a pixel,
 * after the left-right check (whose holes it skips) and before fill and median, as there. A
 * block's window rows of both images sit in shared memory first (columns clamped as they are
 * copied; hal/cuda/sad_cuda.c's refine_smem() sizes them), so the 3 win^2 differences of a
 * pixel read bytes on chip.
 */
extern "C" __global__ void jd_sad_refine_cuda(const uint8_t *__restrict__ left,
					      const uint8_t *__restrict__ right, int w, int h,
					      int stride, int ndisp, int min_disp, int win,
					      float *__restrict__ out, int out_stride)
{
	extern __shared__ uint8_t rows[];
	const int bd = blockDim.x, x0 = blockIdx.x * bd, y = blockIdx.y, rad = win / 2;
	const int dmax = min_disp + ndisp - 1;
	/* left columns x0 - rad .., right columns x0 - rad - dmax .., win rows each */
	const int lw = bd + 2 * rad, rw = bd + 2 * rad + dmax;
	uint8_t *ls = rows, *rs = rows + (size_t)win * lw;

	for (int j = 0; j < win; j++) {
		const size_t row = (size_t)clampi(y + j - rad, 0, h - 1) * stride;
		for (int c = threadIdx.x; c < lw; c += bd) {
			ls[j * lw + c] = left[row + clampi(x0 - rad + c, 0, w - 1)];
		}
		for (int c = threadIdx.x; c < rw; c += bd) {
			rs[j * rw + c] = right[row + clampi(x0 - rad - dmax + c, 0, w - 1)];
		}
	}
	__syncthreads();
	const int t = threadIdx.x, x = x0 + t;
	if (x >= w) {
		return;
	}
	float *o = out + (size_t)y * out_stride + x;
	const float v = *o;
	if (!isfinite(v)) {
		return;
	}
	const int shift = (int)v, d = shift - min_disp;
	if (d <= 0 || d >= ndisp - 1) {
		return;
	}
	uint32_t s0 = 0, s1 = 0, s2 = 0; /* d - 1, d, d + 1 */
	for (int j = 0; j < win; j++) {
		const uint8_t *lp = ls + j * lw + t, *rp = rs + j * rw + t + dmax - shift;
		for (int k = 0; k < win; k++) {
			const int l = lp[k];
			s0 += (uint32_t)abs(l - rp[k + 1]);
			s1 += (uint32_t)abs(l - rp[k]);
			s2 += (uint32_t)abs(l - rp[k - 1]);
		}
	}
	*o = (float)shift + jd_subpixel_equiangular((float)s0, (float)s1, (float)s2);
}
