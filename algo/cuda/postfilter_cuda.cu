/*
 * The post-filters of postfilter.c on the GPU, so a frame's map is finished before the
 * download: fill (one warp per row, the reference's scan) and the 3x3 median (one thread
 * per pixel, the reference's sorting network on the same integer keys, or where all nine
 * are valid a selection network for the middle one). Same values.
 */
#include <stdint.h>

/* The nearest valid value at or left of each lane in this 32-pixel step, else carry. */
static __device__ __forceinline__ float fill_left(float v, int lane, bool ok, float &carry)
{
	unsigned valid = __ballot_sync(0xffffffffu, ok);
	unsigned upto = valid & (0xffffffffu >> (31 - lane)); /* lanes 0..lane */
	/* every lane shuffles (a shuffle under a divergent branch is undefined) */
	float got = __shfl_sync(0xffffffffu, v, upto ? 31 - __clz(upto) : lane);
	float left = upto ? got : carry;

	if (valid) { /* the same ballot in every lane: no divergence */
		carry = __shfl_sync(0xffffffffu, v, 31 - __clz(valid));
	}
	return left;
}

/* The nearest valid value at or right of each lane in this 32-pixel step, else carry. */
static __device__ __forceinline__ float fill_right(float v, int lane, bool ok, float &carry)
{
	unsigned valid = __ballot_sync(0xffffffffu, ok);
	unsigned from = valid & (0xffffffffu << lane); /* lanes lane..31 */
	float got = __shfl_sync(0xffffffffu, v, from ? __ffs(from) - 1 : lane);
	float right = from ? got : carry;

	if (valid) {
		carry = __shfl_sync(0xffffffffu, v, __ffs(valid) - 1);
	}
	return right;
}

/* Rows up to this many 32-pixel steps are filled from registers (2048 pixels). */
#define FILL_STEPS 64

/*
 * Invalid pixels take the farther (smaller) of the nearest valid values left and right of
 * their run on the row, +inf where a side has none: the reference's scan, per pixel. One
 * warp per row walks it in 32-pixel steps, left to right and back, the nearest valid lane
 * found with a ballot (one thread per row scanning alone took 0.5 ms at 1280x720). Rows up
 * to 2048 pixels are loaded into registers first, every load in flight at once (loading a
 * step at a time left the warp waiting on memory: 30 us at 1280x720); wider rows keep the
 * left values in scratch (w x h floats) for the way back.
 */
extern "C" __global__ void jd_fill_cuda(float *__restrict__ map, float *__restrict__ scratch, int w,
					int h)
{
	const float inf = __int_as_float(0x7f800000);
	int lane = threadIdx.x & 31, y = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
	float *row = map + (size_t)y * w, *lefts = scratch + (size_t)y * w;
	float carry = inf;

	if (y >= h) {
		return;
	}
	if (w <= 32 * FILL_STEPS) {
		const int steps = (w + 31) / 32;
		float v[FILL_STEPS], left[FILL_STEPS];

#pragma unroll
		for (int c = 0; c < FILL_STEPS; c++) {
			int x = 32 * c + lane;
			v[c] = c < steps && x < w ? row[x] : inf;
		}
#pragma unroll
		for (int c = 0; c < FILL_STEPS; c++) {
			if (c < steps) {
				left[c] = fill_left(v[c], lane, 32 * c + lane < w && isfinite(v[c]),
						    carry);
			}
		}
		carry = inf;
#pragma unroll
		for (int c = FILL_STEPS - 1; c >= 0; c--) {
			if (c < steps) {
				int x = 32 * c + lane;
				bool ok = x < w && isfinite(v[c]);
				float right = fill_right(v[c], lane, ok, carry);
				if (x < w && !ok) {
					row[x] = left[c] < right ? left[c] : right;
				}
			}
		}
		return;
	}
	/* Left to right: each invalid pixel notes its nearest valid value on the left. */
	for (int x0 = 0; x0 < w; x0 += 32) {
		int x = x0 + lane;
		float v = x < w ? row[x] : inf;
		float left = fill_left(v, lane, x < w && isfinite(v), carry);

		if (x < w && !isfinite(v)) {
			lefts[x] = left;
		}
	}
	/* Right to left: the nearest valid on the right, then the smaller of the two. */
	carry = inf;
	for (int x0 = (w - 1) / 32 * 32; x0 >= 0; x0 -= 32) {
		int x = x0 + lane;
		float v = x < w ? row[x] : inf;
		bool ok = x < w && isfinite(v);
		float right = fill_right(v, lane, ok, carry);

		if (x < w && !ok) {
			row[x] = lefts[x] < right ? lefts[x] : right;
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

#define PF_CX(a, b)                                                                                \
	do {                                                                                       \
		int32_t lo_ = min(a, b), hi_ = max(a, b);                                          \
		(a) = lo_;                                                                         \
		(b) = hi_;                                                                         \
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
	if (n == 9) {
		/*
		 * Every neighbour valid (nearly every pixel): the middle of nine by a selection
		 * network of 19 exchanges (Paeth's), not the general case's full sort of 40; the
		 * median is a value, so which network finds it does not change it.
		 */
		PF_CX(v[1], v[2]);
		PF_CX(v[4], v[5]);
		PF_CX(v[7], v[8]);
		PF_CX(v[0], v[1]);
		PF_CX(v[3], v[4]);
		PF_CX(v[6], v[7]);
		PF_CX(v[1], v[2]);
		PF_CX(v[4], v[5]);
		PF_CX(v[7], v[8]);
		PF_CX(v[0], v[3]);
		PF_CX(v[5], v[8]);
		PF_CX(v[4], v[7]);
		PF_CX(v[3], v[6]);
		PF_CX(v[1], v[4]);
		PF_CX(v[2], v[5]);
		PF_CX(v[4], v[7]);
		PF_CX(v[4], v[2]);
		PF_CX(v[6], v[4]);
		PF_CX(v[4], v[2]);
		out[(size_t)y * w + x] = pf_unkey(v[4]);
		return;
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
