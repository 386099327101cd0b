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

static __device__ __forceinline__ int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : (v > hi ? hi : v);
}

/* Shared memory per block, in bytes: hal/cuda_sad.c's sad_smem() computes the same. */

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

		/* Column i of the padded row is image column i - rad (clamped), right at - shift. */
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
