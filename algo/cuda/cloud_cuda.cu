/*
 * Depth and the point cloud on the GPU: the twins of jd_depth_image_ref() and
 * jd_point_cloud_ref() (algo/geometry/depth_image.c), the same bits. The map comes as the matcher
 * left it with its confidence: a pixel below min_conf has no depth here, as the host masks the map
 * before the reference (jd_confidence_mask()). The float steps are spelled out (__fdiv_rn,
 * __fsub_rn, __fmul_rn) so that nvcc fuses none of them.
 * The cloud keeps the reference's row order: one block a row counts its points, then one
 * block a row adds the rows above it and places each point by a scan across the row.
 */
#include <stdint.h>

#include "cloud_launch.h"

/* z of pixel i, or +inf where it has none (distrusted, invalid, zero or negative). */
__device__ static float jd_cloud_z(const float *disp, const uint8_t *conf, int min_conf, float fb,
				   size_t i)
{
	const float d = disp[i];
	if ((conf && conf[i] < min_conf) || !(d > 0) || !isfinite(d)) {
		return __int_as_float(0x7f800000);
	}
	return __fdiv_rn(fb, d);
}

extern "C" __global__ void jd_depth_cuda(const float *__restrict__ disp,
					 const uint8_t *__restrict__ conf, int min_conf, float fb,
					 int w, int h, float *__restrict__ out)
{
	const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;

	if (x >= w || y >= h) {
		return;
	}
	const size_t i = (size_t)y * w + x;
	const float z = jd_cloud_z(disp, conf, min_conf, fb, i);
	out[i] = isfinite(z) ? z : __int_as_float(0x7fc00000); /* NAN, as the reference's */
}

/* One block a row: counts[y] = the row's pixels with depth. */
extern "C" __global__ void jd_cloud_count_cuda(const float *__restrict__ disp,
					       const uint8_t *__restrict__ conf, int min_conf,
					       float fb, int w, int *__restrict__ counts)
{
	const int y = blockIdx.x;
	int total = 0;

	for (int x0 = 0; x0 < w; x0 += blockDim.x) { /* every thread takes every turn */
		const int x = x0 + threadIdx.x;
		const int has =
		    x < w && isfinite(jd_cloud_z(disp, conf, min_conf, fb, (size_t)y * w + x));
		total += __syncthreads_count(has);
	}
	if (threadIdx.x == 0) {
		counts[y] = total;
	}
}

/*
 * One block a row (JD_CLOUD_THREADS threads): the row's points at the sum of the counts
 * above it, each after the row's points to its left; the last row's block writes the total.
 */
extern "C" __global__ void jd_cloud_write_cuda(const float *__restrict__ disp,
					       const uint8_t *__restrict__ conf, int min_conf,
					       const uint8_t *__restrict__ left, float fb, float cx,
					       float cy, float inv_f, int w, int h,
					       const int *__restrict__ counts,
					       float4 *__restrict__ xyzi, int *__restrict__ npoints)
{
	__shared__ int above;
	__shared__ int warp_sum[JD_CLOUD_THREADS / 32];
	const int y = blockIdx.x, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

	if (threadIdx.x == 0) {
		above = 0;
	}
	__syncthreads();
	int part = 0;
	for (int r = threadIdx.x; r < y; r += blockDim.x) {
		part += counts[r];
	}
	atomicAdd(&above, part); /* integers: the order of the adds does not matter */
	__syncthreads();
	int base = above;
	const float ry = __fmul_rn(__fsub_rn((float)y, cy), inv_f);

	for (int x0 = 0; x0 < w; x0 += blockDim.x) {
		const int x = x0 + threadIdx.x;
		const size_t i = (size_t)y * w + x;
		const float z = x < w ? jd_cloud_z(disp, conf, min_conf, fb, i) : 0.0f;
		const int has = x < w && isfinite(z);
		const unsigned ballot = __ballot_sync(0xffffffffu, has);
		if (lane == 0) {
			warp_sum[warp] = __popc(ballot);
		}
		__syncthreads();
		int at = base + __popc(ballot & ((1u << lane) - 1u));
		for (int k = 0; k < warp; k++) {
			at += warp_sum[k];
		}
		if (has) {
			const float px = __fmul_rn(__fmul_rn(__fsub_rn((float)x, cx), inv_f), z);
			xyzi[at] = make_float4(px, __fmul_rn(ry, z), z, (float)left[i]);
		}
		for (int k = 0; k < JD_CLOUD_THREADS / 32; k++) {
			base += warp_sum[k];
		}
		__syncthreads(); /* warp_sum is rewritten by the next turn */
	}
	if (y == h - 1 && threadIdx.x == 0) {
		*npoints = base;
	}
}
