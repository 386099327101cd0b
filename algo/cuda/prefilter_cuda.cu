/*
 * The rank transform on the GPU: the twin of jd_rank_ref() (algo/match/prefilter.h), the same
 * integer count and scale, so the bytes are identical. Both cameras in one launch
 * (blockIdx.z). A block of JD_RANK_BX x JD_RANK_BY threads ranks JD_RANK_PX pixels a thread
 * side by side. It first copies its tile and the window's margin (edge repeated, as the
 * reference clamps) into shared memory as pairs of neighbouring pixels in half precision,
 * once from even and once from odd columns, so that every pair of neighbours a thread's two
 * pixels compare with is one aligned word: then one HSET2 and one HADD2 count two
 * comparisons. Whole numbers up to 255 and counts up to 224 are exact in half precision.
 * Reading the window through L1 took about 80 us for a 1280x720 pair on the H100, one byte
 * at a time from shared memory 65 us on the H200 (docs/perf_log.md).
 */
#include <cuda_fp16.h>
#include <stdint.h>

#include "prefilter_cuda.h"

static_assert(JD_RANK_PX == 2, "a thread's pixels are one half2");

enum {
	RANK_TH = JD_RANK_BY + 2 * JD_RANK_RMAX,	      /* the tile's rows */
	RANK_TJ = JD_RANK_BX * JD_RANK_PX / 2 + JD_RANK_RMAX, /* pairs a row */
};

/*
 * Both pixels' darker neighbours: neighbour dx of the window (0 .. 2r) is even[tx + dx / 2]
 * for even dx, odd[tx + dx / 2] for odd dx. R: the radius when known at compile time (else 0,
 * and r). Two sums, so that the adds are two chains, not one.
 */
template <int R>
static __device__ __forceinline__ __half2 count_darker(const __half2 (*even)[RANK_TJ],
						       const __half2 (*odd)[RANK_TJ], int ty,
						       int tx, int r)
{
	if (R > 0) {
		r = R;
	}
	const __half2 c = r % 2 ? odd[ty + r][tx + r / 2] : even[ty + r][tx + r / 2];
	__half2 ne = __floats2half2_rn(0.f, 0.f), no = ne;

#pragma unroll
	for (int dy = 0; dy <= 2 * r; dy++) {
		const __half2 *e = even[ty + dy] + tx, *o = odd[ty + dy] + tx;
#pragma unroll
		for (int k = 0; k <= r; k++) {
			ne = __hadd2(ne, __hlt2(e[k], c));
		}
#pragma unroll
		for (int k = 0; k < r; k++) {
			no = __hadd2(no, __hlt2(o[k], c));
		}
	}
	return __hadd2(ne, no);
}

extern "C" __global__ void __launch_bounds__(JD_RANK_BX *JD_RANK_BY)
    jd_rank_cuda(const uint8_t *__restrict__ in0, const uint8_t *__restrict__ in1,
		 uint8_t *__restrict__ out0, uint8_t *__restrict__ out1, int w, int h, int window)
{
	/* pairs of columns (2j, 2j + 1) and (2j + 1, 2j + 2) of the tile */
	__shared__ __half2 even[RANK_TH][RANK_TJ], odd[RANK_TH][RANK_TJ];
	const uint8_t *in = blockIdx.z ? in1 : in0;
	uint8_t *out = blockIdx.z ? out1 : out0;
	const int r = window / 2, scale = 240 / (window * window - 1); /* JD_RANK_RANGE */
	const int x0 = blockIdx.x * JD_RANK_BX * JD_RANK_PX - r, y0 = blockIdx.y * JD_RANK_BY - r;
	const int th = JD_RANK_BY + 2 * r, tj = JD_RANK_BX + r; /* rows, pairs a row */

	for (int ty = threadIdx.y; ty < th; ty += JD_RANK_BY) {
		const uint8_t *row = in + (size_t)min(max(y0 + ty, 0), h - 1) * w;
		for (int j = threadIdx.x; j < tj; j += JD_RANK_BX) {
			const int xa = x0 + 2 * j;
			const float a = row[min(max(xa, 0), w - 1)],
				    b = row[min(max(xa + 1, 0), w - 1)],
				    c = row[min(max(xa + 2, 0), w - 1)];
			even[ty][j] = __floats2half2_rn(a, b);
			odd[ty][j] = __floats2half2_rn(b, c);
		}
	}
	__syncthreads();
	const int tx = threadIdx.x, x = blockIdx.x * JD_RANK_BX * JD_RANK_PX + 2 * tx,
		  y = blockIdx.y * JD_RANK_BY + threadIdx.y;
	if (x >= w || y >= h) {
		return;
	}
	/* the defaults (7 for census matchers, 9 for SAD) unrolled whole */
	__half2 n;
	if (r == 4) {
		n = count_darker<4>(even, odd, threadIdx.y, tx, r);
	} else if (r == 3) {
		n = count_darker<3>(even, odd, threadIdx.y, tx, r);
	} else {
		n = count_darker<0>(even, odd, threadIdx.y, tx, r);
	}
	uint8_t *o = out + (size_t)y * w + x;
	o[0] = (uint8_t)((int)__low2float(n) * scale);
	if (x + 1 < w) {
		o[1] = (uint8_t)((int)__high2float(n) * scale);
	}
}
