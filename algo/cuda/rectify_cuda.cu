/*
 * Rectification on the GPU: the twin of jd_remap_ref() (algo/geometry/rectify.h), the same
 * fixed-point bilinear arithmetic, so the bytes are identical. Both cameras in one launch
 * (blockIdx.z); one thread per output pixel. The raw frame is as large as the rectified one, in
 * pixels; it is the camera's own layout (GREY, YUYV or UYVY, rows packed): each camera's luma sits
 * every step bytes from byte off, so the conversion to gray (jd_gray_from_yuyv_ref()) is this
 * kernel's read, and the CPU never touches the pixels.
 */
#include <stdint.h>

extern "C" __global__ void
jd_remap_cuda(const int32_t *__restrict__ sx0, const int32_t *__restrict__ sy0,
	      const int32_t *__restrict__ sx1, const int32_t *__restrict__ sy1,
	      const uint8_t *__restrict__ raw0, const uint8_t *__restrict__ raw1,
	      uint8_t *__restrict__ out0, uint8_t *__restrict__ out1, int step0, int off0,
	      int step1, int off1, int w, int h)
{
	const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	const int cam = blockIdx.z;

	if (x >= w) {
		return;
	}
	const size_t i = (size_t)y * w + x;
	const int32_t px = cam ? sx1[i] : sx0[i], py = cam ? sy1[i] : sy0[i];
	const int step = cam ? step1 : step0;
	const uint8_t *src = (cam ? raw1 : raw0) + (cam ? off1 : off0);
	uint8_t *out = cam ? out1 : out0;
	const int x0 = px >> 5, fx = px & 31, y0 = py >> 5, fy = py & 31;

	if (x0 < 0 || y0 < 0 || x0 >= w || y0 >= h) {
		out[i] = 0;
		return;
	}
	const int x1 = x0 + 1 < w ? x0 + 1 : x0, y1 = y0 + 1 < h ? y0 + 1 : y0;
	const size_t pitch = (size_t)w * step;
	const uint8_t *r0 = src + (size_t)y0 * pitch, *r1 = src + (size_t)y1 * pitch;
	const int a = x0 * step, b = x1 * step;
	const int gx = 32 - fx, gy = 32 - fy;
	const int v = r0[a] * gx * gy + r0[b] * fx * gy + r1[a] * gx * fy + r1[b] * fx * fy;

	out[i] = (uint8_t)((v + 512) >> 10);
}
