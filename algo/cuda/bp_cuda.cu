/*
 * Hierarchical BP on the GPU, the twin of bp_pyramid.c, bp_messages.c and bp_select.c: the
 * same workspace layout ([y][colour][d][slot], one checkerboard colour contiguous per row,
 * sink slots at both ends, rows padded to 16 slots), the same float operations in the same
 * order, so float storage gives jd_bp_ref()'s map pixel for pixel and fp16 storage the same
 * half bits (float arithmetic, __float2half_rn rounding as jd_float_to_half()).
 *
 * This file: the level-0 inputs (float, smoothing, census), the data costs and the coarser
 * levels (bp_pyramid.c), and the helpers the message update and the selection
 * (bp_messages_cuda.cu) share.
 */
#include <cuda_fp16.h>
#include <stdint.h>

#include "../bp/bp_census.h"
#include "../bp/bp_gauss.h"
#include "../match/subpixel.h"
#include "bp_launch.h"

#define BP_INF __int_as_float(0x7f800000)

enum { BP_UP, BP_DOWN, BP_LEFT, BP_RIGHT };

static __device__ __forceinline__ float bp_ld(const float *p)
{
	return *p;
}
static __device__ __forceinline__ float bp_ld(const __half *p)
{
	return __half2float(*p);
}
static __device__ __forceinline__ void bp_st(float *p, float v)
{
	*p = v;
}
static __device__ __forceinline__ void bp_st(__half *p, float v)
{
	*p = __float2half_rn(v);
}

/*
 * The reference's min is a < b ? a : b. fminf (one FMNMX instead of a compare and a select)
 * returns the same value for every non-NaN pair except +0 / -0, where only the sign of a zero
 * can differ: sums, the minimum and every comparison downstream come out equal, so the
 * disparity map is the same (the tests compare it bit for bit). No NaN arises: costs and
 * messages are finite.
 */
static __device__ __forceinline__ float bp_min(float a, float b)
{
	return fminf(a, b);
}

/* Start of (row y, colour c, d = 0, slot of pixel 0), as jd__bp_row(). */
static __device__ __forceinline__ size_t bp_row(int y, int c, int nd, int hp)
{
	return (size_t)(2 * y + c) * nd * hp + 1;
}

/* Pixels of colour c in row y, as jd__bp_count(). */
static __device__ __forceinline__ int bp_count(int w, int y, int c)
{
	return (w - ((y + c) & 1) + 1) / 2;
}

/* Level-0 inputs as float (then smoothed by jd_bp_smooth_cuda where sigma > 0). */
extern "C" __global__ void jd_bp_to_float_cuda(const uint8_t *__restrict__ im, int n,
					       float *__restrict__ out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n) {
		out[i] = (float)im[i];
	}
}

/*
 * One pass of jd_bp_prepare_image()'s Gaussian, operation for operation: along rows
 * (vertical 0) or columns, edges replicated. grid (ceil(w / 128), h).
 */
extern "C" __global__ void jd_bp_smooth_cuda(const float *__restrict__ in, float *__restrict__ out,
					     int w, int h, jd_bp_gauss g, int vertical)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;

	if (x >= w) {
		return;
	}
	float s = __fmul_rn(g.k[0], in[(size_t)y * w + x]);
	for (int i = 1; i <= g.rad; i++) {
		float a, b;
		if (vertical) {
			a = in[(size_t)max(y - i, 0) * w + x];
			b = in[(size_t)min(y + i, h - 1) * w + x];
		} else {
			a = in[(size_t)y * w + max(x - i, 0)];
			b = in[(size_t)y * w + min(x + i, w - 1)];
		}
		s = __fadd_rn(s, __fmul_rn(g.k[i], __fadd_rn(a, b)));
	}
	out[(size_t)y * w + x] = s;
}

/*
 * Census codes of a level-0 float image, as jd_bp_census(): a bit per 5x5 neighbour darker
 * than the centre by more than JD_BP_CENSUS_T, edges replicated, kept as a float's bits.
 */
extern "C" __global__ void jd_bp_census_cuda(const float *__restrict__ in, int w, int h,
					     float *__restrict__ out)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, r = JD_BP_CENSUS_RADIUS;

	if (x >= w) {
		return;
	}
	float c = in[(size_t)y * w + x] - JD_BP_CENSUS_T;
	unsigned code = 0;

	for (int dy = -r; dy <= r; dy++) {
		const float *row = in + (size_t)min(max(y + dy, 0), h - 1) * w;

		for (int dx = -r; dx <= r; dx++) {
			if (dx || dy) {
				code = code << 1 | (row[min(max(x + dx, 0), w - 1)] < c);
			}
		}
	}
	out[(size_t)y * w + x] = __uint_as_float(code);
}

/* v as the storage keeps it: rounded to half in fp16 storage (jd_float_to_half()). */
static __device__ __forceinline__ float bp_round(float v, const float *)
{
	return v;
}
static __device__ __forceinline__ float bp_round(float v, const __half *)
{
	return __half2float(__float2half_rn(v));
}

/* Level-0 row y of the left and of the right image as floats. */
static __device__ __forceinline__ const float *bp_left_row(const struct jd_bp_cost0 &c0, int y)
{
	return (const float *)c0.left + (size_t)y * c0.w;
}

static __device__ __forceinline__ const float *bp_right_row(const struct jd_bp_cost0 &c0, int y)
{
	return (const float *)c0.right + (size_t)y * c0.w;
}

/* jd_bp_quantise() of bp.h: the nearest multiple of 1/16, halves to even; exact products. */
static __device__ __forceinline__ float bp_grid(float c)
{
	return __fmul_rn(rintf(__fmul_rn(c, 16.0f)), 0.0625f);
}

/*
 * Level-0 data cost of left value l against right value r (in: whether the disparity stays
 * inside the right image), or of pixel x against row rrow at disparity d, as the
 * reference's level-0 volume stores it (the same float operations, then the storage's
 * rounding): the kernels make it where they use it instead of reading a stored volume.
 */
template <typename T>
static __device__ __forceinline__ float bp_cost(const struct jd_bp_cost0 &c0, float l, float r,
						bool in)
{
	/* a disparity that leaves the right image; __fmul_rn: never fused into a caller's add */
	float v = bp_grid(__fmul_rn(c0.lambda, c0.data_k));

	if (in) {
		float diff = l - r;
		diff = diff < 0.0f ? -diff : diff;
		if (c0.census) {
			diff = (float)__popc(__float_as_uint(l) ^ __float_as_uint(r));
		}
		v = bp_grid(__fmul_rn(c0.lambda, diff < c0.data_k ? diff : c0.data_k));
	}
	return bp_round(v, (const T *)0);
}

template <typename T>
static __device__ __forceinline__ float bp_cost0(const struct jd_bp_cost0 &c0, float l,
						 const float *rrow, int x, int d)
{
	int xr = x - c0.min_disp - d;

	return bp_cost<T>(c0, l, xr >= 0 ? rrow[xr] : 0.0f, xr >= 0);
}

/*
 * Level-0 data costs stored as a volume, for the disparity counts whose message kernels
 * read them (above 128 and the generic path: making them inside those kernels spills);
 * grid (slots, 2 * h, nd / JD_BP_DCHUNK).
 */
template <typename T>
static __device__ void data0(const struct jd_bp_cost0 &c0, int nd, int hp, T *data)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, d0 = blockIdx.z * JD_BP_DCHUNK;
	int y = blockIdx.y >> 1, c = blockIdx.y & 1, x = 2 * i + ((y + c) & 1);

	if (i >= bp_count(c0.w, y, c)) {
		return;
	}
	float l = bp_left_row(c0, y)[x];
	T *o = data + bp_row(y, c, nd, hp) + i;

	for (int d = d0; d < d0 + JD_BP_DCHUNK && d < nd; d++) {
		bp_st(o + (size_t)d * hp, bp_cost0<T>(c0, l, bp_right_row(c0, y), x, d));
	}
}

/*
 * Coarse data costs: the 2x2 children summed in the reference's order, absent ones skipped;
 * fine NULL: the children are level 0's, made from the images. grid (slots, 2 * h, nd /
 * JD_BP_DCHUNK).
 */
template <typename T>
static __device__ void coarse(const T *fine, int fw, int fh, int fhp, T *out, int cw, int chp,
			      int nd, const struct jd_bp_cost0 &c0)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, d0 = blockIdx.z * JD_BP_DCHUNK;
	int y = blockIdx.y >> 1, c = blockIdx.y & 1, par = (y + c) & 1;

	if (i >= bp_count(cw, y, c)) {
		return;
	}
	int s = 2 * i + par, right = 2 * s + 1 < fw, has_b1 = 2 * y + 1 < fh;

	if (!fine) { /* children (2y, 2s), (2y, 2s + 1), (2y + 1, 2s), (2y + 1, 2s + 1) */
		const float *l0 = bp_left_row(c0, 2 * y);
		const float *l1 = l0 + fw, *r0 = bp_right_row(c0, 2 * y), *r1 = r0 + fw;

		for (int d = d0; d < d0 + JD_BP_DCHUNK && d < nd; d++) {
			float v = 0.0f + bp_cost0<T>(c0, l0[2 * s], r0, 2 * s, d);

			v += right ? bp_cost0<T>(c0, l0[2 * s + 1], r0, 2 * s + 1, d) : 0.0f;
			if (has_b1) {
				v += bp_cost0<T>(c0, l1[2 * s], r1, 2 * s, d);
				v +=
				    right ? bp_cost0<T>(c0, l1[2 * s + 1], r1, 2 * s + 1, d) : 0.0f;
			}
			bp_st(out + bp_row(y, c, nd, chp) + (size_t)d * chp + i, v);
		}
		return;
	}
	for (int d = d0; d < d0 + JD_BP_DCHUNK && d < nd; d++) {
		size_t dd = (size_t)d * fhp + s;
		float v = 0.0f + bp_ld(fine + bp_row(2 * y, 0, nd, fhp) + dd);

		v += right ? bp_ld(fine + bp_row(2 * y, 1, nd, fhp) + dd) : 0.0f;
		if (has_b1) {
			v += bp_ld(fine + bp_row(2 * y + 1, 1, nd, fhp) + dd);
			v += right ? bp_ld(fine + bp_row(2 * y + 1, 0, nd, fhp) + dd) : 0.0f;
		}
		bp_st(out + bp_row(y, c, nd, chp) + (size_t)d * chp + i, v);
	}
}

/*
 * Children start from their parent's messages: child slot i of row y reads parent row y / 2,
 * colour (i + y / 2) & 1, slot i / 2 (raw copies, as copy_run()). Every pixel of both colours
 * is copied (the reference skips colour 1's interior, which iteration 0 overwrites anyway).
 * grid (slots, 2 * h, 4 directions * nd); pstep / cstep: bytes from one direction to the next.
 */
template <typename E>
static __device__ void copy_msgs(const uint8_t *parent, int php, size_t pstep, uint8_t *child,
				 int w, int hp, size_t cstep, int nd)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y >> 1, c = blockIdx.y & 1, k = blockIdx.z / nd, d = blockIdx.z % nd;
	int py = y >> 1;

	if (i >= bp_count(w, y, c)) {
		return;
	}
	const E *src =
	    (const E *)(parent + k * pstep) + bp_row(py, (i + py) & 1, nd, php) + (i >> 1);
	E *dst = (E *)(child + k * cstep) + bp_row(y, c, nd, hp) + i;

	dst[(size_t)d * hp] = src[(size_t)d * php];
}
