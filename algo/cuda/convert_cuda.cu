/*
 * The GPU's luma step for deep mono and raw Bayer frames (algo/convert.h's rules, from
 * algo/convert_priv.h's very lines, so the bytes are the reference's): one thread a pixel, the
 * camera's frame (rows packed) in, 8-bit luma out, which the remap then reads as GREY.
 */
#include <stdint.h>

#include "../convert_priv.h"

extern "C" __global__ void jd_luma_deep_cuda(const uint8_t *__restrict__ raw, int w, int h,
					     int bits, int bayer, int r_col, int r_row,
					     uint8_t *__restrict__ out)
{
	const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;

	if (x >= w) {
		return;
	}
	const size_t pitch = (size_t)w * (bits == 8 ? 1 : 2);
	const uint8_t *row = raw + (size_t)y * pitch;
	if (!bayer) {
		out[(size_t)y * w + x] = jd__top8(jd_sample16(row + 2 * x), bits);
		return;
	}
	/* rows mirrored at the top and bottom, as capture hands them to the reference */
	const int up = jd__mirror(y - 1, h), down = jd__mirror(y + 1, h);
	out[(size_t)y * w + x] =
	    jd__bayer_pixel(raw + (size_t)up * pitch, row, raw + (size_t)down * pitch, w, bits,
			    r_col, (y & 1) == r_row, x);
}
