/*
 * The rank transform on the GPU: the twin of jd_rank_ref() (algo/prefilter.h), the same
 * integer count and scale, so the bytes are identical. Both cameras in one launch
 * (blockIdx.z). A block of 32 x 8 pixels first copies its tile and the window's margin
 * (edge repeated, as the reference clamps) into shared memory, then each thread counts its
 * window there: the version that read the window through L1 took about 80 us for a 1280x720
 * pair on the H100 (docs/perf.md step 44).
 */
#include <stdint.h>

#include "prefilter_cuda.h"

extern "C" __global__ void __launch_bounds__(JD_RANK_BX *JD_RANK_BY)
    jd_rank_cuda(const uint8_t *__restrict__ in0, const uint8_t *__restrict__ in1,
		 uint8_t *__restrict__ out0, uint8_t *__restrict__ out1, int w, int h, int window)
{
	enum { TW = JD_RANK_BX + 2 * JD_RANK_RMAX, TH = JD_RANK_BY + 2 * JD_RANK_RMAX };
	__shared__ uint8_t tile[TH][TW];
	const uint8_t *in = blockIdx.z ? in1 : in0;
	uint8_t *out = blockIdx.z ? out1 : out0;
	const int r = window / 2, scale = 240 / (window * window - 1); /* JD_RANK_RANGE */
	const int x0 = blockIdx.x * JD_RANK_BX - r, y0 = blockIdx.y * JD_RANK_BY - r;
	const int tw = JD_RANK_BX + 2 * r, th = JD_RANK_BY + 2 * r;
	const int tid = threadIdx.y * JD_RANK_BX + threadIdx.x;

	for (int i = tid; i < tw * th; i += JD_RANK_BX * JD_RANK_BY) {
		const int ty = i / tw, tx = i % tw;
		const int yy = min(max(y0 + ty, 0), h - 1), xx = min(max(x0 + tx, 0), w - 1);
		tile[ty][tx] = in[(size_t)yy * w + xx];
	}
	__syncthreads();
	const int x = blockIdx.x * JD_RANK_BX + threadIdx.x, y = blockIdx.y * JD_RANK_BY + threadIdx.y;
	if (x >= w || y >= h) {
		return;
	}
	const int c = tile[threadIdx.y + r][threadIdx.x + r];
	int n = 0;

	for (int dy = 0; dy <= 2 * r; dy++) {
		for (int dx = 0; dx <= 2 * r; dx++) {
			n += tile[threadIdx.y + dy][threadIdx.x + dx] < c;
		}
	}
	out[(size_t)y * w + x] = (uint8_t)(n * scale);
}
