/*
 * The objects' figures on the GPU (jd_sense_obj_rec), the twin of algo/sense/sense_gather.c: one
 * block an object. Its pixels with a disparity go to its share of the scratches in any order
 * (a slot a warp), since nothing depends on their order: the sums are fixed-point integers
 * (jd_sense_fix) and the percentiles are exact order statistics, found by radix selection
 * where the reference uses quickselect. Arithmetic is spelled with _rn intrinsics, operation
 * for operation as the reference's C (built -ffp-contract=off). The plane is valid exactly
 * when a.fixed is 0 (sensing without a table uses the fixed threshold).
 */
#include "../sense/sense_planner.h"
#include "sense_launch.h"

#define JD_SOBJ_FULL 0xffffffffu

/* A float's bits as an unsigned key in the floats' order (-0 just below +0). */
static __device__ __forceinline__ unsigned jd_sobj_key(float f)
{
	unsigned b = __float_as_uint(f);

	return b & 0x80000000u ? ~b : b | 0x80000000u;
}

static __device__ __forceinline__ float jd_sobj_unkey(unsigned k)
{
	return __uint_as_float(k & 0x80000000u ? k & 0x7fffffffu : ~k);
}

/* Each query's histogram of the next 8 bits, the prefix found so far, its rank in it. */
struct jd_sobj_hist {
	unsigned hist[4][256];
	unsigned pre[4], want[4];
};

/*
 * out[q] = the k[q]-th smallest of v[0..n) for q < nq <= 4, a zero as +0 (kth() of
 * sense_gather.c): 8 bits a pass from the top, each query narrowing its own prefix; warp q
 * finds query q's bin. Called by the whole block, n > 0; out is shared.
 */
static __device__ void jd_sobj_select(const float *v, int n, int nq, const long long *k, float *out,
				      jd_sobj_hist *sh)
{
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

	if (threadIdx.x < nq) {
		sh->pre[threadIdx.x] = 0;
		sh->want[threadIdx.x] = (unsigned)k[threadIdx.x];
	}
	for (int shift = 24; shift >= 0; shift -= 8) {
		for (int i = threadIdx.x; i < 4 * 256; i += blockDim.x) {
			sh->hist[i >> 8][i & 255] = 0;
		}
		__syncthreads();
		unsigned high = shift == 24 ? 0u : ~0u << (shift + 8);
		for (int base = warp * 32; base < n; base += blockDim.x) {
			int i = base + lane;
			unsigned key = i < n ? jd_sobj_key(v[i]) : 0u;
			for (int q = 0; q < nq; q++) {
				int in = i < n && (key & high) == sh->pre[q];
				unsigned bin = in ? (key >> shift) & 255u : 256u;
				/* values cluster: the lanes with one bin add once */
				unsigned same = __match_any_sync(JD_SOBJ_FULL, bin);
				if (in && lane == __ffs(same) - 1) {
					atomicAdd(&sh->hist[q][bin], (unsigned)__popc(same));
				}
			}
		}
		__syncthreads();
		if (warp < nq) {
			const unsigned *h = sh->hist[warp] + 8 * lane;
			unsigned c = 0, want = sh->want[warp];
			for (int b = 0; b < 8; b++) {
				c += h[b];
			}
			unsigned inc = c;
			for (int o = 1; o < 32; o <<= 1) {
				unsigned t = __shfl_up_sync(JD_SOBJ_FULL, inc, o);
				inc += lane >= o ? t : 0u;
			}
			unsigned before = inc - c;
			__syncwarp(); /* every lane has read want before one writes it */
			if (before <= want && want < inc) {
				for (int b = 0; b < 8; b++) {
					if (want < before + h[b]) {
						sh->pre[warp] |= (unsigned)(8 * lane + b) << shift;
						sh->want[warp] = want - before;
						break;
					}
					before += h[b];
				}
			}
		}
		__syncthreads();
	}
	if (threadIdx.x < nq) {
		out[threadIdx.x] = __fadd_rn(jd_sobj_unkey(sh->pre[threadIdx.x]), 0.0f);
	}
	__syncthreads();
}

/* v[0..m) summed over the block, in every thread (sh: m * 32). Exact: integers. */
static __device__ void jd_sobj_sums(long long *v, int m, long long *sh)
{
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;

	for (int j = 0; j < m; j++) {
		long long x = v[j];
		for (int o = 16; o; o >>= 1) {
			x += __shfl_down_sync(JD_SOBJ_FULL, x, o);
		}
		if (!lane) {
			sh[32 * j + warp] = x;
		}
	}
	__syncthreads();
	if (!warp) {
		for (int j = 0; j < m; j++) {
			long long x = lane < nw ? sh[32 * j + lane] : 0;
			for (int o = 16; o; o >>= 1) {
				x += __shfl_down_sync(JD_SOBJ_FULL, x, o);
			}
			if (!lane) {
				sh[32 * j] = x;
			}
		}
	}
	__syncthreads();
	for (int j = 0; j < m; j++) {
		v[j] = sh[32 * j];
	}
	__syncthreads();
}

/* jd_sense_fix(). */
static __device__ __forceinline__ long long jd_sobj_fix(double v, double unit, double lim)
{
	double q = __dmul_rn(v, unit);

	q = q > lim ? lim : (q < -lim ? -lim : q);
	return __double2ll_rn(q);
}

/* point3() of sense_gather.c. */
static __device__ __forceinline__ void jd_sobj_point(const jd_sense_px_args &a, float x, float y,
						     float d, double p[3])
{
	double z = __ddiv_rn(__dmul_rn((double)a.f, (double)a.baseline_mm), (double)d);

	p[0] = __ddiv_rn(__dmul_rn((double)__fsub_rn(x, a.cx), z), (double)a.f);
	p[1] = __ddiv_rn(__dmul_rn((double)__fsub_rn(y, a.cy), z), (double)a.f);
	p[2] = z;
}

/* along() of sense_gather.c. */
static __device__ __forceinline__ double jd_sobj_along(const double p[3], const float e[3])
{
	return __dadd_rn(__dadd_rn(__dmul_rn(p[0], (double)e[0]), __dmul_rn(p[1], (double)e[1])),
			 __dmul_rn(p[2], (double)e[2]));
}

/* The sums this kernel adds, in the order of jd_sobj_sums()'s array. */
enum { S_X, S_Y, S_KEPT, S_C, S_U = S_C + 3, S_V, S_UU, S_VV, S_UV, S_NTOP, S_T, S_N = S_T + 3 };

/*
 * Each object's first figures (first_one() of sense_gather.c): grid (objects), block
 * JD_SOBJ_THREADS. obj: JD_SOBJ_INTS each; its pixels, disparities and heights go to px,
 * vd, vh from its offset on.
 */
extern "C" __global__ void __launch_bounds__(JD_SOBJ_THREADS)
    jd_sense_measure_cuda(const float *__restrict__ disp, const int *__restrict__ label,
			  jd_sense_px_args a, const int *obj, int *__restrict__ px,
			  float *__restrict__ vd, float *__restrict__ vh, jd_sense_obj_rec *rec)
{
	__shared__ jd_sobj_hist sel;
	__shared__ long long sh[S_N * 32];
	__shared__ float q[4];
	__shared__ int count;
	const int *o = obj + JD_SOBJ_INTS * blockIdx.x;
	int lab = o[JD_SOBJ_LABEL], x0 = o[JD_SOBJ_X0], y0 = o[JD_SOBJ_Y0];
	int bw = o[JD_SOBJ_X1] - x0 + 1, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	long long area = (long long)bw * (o[JD_SOBJ_Y1] - y0 + 1), s[S_N] = {0};
	jd_sense_obj_rec *out = rec + blockIdx.x;

	px += o[JD_SOBJ_OFFSET];
	vd += o[JD_SOBJ_OFFSET];
	vh += o[JD_SOBJ_OFFSET];
	if (!threadIdx.x) {
		count = 0;
	}
	__syncthreads();
	for (long long base = warp * 32; base < area; base += blockDim.x) {
		long long t = base + lane;
		int x = x0 + (int)(t % bw), y = y0 + (int)(t / bw), in = 0, slot = 0;
		float d = 0.0f;
		if (t < area) {
			size_t i = (size_t)y * a.w + x;
			d = disp[i];
			in = label[i] == lab && jd_sense_valid_d(d);
		}
		unsigned ball = __ballot_sync(JD_SOBJ_FULL, in);
		if (!lane && ball) {
			slot = atomicAdd(&count, __popc(ball));
		}
		slot = __shfl_sync(JD_SOBJ_FULL, slot, 0) + __popc(ball & ((1u << lane) - 1));
		if (in) {
			px[slot] = y << 16 | x;
			vd[slot] = d;
			if (!a.fixed) {
				vh[slot] = jd_sense_height(a, (float)x, (float)y, d);
			}
			s[S_X] += x;
			s[S_Y] += y;
		}
	}
	__syncthreads();
	int n = count;
	if (n == 0) {
		if (!threadIdx.x) {
			*out = jd_sense_obj_rec{};
		}
		return;
	}
	float top = 0.0f;
	if (!a.fixed) {
		long long k = (long long)n * 95 / 100;
		jd_sobj_select(vh, n, 1, &k, q, &sel);
		top = q[0];
	}
	long long kd[3] = {n / 2, (long long)n * 2 / 100, (long long)n * 98 / 100};
	jd_sobj_select(vd, n, 3, kd, q, &sel);
	float med = q[0], lo = q[1], hi = q[2];
	double p[3];
	for (int i = threadIdx.x; i < n; i += blockDim.x) {
		float d = vd[i];
		if (d >= lo && d <= hi) {
			jd_sobj_point(a, (float)(px[i] & 0xffff), (float)(px[i] >> 16), d, p);
			for (int c = 0; c < 3; c++) {
				s[S_C + c] += jd_sobj_fix(p[c], JD_SENSE_FIX, JD_SENSE_FIX_LIM);
			}
			s[S_KEPT]++;
		}
	}
	jd_sobj_sums(s, S_U, sh);
	if (!a.fixed) {
		/* jd_sense_obj_centroid(), then point_sums()'s second loop */
		double cp[3];
		for (int c = 0; c < 3; c++) {
			cp[c] = (double)__double2float_rn(__ddiv_rn(
			    __ddiv_rn((double)s[S_C + c], JD_SENSE_FIX), (double)s[S_KEPT]));
		}
		double cu = jd_sobj_along(cp, a.e1), cv = jd_sobj_along(cp, a.e2);
		float top_h = __fmul_rn(0.9f, top);
		for (int i = threadIdx.x; i < n; i += blockDim.x) {
			jd_sobj_point(a, (float)(px[i] & 0xffff), (float)(px[i] >> 16), vd[i], p);
			long long u = jd_sobj_fix(__dsub_rn(jd_sobj_along(p, a.e1), cu),
						  JD_SENSE_FIXC, JD_SENSE_FIXC_LIM);
			long long v = jd_sobj_fix(__dsub_rn(jd_sobj_along(p, a.e2), cv),
						  JD_SENSE_FIXC, JD_SENSE_FIXC_LIM);
			s[S_U] += u;
			s[S_V] += v;
			s[S_UU] += u * u;
			s[S_VV] += v * v;
			s[S_UV] += u * v;
			if (vh[i] >= top_h) {
				for (int c = 0; c < 3; c++) {
					s[S_T + c] +=
					    jd_sobj_fix(p[c], JD_SENSE_FIX, JD_SENSE_FIX_LIM);
				}
				s[S_NTOP]++;
			}
		}
		jd_sobj_sums(s + S_U, S_N - S_U, sh);
	}
	if (!threadIdx.x) {
		jd_sense_obj_rec r = {};
		r.n = n;
		r.sx = s[S_X];
		r.sy = s[S_Y];
		r.med = med;
		r.lo = lo;
		r.hi = hi;
		r.top = top;
		r.kept = s[S_KEPT];
		r.ntop = s[S_NTOP];
		for (int c = 0; c < 3; c++) {
			r.c[c] = s[S_C + c];
			r.t[c] = s[S_T + c];
		}
		r.su = s[S_U];
		r.sv = s[S_V];
		r.suu = s[S_UU];
		r.svv = s[S_VV];
		r.suv = s[S_UV];
		*out = r;
	}
}

/*
 * The percentiles along and across ax (cos, sin: two doubles an object) of each object
 * with a plane and two pixels or more (axes_one() of sense_gather.c): grid (objects), block
 * JD_SOBJ_THREADS; px, vd: the measuring kernel's; va, vb: scratches.
 */
extern "C" __global__ void __launch_bounds__(JD_SOBJ_THREADS)
    jd_sense_axes_cuda(jd_sense_px_args a, const int *obj, const double *ax,
		       const int *__restrict__ px, const float *__restrict__ vd,
		       float *__restrict__ va, float *__restrict__ vb, jd_sense_obj_rec *rec)
{
	__shared__ jd_sobj_hist sel;
	__shared__ float q[4];
	int off = obj[JD_SOBJ_INTS * blockIdx.x + JD_SOBJ_OFFSET];
	int n = (int)rec[blockIdx.x].n;
	double c = ax[2 * blockIdx.x], s = ax[2 * blockIdx.x + 1], p[3];

	if (a.fixed || n < 2) {
		return;
	}
	px += off;
	vd += off;
	va += off;
	vb += off;
	for (int i = threadIdx.x; i < n; i += blockDim.x) {
		jd_sobj_point(a, (float)(px[i] & 0xffff), (float)(px[i] >> 16), vd[i], p);
		double u = jd_sobj_along(p, a.e1), v = jd_sobj_along(p, a.e2);
		vb[i] = __double2float_rn(__dadd_rn(__dmul_rn(-u, s), __dmul_rn(v, c)));
		va[i] = __double2float_rn(__dadd_rn(__dmul_rn(u, c), __dmul_rn(v, s)));
	}
	__syncthreads();
	long long k[2] = {(long long)n * 2 / 100, (long long)n * 98 / 100};
	float r[4];
	jd_sobj_select(va, n, 2, k, q, &sel);
	r[0] = q[0];
	r[1] = q[1];
	jd_sobj_select(vb, n, 2, k, q, &sel);
	if (!threadIdx.x) {
		rec[blockIdx.x].a0 = r[0];
		rec[blockIdx.x].a1 = r[1];
		rec[blockIdx.x].b0 = q[0];
		rec[blockIdx.x].b1 = q[1];
	}
}
