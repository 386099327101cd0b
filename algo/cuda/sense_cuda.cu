/*
 * Sensing's per-pixel work on the GPU, the twin of algo/sense*.c: the hypotheses' scores, each
 * row's sums for the plane, the object mask, its opening and closing, and the 8-connected
 * labelling with each blob's area and box. The host (hal/cuda/sense_cuda.c) decides from these
 * figures with the reference's own functions (algo/sense/sense_planner.h), so the result is
 * jd_sense_run()'s. Arithmetic is spelled with _rn intrinsics where the reference's C has
 * a product then a sum (nvcc would fuse them; the reference is built -ffp-contract=off), and
 * sums that are not exact run in the reference's order: one thread adds a row left to right.
 * Labels: a blob is labelled by its first pixel in raster order, plus one, as the reference's
 * are ordered (its labels number the blobs by that pixel); union-find with atomicMin always
 * links a root to a smaller one, so every blob's root is that pixel.
 */
#include "../sense/sense_planner.h"
#include "sense_launch.h"

static __device__ __forceinline__ int jd_sense_valid_d(float d)
{
	return d > 0.0f && d < INFINITY;
}

/* inlier() of sense_plane.c: |d - (p0 x + p1 y + p2)| <= tol, in doubles. */
static __device__ __forceinline__ double jd_sense_resid(float d, int x, int y, double p0, double p1,
							double p2)
{
	double pr = __dadd_rn(__dadd_rn(__dmul_rn(p0, (double)x), __dmul_rn(p1, (double)y)), p2);
	return __dsub_rn((double)d, pr);
}

/*
 * The hypotheses' candidates (jd_sense_hypotheses_by()): out[k] is the map's value at the
 * pixel the seed's draws 2k and 2k+1 give in the ROI, so that only these values cross.
 */
extern "C" __global__ void jd_sense_candidates_cuda(const float *__restrict__ disp, int w, int x0,
						    int y0, int x1, int y1,
						    const unsigned *__restrict__ draws, int n,
						    float *__restrict__ out)
{
	const int k = blockIdx.x * blockDim.x + threadIdx.x;

	if (k < n) {
		const int x = x0 + (int)(draws[2 * k] % (unsigned)(x1 - x0));
		const int y = y0 + (int)(draws[2 * k + 1] % (unsigned)(y1 - y0));
		out[k] = disp[(size_t)y * w + x];
	}
}

/*
 * grid (n + nrows): block i < n counts hypothesis i's inliers on the step grid into
 * count[i]; block n + j counts row y0 + j's valid pixels into count[n + j] (all plain
 * stores: count may be the host's mapped memory).
 */
extern "C" __global__ void jd_sense_score_cuda(const float *__restrict__ disp, int w, int x0,
					       int y0, int x1, int y1, int step,
					       const double *__restrict__ planes, int n, float tol,
					       long long *__restrict__ count)
{
	__shared__ int total;
	int b = blockIdx.x, got = 0;

	if (threadIdx.x == 0) {
		total = 0;
	}
	__syncthreads();
	if (b < n) {
		double p0 = planes[3 * b], p1 = planes[3 * b + 1], p2 = planes[3 * b + 2];
		int nx = (x1 - x0 + step - 1) / step, ny = (y1 - y0 + step - 1) / step;
		for (int t = threadIdx.x; t < nx * ny; t += blockDim.x) {
			int x = x0 + t % nx * step, y = y0 + t / nx * step;
			float d = disp[(size_t)y * w + x];
			got +=
			    jd_sense_valid_d(d) && fabs(jd_sense_resid(d, x, y, p0, p1, p2)) <= tol;
		}
	} else {
		const float *row = disp + (size_t)(y0 + b - n) * w;
		for (int x = x0 + threadIdx.x; x < x1; x += blockDim.x) {
			got += jd_sense_valid_d(row[x]);
		}
	}
	atomicAdd(&total, got);
	__syncthreads();
	if (threadIdx.x == 0) {
		count[b] = total;
	}
}

/*
 * One block a ROI row (dynamic shared memory: the row's x1 - x0 floats); thread 0 adds in
 * the reference's order. fit 0: jd_sense_row_lsq()'s record, fit 1: jd_sense_row_fit()'s.
 */
extern "C" __global__ void jd_sense_rows_cuda(const float *__restrict__ disp, int w, int x0, int y0,
					      int x1, double p0, double p1, double p2, float tol,
					      int fit, double *__restrict__ rows)
{
	extern __shared__ float rd[];
	int y = y0 + blockIdx.x;
	const float *row = disp + (size_t)y * w;

	for (int x = x0 + threadIdx.x; x < x1; x += blockDim.x) {
		rd[x - x0] = row[x];
	}
	__syncthreads();
	if (threadIdx.x) {
		return;
	}
	double r[JD_SROW_FIELDS] = {0};
	double dy = (double)y;
	float a = (float)p0, b = (float)p1, c = (float)p2;
	int lo = -1, hi = -1;

	for (int x = x0; x < x1; x++) {
		float d = rd[x - x0];
		if (!jd_sense_valid_d(d)) {
			continue;
		}
		double e = jd_sense_resid(d, x, y, p0, p1, p2), dx = (double)x, dd = (double)d;
		if (!(fabs(e) <= tol)) {
			/* not an inlier of the double plane; the float one may still hold it */
		} else if (fit) {
			r[JD_SROW_RSS] = __dadd_rn(r[JD_SROW_RSS], __dmul_rn(e, e));
		} else {
			r[JD_SROW_N] = __dadd_rn(r[JD_SROW_N], 1.0);
			r[JD_SROW_X] = __dadd_rn(r[JD_SROW_X], dx);
			r[JD_SROW_Y] = __dadd_rn(r[JD_SROW_Y], dy);
			r[JD_SROW_XX] = __dadd_rn(r[JD_SROW_XX], __dmul_rn(dx, dx));
			r[JD_SROW_XY] = __dadd_rn(r[JD_SROW_XY], __dmul_rn(dx, dy));
			r[JD_SROW_YY] = __dadd_rn(r[JD_SROW_YY], __dmul_rn(dy, dy));
			r[JD_SROW_XD] = __dadd_rn(r[JD_SROW_XD], __dmul_rn(dx, dd));
			r[JD_SROW_YD] = __dadd_rn(r[JD_SROW_YD], __dmul_rn(dy, dd));
			r[JD_SROW_D] = __dadd_rn(r[JD_SROW_D], dd);
		}
		float pf = __fadd_rn(__fadd_rn(__fmul_rn(a, (float)x), __fmul_rn(b, (float)y)), c);
		if (fit && fabsf(__fsub_rn(d, pf)) <= tol) {
			lo = lo < 0 ? x : lo;
			hi = x;
		}
	}
	r[JD_SROW_LO] = fit ? lo : 0;
	r[JD_SROW_HI] = fit ? hi : 0;
	for (int k = 0; k < JD_SROW_FIELDS; k++) {
		rows[(size_t)blockIdx.x * JD_SROW_FIELDS + k] = r[k];
	}
}

/* jd_plane_height_mm(), operation for operation. */
static __device__ __forceinline__ float jd_sense_height(const jd_sense_px_args &a, float x, float y,
							float d)
{
	float z = __fdiv_rn(__fmul_rn(a.f, a.baseline_mm), d);
	float px = __fdiv_rn(__fmul_rn(__fsub_rn(x, a.cx), z), a.f);
	float py = __fdiv_rn(__fmul_rn(__fsub_rn(y, a.cy), z), a.f);

	return __fsub_rn(a.k_mm, __fadd_rn(__fadd_rn(__fmul_rn(a.n[0], px), __fmul_rn(a.n[1], py)),
					   __fmul_rn(a.n[2], z)));
}

/*
 * jd_sense_object_px() over the map: mask the strong pixels, weak every object pixel, strong
 * or weak (as the reference's mask_row()): grid (ceil(w / 128), h).
 */
extern "C" __global__ void jd_sense_objpx_cuda(const float *__restrict__ disp, jd_sense_px_args a,
					       unsigned char *__restrict__ mask,
					       unsigned char *__restrict__ weak)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;

	if (x >= a.w) {
		return;
	}
	float d = disp[(size_t)y * a.w + x];
	int in =
	    x >= a.roi[0] && x < a.roi[2] && y >= a.roi[1] && y < a.roi[3] && jd_sense_valid_d(d);
	int on = 0, rim = 0;

	if (in && a.fixed) {
		on = d > a.fixed_disp && a.fixed_disp > 0;
	} else if (in) {
		float pf =
		    __fadd_rn(__fadd_rn(__fmul_rn(a.a, (float)x), __fmul_rn(a.b, (float)y)), a.c);
		float above = __fsub_rn(d, pf), hgt = jd_sense_height(a, (float)x, (float)y, d);
		on = above > a.plane_tol && hgt > a.min_height_mm;
		rim = above > __fmul_rn(JD_SENSE_WEAK_SHARE, a.plane_tol) &&
		      hgt > __fmul_rn(JD_SENSE_WEAK_SHARE, a.min_height_mm);
	}
	mask[(size_t)y * a.w + x] = (unsigned char)on;
	weak[(size_t)y * a.w + x] = (unsigned char)(on || rim);
}

/* 3x3 erosion (all set) or dilation (any set), outside the map 0: grid (ceil(w / 128), h). */
extern "C" __global__ void jd_sense_morph_cuda(const unsigned char *__restrict__ src,
					       unsigned char *__restrict__ dst, int w, int h,
					       int dilate)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;

	if (x >= w) {
		return;
	}
	int any = 0, all = 1;
	for (int dy = -1; dy <= 1; dy++) {
		for (int dx = -1; dx <= 1; dx++) {
			int xx = x + dx, yy = y + dy;
			int v = xx >= 0 && xx < w && yy >= 0 && yy < h && src[(size_t)yy * w + xx];
			any |= v;
			all &= v;
		}
	}
	dst[(size_t)y * w + x] = (unsigned char)(dilate ? any : all);
}

/*
 * Each object pixel its own set; every pixel's statistics cleared (area, x0, y0, x1, y1, and
 * the strong pixels).
 */
extern "C" __global__ void jd_sense_ccl_init_cuda(const unsigned char *__restrict__ mask, int w,
						  int h, int *__restrict__ parent,
						  int *__restrict__ stats)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= w * h) {
		return;
	}
	parent[i] = mask[i] ? i : -1;
	stats[6 * i] = 0;
	stats[6 * i + 1] = w;
	stats[6 * i + 2] = h;
	stats[6 * i + 3] = -1;
	stats[6 * i + 4] = -1;
	stats[6 * i + 5] = 0;
}

static __device__ int jd_sense_find(const int *parent, int i)
{
	int p = ((const volatile int *)parent)[i];

	while (p != i) {
		i = p;
		p = ((const volatile int *)parent)[i];
	}
	return i;
}

/* Join the sets of a and b: the larger root is linked to the smaller (retried on a race). */
static __device__ void jd_sense_unite(int *parent, int a, int b)
{
	for (;;) {
		a = jd_sense_find(parent, a);
		b = jd_sense_find(parent, b);
		if (a == b) {
			return;
		}
		int hi = a > b ? a : b, lo = a > b ? b : a;
		int old = atomicMin(&parent[hi], lo);
		if (old == hi) {
			return;
		}
		a = old; /* hi had been linked meanwhile: join its new root with lo */
		b = lo;
	}
}

/* jd_sense_joins(), with its product rounded alone. */
static __device__ __forceinline__ int jd_sense_joins_d(float a, float b)
{
	if (!jd_sense_valid_d(a) || !jd_sense_valid_d(b)) {
		return 1;
	}
	float gap = a > b ? __fsub_rn(a, b) : __fsub_rn(b, a), big = a > b ? a : b;
	return gap <= 1.5f || gap <= __fmul_rn(0.03f, big);
}

/* Union over the neighbours the reference looks back at: left, and the three above. */
extern "C" __global__ void jd_sense_ccl_merge_cuda(const unsigned char *__restrict__ mask,
						   const float *__restrict__ disp, int w, int h,
						   int *__restrict__ parent)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	size_t i = (size_t)y * w + x;

	if (x >= w || !mask[i]) {
		return;
	}
	float d = disp[i];
	const int dxs[4] = {-1, -1, 0, 1}, dys[4] = {0, -1, -1, -1};
	for (int k = 0; k < 4; k++) {
		int xx = x + dxs[k], yy = y + dys[k];
		if (xx < 0 || xx >= w || yy < 0) {
			continue;
		}
		size_t j = (size_t)yy * w + xx;
		if (mask[j] && jd_sense_joins_d(d, disp[j])) {
			jd_sense_unite(parent, (int)i, (int)j);
		}
	}
}

/* Each strong pixel's label: its root + 1 (0 background). */
extern "C" __global__ void jd_sense_ccl_final_cuda(const int *__restrict__ parent, int w, int h,
						   int *__restrict__ label)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	int i = y * w + x;

	if (x < w) {
		label[i] = parent[i] < 0 ? 0 : jd_sense_find(parent, i) + 1;
	}
}

/*
 * One pass of the reference's grow(): an unlabelled weak pixel takes the least label of its 8
 * neighbours that joins it, from the labels before the pass (in); grid (ceil(w / 128), h).
 */
extern "C" __global__ void jd_sense_grow_cuda(const int *__restrict__ in, int *__restrict__ out,
					      const unsigned char *__restrict__ weak,
					      const float *__restrict__ disp, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	size_t i = (size_t)y * w + x;

	if (x >= w) {
		return;
	}
	int l = in[i];
	if (!l && weak[i]) {
		float d = disp[i];
		for (int dy = -1; dy <= 1; dy++) {
			for (int dx = -1; dx <= 1; dx++) {
				int xx = x + dx, yy = y + dy;
				if ((dx || dy) && xx >= 0 && xx < w && yy >= 0 && yy < h) {
					size_t j = (size_t)yy * w + xx;
					int lj = in[j];
					if (lj && (!l || lj < l) && jd_sense_joins_d(d, disp[j])) {
						l = lj;
					}
				}
			}
		}
	}
	out[i] = l;
}

/* Each blob's area, box and strong pixels (mask), at its root, from the grown labels. */
extern "C" __global__ void jd_sense_ccl_stats_cuda(const int *__restrict__ label,
						   const unsigned char *__restrict__ mask, int w,
						   int *__restrict__ stats)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	size_t i = (size_t)y * w + x;

	if (x >= w || !label[i]) {
		return;
	}
	int *s = stats + 6 * (size_t)(label[i] - 1);
	atomicAdd(&s[0], 1);
	if (mask[i]) {
		atomicAdd(&s[5], 1);
	}
	atomicMin(&s[1], x);
	atomicMin(&s[2], y);
	atomicMax(&s[3], x);
	atomicMax(&s[4], y);
}

/*
 * The blobs of at least min_area pixels with a strong one, in no order (the host sorts them by
 * label), up to cap; *count may pass cap (the host then says so). blobs: label, area, x0, y0,
 * x1, y1.
 */
extern "C" __global__ void jd_sense_blobs_cuda(const int *__restrict__ parent,
					       const int *__restrict__ stats, int n, int min_area,
					       int cap, int *__restrict__ count,
					       int *__restrict__ blobs)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= n || parent[i] != i || stats[6 * (size_t)i] < min_area ||
	    stats[6 * (size_t)i + 5] < 1) {
		return;
	}
	int k = atomicAdd(count, 1);
	if (k < cap) {
		int *b = blobs + 6 * (size_t)k;
		b[0] = i + 1;
		for (int f = 0; f < 5; f++) {
			b[1 + f] = stats[6 * (size_t)i + f];
		}
	}
}

/* The count where the host reads it (a plain store: out may be mapped host memory). */
extern "C" __global__ void jd_sense_count_cuda(const int *__restrict__ count, int *out)
{
	*out = *count;
}

/*
 * jd_confidence_mask() into the stage's copy of the map, and into the map itself when asked
 * (in_place: the host then receives it masked): grid (ceil(n / 256)).
 */
extern "C" __global__ void jd_sense_mask_conf_cuda(float *map,
						   const unsigned char *__restrict__ conf, int n,
						   int min_conf, float *__restrict__ out,
						   int in_place)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n) {
		float v = conf[i] < min_conf ? INFINITY : map[i];
		out[i] = v;
		if (in_place) {
			map[i] = v;
		}
	}
}
