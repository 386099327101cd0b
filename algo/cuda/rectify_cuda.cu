/*
 * Rectification on the GPU: the twin of jd_remap_ref() (algo/rectify.h), the same fixed-point
 * bilinear arithmetic, so the bytes are identical. Both cameras in one launch (blockIdx.z);
 * one thread per output pixel. The raw frame is as large as the rectified one.
 */
#include <stdint.h>

extern "C" __global__ void jd_remap_cuda(const int32_t *__restrict__ sx0,
					 const int32_t *__restrict__ sy0,
					 const int32_t *__restrict__ sx1,
					 const int32_t *__restrict__ sy1,
					 const uint8_t *__restrict__ raw0,
					 const uint8_t *__restrict__ raw1, uint8_t *__restrict__ out0,
					 uint8_t *__restrict__ out1, int w, int h)
{
	const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	const int cam = blockIdx.z;

	if (x >= w) {
		return;
	}
	const size_t i = (size_t)y * w + x;
	const int32_t px = cam ? sx1[i] : sx0[i], py = cam ? sy1[i] : sy0[i];
	const uint8_t *src = cam ? raw1 : raw0;
	uint8_t *out = cam ? out1 : out0;
	const int x0 = px >> 5, fx = px & 31, y0 = py >> 5, fy = py & 31;

	if (x0 < 0 || y0 < 0 || x0 >= w || y0 >= h) {
		out[i] = 0;
		return;
	}
	const int x1 = x0 + 1 < w ? x0 + 1 : x0, y1 = y0 + 1 < h ? y0 + 1 : y0;
	const uint8_t *r0 = src + (size_t)y0 * w, *r1 = src + (size_t)y1 * w;
	const int gx = 32 - fx, gy = 32 - fy;
	const int v = r0[x0] * gx * gy + r0[x1] * fx * gy + r1[x0] * gx * fy + r1[x1] * fx * fy;

	out[i] = (uint8_t)((v + 512) >> 10);
}
