/*
 * The rank transform on the GPU: the twin of jd_rank_ref() (algo/prefilter.h), the same
 * integer count and scale, so the bytes are identical. Both cameras in one launch
 * (blockIdx.z); one thread per pixel; the window's rows come through L1.
 */
#include <stdint.h>

extern "C" __global__ void jd_rank_cuda(const uint8_t *__restrict__ in0,
					const uint8_t *__restrict__ in1, uint8_t *__restrict__ out0,
					uint8_t *__restrict__ out1, int w, int h, int window)
{
	const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	const uint8_t *in = blockIdx.z ? in1 : in0;
	uint8_t *out = blockIdx.z ? out1 : out0;

	if (x >= w) {
		return;
	}
	const int r = window / 2, scale = 240 / (window * window - 1); /* JD_RANK_RANGE */
	const int c = in[(size_t)y * w + x];
	int n = 0;

	for (int dy = -r; dy <= r; dy++) {
		const int yy = min(max(y + dy, 0), h - 1);
		const uint8_t *row = in + (size_t)yy * w;

		for (int dx = -r; dx <= r; dx++) {
			n += row[min(max(x + dx, 0), w - 1)] < c;
		}
	}
	out[(size_t)y * w + x] = (uint8_t)(n * scale);
}
