/*
 * The confidence map on the GPU, the twin of algo/confidence.c: the same 5x5 census of both
 * rectified images, the same support count, right-image claims and formula, so the bytes are
 * jd_confidence_ref()'s. The claims are a max per column, so a block per row takes them with
 * atomicMax on the float bits (every claiming disparity is positive and finite, where the
 * bits order as the values do): the order of the threads does not change the result.
 */
#define JD_CONF_R 2
#define JD_CONF_NEIGHBOURS 24
#define JD_CONF_TRUSTED 12 /* TRUSTED_SUPPORT of confidence.c */

/* grid (ceil(w / 128), h, 2): z = 0 the left image, 1 the right. */
extern "C" __global__ void jd_conf_census_cuda(const unsigned char *__restrict__ left,
					       const unsigned char *__restrict__ right, int w,
					       int h, unsigned *__restrict__ cl,
					       unsigned *__restrict__ cr)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	const unsigned char *im = blockIdx.z ? right : left;
	unsigned *out = blockIdx.z ? cr : cl;

	if (x >= w) {
		return;
	}
	int c = im[(size_t)y * w + x];
	unsigned code = 0;

	for (int dy = -JD_CONF_R; dy <= JD_CONF_R; dy++) {
		const unsigned char *row = im + (size_t)min(max(y + dy, 0), h - 1) * w;

		for (int dx = -JD_CONF_R; dx <= JD_CONF_R; dx++) {
			if (dy || dx) {
				code = code << 1 | (row[min(max(x + dx, 0), w - 1)] < c);
			}
		}
	}
	out[(size_t)y * w + x] = code;
}

/* right_col() of confidence.c: the right-image column x - d rounded down. */
static __device__ __forceinline__ int jd_conf_right_col(int x, float d)
{
	return x - (int)d - (d > (float)(int)d);
}

/* jd_confidence_cut() of confidence.h: the share of the search that was made, squared. */
static __device__ __forceinline__ unsigned char jd_conf_cut(int c, int x, float reach,
							     int min_disp, int ndisp)
{
	long long avail = x - min_disp + 1;

	if (c == 0 || avail >= ndisp || !(reach > (float)x)) {
		return (unsigned char)c;
	}
	avail = avail < 0 ? 0 : avail;
	return (unsigned char)(1 + (long long)(c - 1) * avail * avail / ((long long)ndisp * ndisp));
}

/*
 * One block a row; dynamic shared memory: w floats of claims, then w support counts. The
 * search [min_disp, min_disp + ndisp) the map came from (ndisp 0: none was cut short).
 */
extern "C" __global__ void jd_conf_cuda(const float *__restrict__ disp, int w, int h,
					const unsigned *__restrict__ cl,
					const unsigned *__restrict__ cr, unsigned char *__restrict__ out,
					int min_disp, int ndisp)
{
	extern __shared__ float claim[];
	unsigned char *sup = (unsigned char *)(claim + w);
	int y = blockIdx.x;
	const float *d = disp + (size_t)y * w;

	for (int x = threadIdx.x; x < w; x += blockDim.x) {
		claim[x] = 0.0f;
		int s = 0;

		for (int k = -JD_CONF_R; k <= JD_CONF_R; k++) {
			if (y + k < 0 || y + k >= h) {
				continue;
			}
			const float *row = disp + (size_t)(y + k) * w;

			for (int dx = -JD_CONF_R; dx <= JD_CONF_R; dx++) {
				if ((k || dx) && x + dx >= 0 && x + dx < w) {
					s += fabsf(row[x + dx] - d[x]) <= 1.0f;
				}
			}
		}
		int valid = isfinite(d[x]) && d[x] > 0.0f;
		sup[x] = (unsigned char)(valid ? s : 0);
	}
	__syncthreads();
	for (int x = threadIdx.x; x < w; x += blockDim.x) {
		float v = d[x];

		if (isfinite(v) && v > 0.0f && sup[x] >= JD_CONF_TRUSTED) {
			int xr = jd_conf_right_col(x, v);

			for (int k = 0; k < 2 && xr >= 0; k++) {
				if (xr + k < w) {
					atomicMax((int *)&claim[xr + k], __float_as_int(v));
				}
			}
		}
	}
	__syncthreads();
	for (int x = threadIdx.x; x < w; x += blockDim.x) {
		float v = d[x];
		unsigned char *o = out + (size_t)y * w + x;

		if (!sup[x] && (!isfinite(v) || !(v > 0.0f))) {
			*o = 0;
			continue;
		}
		int xr = jd_conf_right_col(x, v), near = (int)(v + 0.5f);

		if (xr < 1 || x - near < 0 || claim[xr] > v + 1.0f ||
		    (xr + 1 < w && claim[xr + 1] > v + 1.0f)) {
			*o = 0;
			continue;
		}
		int s = sup[x];
		int agree = JD_CONF_NEIGHBOURS -
			    2 * __popc(cl[(size_t)y * w + x] ^ cr[(size_t)y * w + x - near]);
		agree = agree < 0 ? 0 : agree;
		long long num = 254LL * agree * s * s;

		int c = (int)(1 + num / (JD_CONF_NEIGHBOURS * JD_CONF_NEIGHBOURS *
					 JD_CONF_NEIGHBOURS));
		if (ndisp > 0 && x - min_disp + 1 < ndisp) {
			/* the reach (confidence.h): the largest trusted disparity from x to its end;
			 * a max, so the same whatever the order */
			long long e = (long long)min_disp + 2LL * ndisp;
			int end = e < w ? (int)e : w;
			float reach = 0.0f;
			for (int k = x; k < end; k++) {
				float t = sup[k] >= JD_CONF_TRUSTED ? d[k] : 0.0f;
				reach = t > reach ? t : reach;
			}
			c = jd_conf_cut(c, x, reach, min_disp, ndisp);
		}
		*o = (unsigned char)c;
	}
}
