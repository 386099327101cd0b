/*
 * The confidence map on the GPU, the twin of algo/match/confidence.c: the same 5x5 census of both
 * rectified images, the same support count, right-image claims and formula, so the bytes are
 * jd_confidence_ref()'s. The claims are a max per column, so a block per row takes them with
 * atomicMax on the float bits (every claiming disparity is positive and finite, where the
 * bits order as the values do): the order of the threads does not change the result.
 */
#define JD_CONF_R 2
#define JD_CONF_NEIGHBOURS 24
#define JD_CONF_TRUSTED 12   /* TRUSTED_SUPPORT of confidence.c */
#define JD_CONF_EDGE_COLS 3  /* of confidence.h */
#define JD_CONF_REACH_ROWS 5 /* of confidence.h */

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

/* The reach's end (jd_confidence_reach_end() of confidence.h); 0 without a search. */
static __device__ __forceinline__ int jd_conf_reach_end(int w, int min_disp, int ndisp)
{
	long long e = (long long)min_disp + 2LL * ndisp;

	return ndisp > 0 ? (e < w ? (int)e : w) : 0;
}

/*
 * The first pass, one block a row; dynamic shared memory: w support counts. Each pixel's
 * support (0 without a disparity) into sup, and the row's reach into reach: the largest
 * trusted disparity in columns x .. end - 1 (a max, so the same whatever the order).
 */
extern "C" __global__ void jd_conf_support_cuda(const float *__restrict__ disp, int w, int h,
						unsigned char *__restrict__ sup_out,
						float *__restrict__ reach, int min_disp, int ndisp)
{
	extern __shared__ unsigned char sup[];
	int y = blockIdx.x;
	const float *d = disp + (size_t)y * w;

	for (int x = threadIdx.x; x < w; x += blockDim.x) {
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
		sup_out[(size_t)y * w + x] = sup[x];
	}
	__syncthreads();
	int end = jd_conf_reach_end(w, min_disp, ndisp);
	for (int x = threadIdx.x; x < end; x += blockDim.x) {
		float best = 0.0f;

		for (int k = x; k < end; k++) {
			float t = sup[k] >= JD_CONF_TRUSTED ? d[k] : 0.0f;
			best = t > best ? t : best;
		}
		reach[(size_t)y * w + x] = best;
	}
}

/*
 * One block a row, after jd_conf_support_cuda(); dynamic shared memory: w floats of claims,
 * then w support counts. The search [min_disp, min_disp + ndisp) the map came from (ndisp 0:
 * none was cut short).
 */
extern "C" __global__ void jd_conf_cuda(const float *__restrict__ disp, int w, int h,
					const unsigned *__restrict__ cl,
					const unsigned *__restrict__ cr,
					const unsigned char *__restrict__ sup_in,
					const float *__restrict__ reach,
					unsigned char *__restrict__ out, int min_disp, int ndisp)
{
	extern __shared__ float claim[];
	unsigned char *sup = (unsigned char *)(claim + w);
	int y = blockIdx.x;
	const float *d = disp + (size_t)y * w;

	for (int x = threadIdx.x; x < w; x += blockDim.x) {
		claim[x] = 0.0f;
		sup[x] = sup_in[(size_t)y * w + x];
	}
	__syncthreads();
	for (int x = threadIdx.x; x < w; x += blockDim.x) {
		float v = d[x];

		if (sup[x] >= JD_CONF_TRUSTED) { /* sup 0 without a disparity */
			int xr = jd_conf_right_col(x, v);

			for (int k = 0; k < 2 && xr >= 0; k++) {
				if (xr + k < w) {
					atomicMax((int *)&claim[xr + k], __float_as_int(v));
				}
			}
		}
	}
	__syncthreads();
	int end = jd_conf_reach_end(w, min_disp, ndisp);
	for (int x = threadIdx.x; x < w; x += blockDim.x) {
		float v = d[x];
		unsigned char *o = out + (size_t)y * w + x;

		if (!sup[x] && (!isfinite(v) || !(v > 0.0f))) {
			*o = 0;
			continue;
		}
		int xr = jd_conf_right_col(x, v), near = (int)(v + 0.5f);

		if (xr < JD_CONF_EDGE_COLS || x - near < 0 || claim[xr] > v + 1.0f ||
		    (xr + 1 < w && claim[xr + 1] > v + 1.0f)) {
			*o = 0;
			continue;
		}
		int s = sup[x];
		int agree = JD_CONF_NEIGHBOURS -
			    2 * __popc(cl[(size_t)y * w + x] ^ cr[(size_t)y * w + x - near]);
		agree = agree < 0 ? 0 : agree;
		long long num = 254LL * agree * s * s;

		int c =
		    (int)(1 + num / (JD_CONF_NEIGHBOURS * JD_CONF_NEIGHBOURS * JD_CONF_NEIGHBOURS));
		if (x < end && x - min_disp + 1 < ndisp) {
			/* the reach of the rows around (confidence.h): a max, whatever the order */
			float most = 0.0f;
			for (int yy = max(y - JD_CONF_REACH_ROWS, 0);
			     yy <= min(y + JD_CONF_REACH_ROWS, h - 1); yy++) {
				float r = reach[(size_t)yy * w + x];
				most = r > most ? r : most;
			}
			c = most > (float)x ? 0 : c; /* jd_confidence_cut() */
		}
		*o = (unsigned char)c;
	}
}
