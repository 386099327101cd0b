/*
 * The post-filters of postfilter.c on the GPU, so a frame's map is finished before the
 * download: fill (one thread per row, the reference's scan) and the 3x3 median (one thread
 * per pixel, the reference's sorting network on the same integer keys). Same values.
 */
#include <stdint.h>

/* Invalid pixels take the farther (smaller) of the two valid neighbours on their row. */
extern "C" __global__ void jd_fill_cuda(float *__restrict__ map, int w, int h)
{
	int y = blockIdx.x * blockDim.x + threadIdx.x;
	float *row = map + (size_t)y * w;
	int x = 0;

	if (y >= h) {
		return;
	}
	while (x < w) {
		if (isfinite(row[x])) {
			x++;
			continue;
		}
		int start = x;
		while (x < w && !isfinite(row[x])) {
			x++;
		}
		float left = start > 0 ? row[start - 1] : __int_as_float(0x7f800000);
		float right = x < w ? row[x] : __int_as_float(0x7f800000);
		float v = left < right ? left : right; /* +inf marks a missing side */
		for (int i = start; i < x; i++) {
			row[i] = v;
		}
	}
}

static __device__ __forceinline__ int32_t pf_key(float f)
{
	int32_t b = __float_as_int(f);

	return b ^ ((b >> 31) & 0x7fffffff);
}

static __device__ __forceinline__ float pf_unkey(int32_t k)
{
	return __int_as_float(k ^ ((k >> 31) & 0x7fffffff));
}

#define PF_CX(a, b)                                                                            \
	do {                                                                                   \
		int32_t lo_ = min(a, b), hi_ = max(a, b);                                      \
		(a) = lo_;                                                                     \
		(b) = hi_;                                                                     \
	} while (0)

/* The (n - 1) / 2-th smallest valid value of the 3x3 neighbourhood of each valid pixel. */
extern "C" __global__ void jd_median3x3_cuda(const float *__restrict__ in, float *__restrict__ out,
					     int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	float c;

	if (x >= w) {
		return;
	}
	c = in[(size_t)y * w + x];
	if (!isfinite(c)) {
		out[(size_t)y * w + x] = c;
		return;
	}
	int32_t v[9];
	int n = 0, k = 0;

#pragma unroll
	for (int dy = -1; dy <= 1; dy++) {
#pragma unroll
		for (int dx = -1; dx <= 1; dx++) {
			int yy = y + dy, xx = x + dx;
			float f = __int_as_float(0x7f800000);

			if (yy >= 0 && yy < h && xx >= 0 && xx < w) {
				float g = in[(size_t)yy * w + xx];
				if (isfinite(g)) {
					f = g;
					n++;
				}
			}
			v[k++] = pf_key(f);
		}
	}
#pragma unroll
	for (int phase = 0; phase < 5; phase++) {
		PF_CX(v[0], v[1]);
		PF_CX(v[2], v[3]);
		PF_CX(v[4], v[5]);
		PF_CX(v[6], v[7]);
		PF_CX(v[1], v[2]);
		PF_CX(v[3], v[4]);
		PF_CX(v[5], v[6]);
		PF_CX(v[7], v[8]);
	}
	/* v[(n - 1) / 2] without a run-time index (which would put v in local memory) */
	int32_t m = v[0];
#pragma unroll
	for (int i = 1; i < 9; i++) {
		m = i == (n - 1) / 2 ? v[i] : m;
	}
	out[(size_t)y * w + x] = pf_unkey(m);
}
