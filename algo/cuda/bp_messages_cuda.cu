/*
 * Hierarchical BP on the GPU, continued (kernels.cu includes it after bp_cuda.cu, whose
 * helpers it uses): the message update, the twin of bp_messages.c, and the selection, the
 * twin of bp_select.c, then the extern "C" entry points of both files' kernels.
 *
 * Message update: a block is 32 or 64 pixels of one row times the 4 directions; each warp's
 * loads and stores coalesce along x. The staged kernels (the defaults up to 128 disparities)
 * first copy the block's inputs into shared memory; then a thread computes one message
 * (send_one), or S threads share one, a segment of the disparities each (send_seg), or S
 * threads share two, in half2 arithmetic where that is exact (send_pair, the default at 64
 * and 128). The register kernels read through L1 (the four warps read the same lines), one
 * thread a message.
 * The thread's h vector lives in registers for ND <= 128 (compile-time ND, fully unrolled),
 * partly in shared memory at 256, and in shared memory for the generic path (any nd, 8
 * pixels a block). Up to 128 disparities level 0's data costs are made from the images where
 * they are used (bp_cost0) instead of read from a stored volume.
 */
/* cp.async (sm_80 and later: every board's GPU): 16 bytes to shared memory, L1 bypassed. */
static __device__ __forceinline__ void bp_cp16(void *smem, const void *gmem)
{
	unsigned a = (unsigned)__cvta_generic_to_shared(smem);

	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(a), "l"(gmem));
}

/* The data costs of one pixel: read from a stored volume (hp between disparities)... */
template <typename T> struct bp_dvol {
	const T *p;
	int hp;
	__device__ __forceinline__ float operator()(int d) const
	{
		return bp_ld(p + (size_t)d * hp);
	}
};

/*
 * ... or made from the images (level 0: pixel x, its left value l, its row of the right
 * image). The parameters by value: a pointer to the kernel's argument would copy it to the
 * stack.
 */
template <typename T> struct bp_dimg {
	struct jd_bp_cost0 c0;
	const float *rrow;
	float l;
	int x;
	__device__ __forceinline__ float operator()(int d) const
	{
		return bp_cost0<T>(c0, l, rrow, x, d);
	}
};

/*
 * One outgoing message of one pixel: h = D + the three other incoming (in the order up,
 * down, left, right), forward pass, backward pass with the cap, the minimum subtracted
 * (every value on the 1/16 grid of bp.h, so exact whatever the order). D(d) gives the data
 * cost (bp_dvol or bp_dimg); between disparities the incoming messages step mhp (the parent
 * level's at t = 0, or a shared-memory tile's) and the outgoing hp. h[d] sits in registers
 * for d < NREG, in shared memory (stride sst) above.
 * ND = 0: nd is a run-time value (the generic path, NREG must be 0).
 */
template <typename T, int ND, int NREG, typename DS>
static __device__ __forceinline__ void send_one(DS D, const T *A, const T *B, const T *C, int mhp,
						int hp, int nd_rt, float disc_k, T *dst, float *sh,
						int sst)
{
	const int nd = ND ? ND : nd_rt;
	float r[NREG > 0 ? NREG : 1];
	float prev = 0.0f, lo = BP_INF, cap;

#define HREF(d) (*((d) < NREG ? &r[(d) < NREG ? (d) : 0] : &sh[((d)-NREG) * sst]))
#pragma unroll
	for (int d = 0; d < nd; d++) {
		size_t m = (size_t)d * mhp;
		float v = ((D(d) + bp_ld(A + m)) + bp_ld(B + m)) + bp_ld(C + m);

		prev = bp_min(v, d > 0 ? prev + 1.0f : BP_INF);
		lo = bp_min(lo, prev);
		HREF(d) = prev;
	}
	cap = lo + disc_k;
	prev = bp_min(HREF(nd - 1), cap);
	HREF(nd - 1) = prev;
	/*
	 * min(min(h, prev + 1), cap) as min(min(h, cap), prev + 1): min is exact, so the same
	 * value, and the cap leaves the chain that runs from one disparity to the next.
	 */
#pragma unroll
	for (int d = nd - 2; d >= 0; d--) {
		prev = bp_min(bp_min(HREF(d), cap), prev + 1.0f);
		HREF(d) = prev;
	}
#pragma unroll
	for (int d = 0; d < nd; d++) {
		bp_st(dst + (size_t)d * hp, HREF(d) - lo);
	}
#undef HREF
}

/*
 * One outgoing message split over S threads: segment j holds the disparities j L .. j L + L - 1
 * (L = ND / S; D, A, B, C and dst already point at its first). Each thread runs both passes
 * over its segment, and the passes carry across segments through ex in shared memory (for
 * each segment and slot: the forward pass's last value, its minimum, the backward pass's first
 * value). The reference's passes are min-plus over |d - k|, and every value is on the 1/16
 * grid of bp.h, so each carried term is exact and the result is send_one's, bit for bit, with
 * chains of L steps instead of ND. Every thread of the block calls it (two barriers); those
 * with nothing to send pass active = false.
 */
template <typename T, int ND, int S, int MST, int NSLOT, typename DS>
static __device__ __forceinline__ void send_seg(DS D, const T *A, const T *B, const T *C, int hp,
						float disc_k, T *dst, float *ex, int j, int slot,
						bool active)
{
	constexpr int L = ND / S;
	float *fend = ex, *fmin = ex + S * NSLOT, *bfirst = ex + 2 * S * NSLOT;
	float r[L], lo = BP_INF;

	if (active) {
#pragma unroll
		for (int q = 0; q < L; q++) {
			const int m = q * MST;
			float v = ((D(q) + bp_ld(A + m)) + bp_ld(B + m)) + bp_ld(C + m);

			r[q] = q ? bp_min(v, r[q - 1] + 1.0f) : v;
			lo = bp_min(lo, r[q]);
		}
		fend[j * NSLOT + slot] = r[L - 1];
		fmin[j * NSLOT + slot] = lo;
	}
	__syncthreads();
	if (active) {
		/* the forward pass's value just before this segment: L (j - jj - 1) steps on */
		float carry = BP_INF;

#pragma unroll
		for (int jj = 0; jj < S; jj++) {
			lo = bp_min(lo, fmin[jj * NSLOT + slot]);
			if (jj < j) {
				carry = bp_min(carry,
					       fend[jj * NSLOT + slot] + (float)(L * (j - jj - 1)));
			}
		}
		const float cap = lo + disc_k;

		r[L - 1] = bp_min(bp_min(r[L - 1], carry + (float)L), cap);
#pragma unroll
		for (int q = L - 2; q >= 0; q--) {
			r[q] = bp_min(bp_min(bp_min(r[q], carry + (float)(q + 1)), cap),
				      r[q + 1] + 1.0f);
		}
		bfirst[j * NSLOT + slot] = r[0];
	}
	__syncthreads();
	if (active) {
		/* the backward pass's value just after this segment */
		float carry = BP_INF;

#pragma unroll
		for (int jj = 0; jj < S; jj++) {
			if (jj > j) {
				carry = bp_min(carry, bfirst[jj * NSLOT + slot] +
							  (float)(L * (jj - j - 1)));
			}
		}
#pragma unroll
		for (int q = 0; q < L; q++) {
			bp_st(dst, bp_min(r[q], carry + (float)(L - q)) - lo);
			dst += hp; /* a running pointer: see send_pair */
		}
	}
}

/* Half arithmetic for send_pair: a stored value as half (exact on the grid below 128)... */
static __device__ __forceinline__ __half bp_ldh(const __half *p)
{
	return *p;
}
static __device__ __forceinline__ __half bp_ldh(const float *p)
{
	return __float2half_rn(*p);
}

/* ... the integer n in both halves (a compile-time constant: its fp16 bit pattern)... */
static __device__ __forceinline__ constexpr unsigned bp_h1bits(int n)
{
	int e = 0;

	while ((2 << e) <= n) {
		e++;
	}
	return n == 0 ? 0u : (unsigned)((e + 15) << 10 | ((n << (10 - e)) & 0x3ff));
}

static __device__ __forceinline__ __half2 bp_h2k(int n)
{
	const unsigned b = bp_h1bits(n);

	return __halves2half2(__ushort_as_half((unsigned short)b),
			      __ushort_as_half((unsigned short)b));
}

/* ... and a stored half2 pair of messages back, half by half. */
static __device__ __forceinline__ void bp_sth(__half *p, __half v)
{
	*p = v;
}
static __device__ __forceinline__ void bp_sth(float *p, __half v)
{
	*p = __half2float(v);
}

/*
 * Two outgoing messages of one pixel at once, in half2 arithmetic (the low half one
 * direction, the high half the other): h = D + c1 + c2 + the pair's own incoming (lo_in for
 * the low half's message, hi_in for the high half's), then send_seg's passes, segments and
 * carries. Exact where the host allows it: every value on the 1/16 grid and h below 128
 * (bp_cuda.c's half_exact()), where half holds every multiple of 1/16; a carried candidate
 * that rounds lies at 128 or above and never wins a minimum. So the result is send_one's,
 * bit for bit, with half the instructions.
 */
template <typename T, int ND, int S, int MST, int NSLOT>
static __device__ __forceinline__ void send_pair(const T *D, const T *c1, const T *c2,
						 const T *lo_in, const T *hi_in, int hp,
						 float disc_k, T *dst_lo, T *dst_hi, __half2 *ex,
						 int j, int slot, bool act_lo, bool act_hi)
{
	constexpr int L = ND / S;
	const bool active = act_lo || act_hi;
	__half2 *fend = ex, *fmin = ex + S * NSLOT, *bfirst = ex + 2 * S * NSLOT;
	const __half2 one = bp_h2k(1), inf = __half2half2(__ushort_as_half(0x7c00));
	__half2 r[L], lo = inf;

	if (active) {
#pragma unroll
		for (int q = 0; q < L; q++) {
			const int m = q * MST;
			__half sum = __hadd(__hadd(bp_ldh(D + m), bp_ldh(c1 + m)), bp_ldh(c2 + m));
			__half2 v = __hadd2(__halves2half2(bp_ldh(lo_in + m), bp_ldh(hi_in + m)),
					    __half2half2(sum));

			r[q] = q ? __hmin2(v, __hadd2(r[q - 1], one)) : v;
			lo = __hmin2(lo, r[q]);
		}
		fend[j * NSLOT + slot] = r[L - 1];
		fmin[j * NSLOT + slot] = lo;
	}
	__syncthreads();
	if (active) {
		__half2 carry = inf;

#pragma unroll
		for (int jj = 0; jj < S; jj++) {
			lo = __hmin2(lo, fmin[jj * NSLOT + slot]);
			if (jj < j) {
				carry = __hmin2(
				    carry, __hadd2(fend[jj * NSLOT + slot],
						   __float2half2_rn((float)(L * (j - jj - 1)))));
			}
		}
		const __half2 cap = __hadd2(lo, __float2half2_rn(disc_k));

		r[L - 1] = __hmin2(__hmin2(r[L - 1], __hadd2(carry, bp_h2k(L))), cap);
#pragma unroll
		for (int q = L - 2; q >= 0; q--) {
			r[q] = __hmin2(__hmin2(__hmin2(r[q], __hadd2(carry, bp_h2k(q + 1))), cap),
				       __hadd2(r[q + 1], one));
		}
		bfirst[j * NSLOT + slot] = r[0];
	}
	__syncthreads();
	if (active) {
		__half2 carry = inf;

#pragma unroll
		for (int jj = 0; jj < S; jj++) {
			if (jj > j) {
				carry = __hmin2(
				    carry, __hadd2(bfirst[jj * NSLOT + slot],
						   __float2half2_rn((float)(L * (jj - j - 1)))));
			}
		}
		/* running pointers: an index times the run-time pitch cost a wide multiply a store
		 */
		T *pl = dst_lo, *ph = dst_hi;

#pragma unroll
		for (int q = 0; q < L; q++) {
			__half2 v = __hsub2(__hmin2(r[q], __hadd2(carry, bp_h2k(L - q))), lo);

			if (act_lo) {
				bp_sth(pl, __low2half(v));
			}
			if (act_hi) {
				bp_sth(ph, __high2half(v));
			}
			pl += hp;
			ph += hp;
		}
	}
}

/*
 * The selection's rule: argmin over d of sum(d) (the data cost and the four incoming, in the
 * order data, up, down, left, right), ties to the smaller d.
 */
template <typename F> static __device__ __forceinline__ int bp_argmin(int nd, F sum)
{
	float best = BP_INF;
	int bestd = 0;

#pragma unroll 8
	for (int d = 0; d < nd; d++) {
		float v = sum(d);

		if (v < best) {
			best = v;
			bestd = d;
		}
	}
	return bestd;
}

/* The map's value for winner bestd: with subpixel, refined from its neighbours' beliefs. */
template <typename F>
static __device__ __forceinline__ float bp_refined(int subpixel, int min_disp, int nd, int bestd,
						   F belief)
{
	float off = 0.0f;

	if (subpixel && bestd > 0 && bestd < nd - 1) {
		off = jd_subpixel_equiangular(belief(bestd - 1), belief(bestd), belief(bestd + 1));
	}
	return (float)(min_disp + bestd) + off;
}

/*
 * Where pixel (y, slot i) of the other colour's neighbour k keeps the message this pixel
 * sends it: the message sent up lands in the upper pixel's from-down array, and so on.
 */
static __device__ __forceinline__ size_t bp_to(int k, int y, int other, int nd, int hp, int i,
					       int par)
{
	switch (k) {
	case BP_UP:
		return bp_row(y - 1, other, nd, hp) + i;
	case BP_DOWN:
		return bp_row(y + 1, other, nd, hp) + i;
	case BP_LEFT:
		return bp_row(y, other, nd, hp) + i + par - 1;
	default:
		return bp_row(y, other, nd, hp) + i + par;
	}
}

/*
 * Iteration t: pixels of colour t & 1 send. block (PX pixels, 4 directions), grid
 * (slots / PX, h). Shared memory: (nd - NREG) floats per thread.
 *
 * p0..p3: the parent level's messages, or NULL. With them, iteration 0 reads its incoming
 * messages straight from the parent (child slot i of row y: parent row y / 2, colour
 * (i + y / 2) & 1, slot i / 2) instead of a copy made first: the reference copies them into
 * the child and reads them only in iteration 0 (iteration 1 overwrites every one that comes
 * from inside the image; those from outside are 0 at every level, zeroed once at boot and
 * never written). The host keeps the copy for iters = 1, where the selection reads them.
 */
template <typename T, int ND, int NREG, bool IMG>
static __device__ void iterate(const T *data, T *m0, T *m1, T *m2, T *m3, const T *p0, const T *p1,
			       const T *p2, const T *p3, int w, int h, int hp, int php, int nd_rt,
			       int t, float disc_k, const struct jd_bp_cost0 &c0)
{
	extern __shared__ float bp_sh[];
	const int nd = ND ? ND : nd_rt;
	int i = blockIdx.x * blockDim.x + threadIdx.x, k = threadIdx.y, y = blockIdx.y;
	int c = t & 1, other = c ^ 1, par = (y + c) & 1;
	int tid = threadIdx.y * blockDim.x + threadIdx.x;
	size_t own, to, in;
	const T *i0 = m0, *i1 = m1, *i2 = m2, *i3 = m3;
	int mhp = hp;

	if (i >= bp_count(w, y, c) || (k == BP_UP && y == 0) || (k == BP_DOWN && y == h - 1)) {
		return;
	}
	own = bp_row(y, c, nd, hp) + i;
	in = own;
	if (t == 0 && p0) {
		int py = y >> 1;

		i0 = p0;
		i1 = p1;
		i2 = p2;
		i3 = p3;
		mhp = php;
		in = bp_row(py, (i + py) & 1, nd, php) + (i >> 1);
	}
	to = bp_to(k, y, other, nd, hp, i, par);
	/*
	 * The three incoming other than the one from neighbour k, in the order up, down, left,
	 * right; selects rather than an indexed array, which would live in local memory.
	 */
	const T *a = (k == BP_UP ? i1 : i0) + in;
	const T *b = (k <= BP_DOWN ? i2 : i1) + in;
	const T *cc = (k == BP_RIGHT ? i2 : i3) + in;
	T *dst = (k == BP_UP ? m1 : k == BP_DOWN ? m0 : k == BP_LEFT ? m3 : m2) + to;

	/* A compile-time shared stride keeps every h[d] address an immediate offset. */
	int sst = ND ? 128 : blockDim.x * blockDim.y;

	if (!IMG) {
		send_one<T, ND, NREG>(bp_dvol<T>{data + own, hp}, a, b, cc, mhp, hp, nd, disc_k,
				      dst, bp_sh + tid, sst);
	} else { /* level 0: the data costs made here */
		int x = 2 * i + par;

		send_one<T, ND, NREG>(bp_dimg<T>{c0, bp_right_row(c0, y), bp_left_row(c0, y)[x], x},
				      a, b, cc, mhp, hp, nd, disc_k, dst, bp_sh + tid, sst);
	}
}

/*
 * The staged message update: a block (PX pixels of one row x 4 directions) first copies its
 * pixels' data and four incoming vectors into shared memory with cp.async (16 bytes a copy,
 * L1 bypassed: about 50 KB in flight a block at nd 128 in fp16), then each thread computes
 * its message from there with h in registers. The register kernel's loads waited behind the
 * register-bound compute of 12 warps an SM (H100, 900x750/128 fp16: a level-0 iteration 723 us,
 * DRAM 34 %, half the stalls on L1TEX scoreboard); here a block's copies run
 * while the SM's other blocks compute.
 *
 * A tile row (one disparity) holds bp_tile::w elements. Own-level rows start at slot i0 - 1
 * (the 16-byte boundary before slot i0: rows start at a multiple of 16 elements and slot s
 * sits at element s + 1), so pixel x of the tile reads element x + 1. At t = 0 with the
 * parent's messages, the row holds the parent's two colours (slots i0 / 2 - 1 ...,
 * bp_tile::parent elements each) and pixel x reads colour (x + py) & 1, element x / 2 + 1.
 * Chunks past a row's hp slots are not copied (nothing reads them).
 */
template <typename T, int PX> struct bp_tile {
	static constexpr int per = 16 / (int)sizeof(T);		   /* elements a copy */
	static constexpr int own = (PX + 1 + per - 1) / per * per; /* i0 - 1 .. i0 + PX - 1 */
	static constexpr int parent = (PX / 2 + 1 + per - 1) / per * per; /* from i0 / 2 - 1 */
	static constexpr int w = own > 2 * parent ? own : 2 * parent;
};

/* ND rows of LEN elements from src (row r at src + r * hp, from element e0) to dst + r * W. */
template <typename T, int ND, int LEN, int W, int NT>
static __device__ __forceinline__ void bp_stage(T *dst, const T *src, int hp, int e0, int tid)
{
	constexpr int per = 16 / (int)sizeof(T), chunks = LEN / per;

	for (int j = tid; j < ND * chunks; j += NT) {
		int r = j / chunks, e = e0 + (j % chunks) * per;

		if (e < hp) {
			bp_cp16(dst + r * W + (e - e0), src + (size_t)r * hp + e);
		}
	}
}

/*
 * Iteration t (pixels of colour t & 1 send); block (PX, 4, S), 1-D grid: the level's tiles.
 * S = 1: a thread a message (send_one); S > 1: S threads a message (send_seg). H2: block
 * (PX, 2, S), S threads a pair of messages (send_pair: up and down, left and right).
 */
template <typename T, int ND, int PX, int S, bool H2>
static __device__ void iterate_staged(const T *data, T *m0, T *m1, T *m2, T *m3, const T *p0,
				      const T *p1, const T *p2, const T *p3, int w, int h, int hp,
				      int php, int t, float disc_k, const struct jd_bp_cost0 &c0,
				      float *sel)
{
	extern __shared__ float4 bp_stage_sh[];
	typedef bp_tile<T, PX> TL;
	constexpr int NK = H2 ? 2 : 4, NT = NK * PX * S;
	/* [4 incoming + data][ND][TL::w], level 0's row segments, send_seg's carries */
	T *tile = (T *)bp_stage_sh;
	const T *in[4] = {m0, m1, m2, m3};
	const T *pin[4] = {p0, p1, p2, p3};
	int x = threadIdx.x, k = threadIdx.y, sg = threadIdx.z, tid = (sg * NK + k) * PX + x;
	int c = t & 1, other = c ^ 1, parent = t == 0 && p0;
	int ux = ((w + 1) / 2 + PX - 1) / PX, y = blockIdx.x / ux, py = y >> 1;
	int i0 = (blockIdx.x - y * ux) * PX, i = i0 + x, par = (y + c) & 1;
	size_t plane0 = (size_t)(2 * y + c) * ND * hp;

#pragma unroll
	for (int q = 0; q < 4; q++) {
		if (parent) {
			for (int pc = 0; pc < 2; pc++) {
				bp_stage<T, ND, TL::parent, TL::w, NT>(
				    tile + q * ND * TL::w + pc * TL::parent,
				    pin[q] + (size_t)(2 * py + pc) * ND * php, php, i0 / 2, tid);
			}
		} else {
			bp_stage<T, ND, TL::own, TL::w, NT>(tile + q * ND * TL::w, in[q] + plane0,
							    hp, i0, tid);
		}
	}
	if (data) {
		bp_stage<T, ND, TL::own, TL::w, NT>(tile + 4 * ND * TL::w, data + plane0, hp, i0,
						    tid);
	} else {
		/*
		 * Level 0, while the copies fly: the tile's data costs from the images' row
		 * segments (left: its 2 PX pixels; right: from 2 i0 - min_disp - (ND - 1)).
		 */
		float *ls = (float *)(tile + 5 * ND * TL::w), *rs = ls + 2 * PX;
		const float *lrow = bp_left_row(c0, y), *rrow = bp_right_row(c0, y);
		int rs0 = 2 * i0 - c0.min_disp - (ND - 1), n = bp_count(w, y, c) - i0;

		for (int j = tid; j < 4 * PX + ND; j += NT) {
			int xl = 2 * i0 + j, xr = rs0 + j - 2 * PX;

			if (j < 2 * PX) {
				ls[j] = xl < w ? lrow[xl] : 0.0f;
			} else {
				rs[j - 2 * PX] = xr >= 0 && xr < w ? rrow[xr] : 0.0f;
			}
		}
		__syncthreads();
		/*
		 * Thread tid makes pixel tid % PX's costs at disparities tid / PX + DS m: its
		 * left value once, every address an immediate offset.
		 */
		constexpr int DS = NT / PX;
		static_assert(NT % PX == 0 && ND % DS == 0, "a whole number of rows a thread");
		const int xi = tid % PX, xx = 2 * xi + par, d0 = tid / PX;
		const int xr0 = 2 * i0 + xx - c0.min_disp - d0; /* the right pixel of d0 */
		const float l = ls[xx];
		const float *r0 = rs + (xr0 - rs0);
		T *o = tile + (4 * ND + d0) * TL::w + xi + 1;

		if (xi < n) {
#pragma unroll
			for (int m = 0; m < ND / DS; m++) {
				const bool in = xr0 - DS * m >= 0;

				bp_st(o + DS * m * TL::w,
				      bp_cost<T>(c0, l, in ? r0[-DS * m] : 0.0f, in));
			}
		}
	}
	asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
	__syncthreads();
	const bool inrow = i < bp_count(w, y, c);
	int at = parent ? ((i + py) & 1) * TL::parent + (x >> 1) + 1 : x + 1;
	const T *dv = tile + 4 * ND * TL::w + x + 1;
	auto msgs = [&](int q) { return tile + q * ND * TL::w + at; };

	if constexpr (H2) {
		/* k = 0: up (low half) and down; k = 1: left (low half) and right */
		constexpr int L = ND / S, o = L * TL::w;
		const bool act_lo = inrow && (k == 1 || y > 0),
			   act_hi = inrow && (k == 1 || y < h - 1);
		T *dlo = k == 0 ? m1 + (act_lo ? bp_to(BP_UP, y, other, ND, hp, i, par) : 0)
				: m3 + (act_lo ? bp_to(BP_LEFT, y, other, ND, hp, i, par) : 0);
		T *dhi = k == 0 ? m0 + (act_hi ? bp_to(BP_DOWN, y, other, ND, hp, i, par) : 0)
				: m2 + (act_hi ? bp_to(BP_RIGHT, y, other, ND, hp, i, par) : 0);
		__half2 *ex = (__half2 *)((float *)(tile + 5 * ND * TL::w) + 4 * PX + ND);

		send_pair<T, ND, S, TL::w, 2 * PX>(
		    dv + sg * o, msgs(k == 0 ? 2 : 0) + sg * o, msgs(k == 0 ? 3 : 1) + sg * o,
		    msgs(k == 0 ? 1 : 3) + sg * o, msgs(k == 0 ? 0 : 2) + sg * o, hp, disc_k,
		    dlo + (size_t)sg * L * hp, dhi + (size_t)sg * L * hp, ex, sg, k * PX + x,
		    act_lo, act_hi);
	} else {
		const bool active =
		    inrow && !(k == BP_UP && y == 0) && !(k == BP_DOWN && y == h - 1);
		const T *a = msgs(k == BP_UP ? 1 : 0);
		const T *b = msgs(k <= BP_DOWN ? 2 : 1);
		const T *cc = msgs(k == BP_RIGHT ? 2 : 3);
		T *dst = (k == BP_UP	 ? m1
			  : k == BP_DOWN ? m0
			  : k == BP_LEFT ? m3
					 : m2) +
			 (active ? bp_to(k, y, other, ND, hp, i, par) : 0);

		if constexpr (S == 1) {
			if (!active) {
				return;
			}
			send_one<T, ND, ND>(bp_dvol<T>{dv, TL::w}, a, b, cc, TL::w, hp, ND, disc_k,
					    dst, NULL, 0);
		} else {
			constexpr int L = ND / S, o = L * TL::w;
			float *ex = (float *)(tile + 5 * ND * TL::w) + 4 * PX + ND;

			send_seg<T, ND, S, TL::w, 4 * PX>(
			    bp_dvol<T>{dv + sg * o, TL::w}, a + sg * o, b + sg * o, cc + sg * o, hp,
			    disc_k, dst + (size_t)sg * L * hp, ex, sg, k * PX + x, active);
		}
	}
	if (sel && inrow && k == (H2 ? 1 : BP_LEFT) && sg == 0) {
		/*
		 * The last iteration: the senders' incoming messages are final and in shared
		 * memory, so the selection for them is made here (bp_argmin, the same sum in the
		 * same order as select_wta); it runs for the other colour only.
		 */
		const T *o = tile + x + 1;
		auto belief = [&](int d) {
			const T *e = o + d * TL::w;
			return bp_ld(e + 4 * ND * TL::w) + bp_ld(e) + bp_ld(e + ND * TL::w) +
			       bp_ld(e + 2 * ND * TL::w) + bp_ld(e + 3 * ND * TL::w);
		};
		int bestd = bp_argmin(ND, belief);

		sel[(size_t)y * w + 2 * i + par] =
		    bp_refined(c0.subpixel, c0.min_disp, ND, bestd, belief);
	}
}

/*
 * argmin over d of D + up + down + left + right, ties to the smaller d; data NULL: the
 * level-0 costs made from the images. only < 0: grid (slots, 2h), both colours; else grid
 * (slots, h), colour only (the staged kernel's last iteration selected the other).
 */
template <typename T>
static __device__ void select_wta(const T *data, const T *m0, const T *m1, const T *m2, const T *m3,
				  int w, int hp, int nd, int min_disp, float *out,
				  const struct jd_bp_cost0 &c0, int only)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int y = only < 0 ? blockIdx.y >> 1 : blockIdx.y, c = only < 0 ? blockIdx.y & 1 : only;
	int par = (y + c) & 1;

	if (i >= bp_count(w, y, c)) {
		return;
	}
	size_t own = bp_row(y, c, nd, hp) + i;
	int x = 2 * i + par;
	const float *rrow = bp_right_row(c0, y);
	float l = data ? 0.0f : bp_left_row(c0, y)[x];
	auto belief = [&](int d) {
		size_t o = own + (size_t)d * hp;
		return (data ? bp_ld(data + o) : bp_cost0<T>(c0, l, rrow, x, d)) + bp_ld(m0 + o) +
		       bp_ld(m1 + o) + bp_ld(m2 + o) + bp_ld(m3 + o);
	};
	int bestd = bp_argmin(nd, belief);

	out[(size_t)y * w + x] = bp_refined(c0.subpixel, min_disp, nd, bestd, belief);
}

/* extern "C" entry points: one per storage type (f32, f16: fp16 crosses as uint16_t). */
#define BP_STORAGE(S, T)                                                                           \
	extern "C" __global__ void jd_bp_data0_##S(struct jd_bp_cost0 c0, int nd, int hp,          \
						   void *data)                                     \
	{                                                                                          \
		data0<T>(c0, nd, hp, (T *)data);                                                   \
	}                                                                                          \
	extern "C" __global__ void jd_bp_coarse_##S(const void *fine, int fw, int fh, int fhp,     \
						    void *out, int cw, int chp, int nd,            \
						    struct jd_bp_cost0 c0)                         \
	{                                                                                          \
		coarse<T>((const T *)fine, fw, fh, fhp, (T *)out, cw, chp, nd, c0);                \
	}                                                                                          \
	extern "C" __global__ void jd_bp_select_##S(                                               \
	    const void *data, const void *m0, const void *m1, const void *m2, const void *m3,      \
	    int w, int hp, int nd, int min_disp, float *out, struct jd_bp_cost0 c0, int only)      \
	{                                                                                          \
		select_wta<T>((const T *)data, (const T *)m0, (const T *)m1, (const T *)m2,        \
			      (const T *)m3, w, hp, nd, min_disp, out, c0, only);                  \
	}

BP_STORAGE(f32, float)
BP_STORAGE(f16, __half)

#define BP_COPY(S, E)                                                                              \
	extern "C" __global__ void jd_bp_copy_msgs_##S(                                            \
	    const void *parent, int php, unsigned long long pstep, void *child, int w, int hp,     \
	    unsigned long long cstep, int nd)                                                      \
	{                                                                                          \
		copy_msgs<E>((const uint8_t *)parent, php, pstep, (uint8_t *)child, w, hp, cstep,  \
			     nd);                                                                  \
	}

BP_COPY(f32, uint32_t)
BP_COPY(f16, uint16_t)

/*
 * Message kernels: jd_bp_iter_<storage>_<nd>_s<px>_b<blocks> (staged, below),
 * jd_bp_iter_<storage>_<nd>_r<registers>_b<blocks> (compile-time nd, the first <registers>
 * values of h in registers, the rest in shared memory, registers capped so that <blocks>
 * blocks of 128 threads fit an SM) and jd_bp_iter_<storage>_any (any nd, h in shared
 * memory); an _img twin of a register kernel makes level 0's data costs from the images.
 * They are the candidates the host chooses from (hal/cuda/bp_cuda.c).
 */
#define BP_ITER_PARAMS                                                                             \
	const void *data, void *m0, void *m1, void *m2, void *m3, const void *p0, const void *p1,  \
	    const void *p2, const void *p3, int w, int h, int hp, int php, int nd, int t,          \
	    float disc_k, struct jd_bp_cost0 c0, float *sel
#define BP_ITER_ARGS(T)                                                                            \
	(const T *)data, (T *)m0, (T *)m1, (T *)m2, (T *)m3, (const T *)p0, (const T *)p1,         \
	    (const T *)p2, (const T *)p3, w, h, hp, php, nd, t, disc_k, c0

#define BP_ITER(S, T, ND, NREG, MINB)                                                              \
	extern "C" __global__ void __launch_bounds__(128, MINB)                                    \
	    jd_bp_iter_##S##_##ND##_r##NREG##_b##MINB(BP_ITER_PARAMS)                              \
	{                                                                                          \
		iterate<T, ND, NREG, false>(BP_ITER_ARGS(T));                                      \
	}

/* ... and its level-0 twin, _img, making the data costs from the images (nd <= 128). */
#define BP_ITER_IMG(S, T, ND, NREG, MINB)                                                          \
	BP_ITER(S, T, ND, NREG, MINB)                                                              \
	extern "C" __global__ void __launch_bounds__(128, MINB)                                    \
	    jd_bp_iter_##S##_##ND##_r##NREG##_b##MINB##_img(BP_ITER_PARAMS)                        \
	{                                                                                          \
		iterate<T, ND, NREG, true>(BP_ITER_ARGS(T));                                       \
	}

/*
 * jd_bp_iter_<storage>_<nd>_s<px>_b<blocks>: the staged kernel, h in registers, a block a
 * tile of px pixels, registers capped for <blocks> blocks an SM.
 */
#define BP_STAGED_SEG(S, T, ND, PX, SEG, H2, NAME, MINB)                                           \
	extern "C" __global__ void __launch_bounds__((H2 ? 2 : 4) * PX * SEG, MINB)                \
	    jd_bp_iter_##S##_##ND##_s##PX##NAME##_b##MINB(BP_ITER_PARAMS)                          \
	{                                                                                          \
		iterate_staged<T, ND, PX, SEG, H2>((const T *)data, (T *)m0, (T *)m1, (T *)m2,     \
						   (T *)m3, (const T *)p0, (const T *)p1,          \
						   (const T *)p2, (const T *)p3, w, h, hp, php, t, \
						   disc_k, c0, sel);                               \
	}
#define BP_STAGED(S, T, ND, PX, MINB) BP_STAGED_SEG(S, T, ND, PX, 1, false, , MINB)

#define BP_ITER_ALL(S, T)                                                                          \
	BP_STAGED(S, T, 16, 32, 8)                                                                 \
	BP_STAGED(S, T, 32, 32, 6)                                                                 \
	BP_STAGED(S, T, 64, 32, 4)                                                                 \
	BP_STAGED(S, T, 128, 32, 3)                                                                \
	BP_STAGED_SEG(S, T, 128, 32, 4, false, _g4, 2)                                             \
	BP_STAGED_SEG(S, T, 128, 32, 2, false, _g2, 3)                                             \
	BP_STAGED_SEG(S, T, 128, 32, 4, true, _h4, 3)                                              \
	BP_STAGED_SEG(S, T, 128, 32, 8, true, _h8, 2)                                              \
	BP_STAGED_SEG(S, T, 128, 64, 4, true, _h4, 2)                                              \
	BP_STAGED_SEG(S, T, 128, 64, 4, false, _g4, 1)                                             \
	BP_STAGED_SEG(S, T, 64, 32, 2, false, _g2, 4)                                              \
	BP_STAGED_SEG(S, T, 64, 32, 2, true, _h2, 4)                                               \
	BP_STAGED_SEG(S, T, 64, 32, 4, true, _h4, 4)                                               \
	BP_ITER_IMG(S, T, 16, 16, 4)                                                               \
	BP_ITER_IMG(S, T, 16, 16, 8)                                                               \
	BP_ITER_IMG(S, T, 32, 32, 4)                                                               \
	BP_ITER_IMG(S, T, 32, 32, 6)                                                               \
	BP_ITER_IMG(S, T, 64, 64, 2)                                                               \
	BP_ITER_IMG(S, T, 64, 64, 4)                                                               \
	BP_ITER_IMG(S, T, 128, 128, 1)                                                             \
	BP_ITER_IMG(S, T, 128, 96, 3)                                                              \
	BP_ITER(S, T, 256, 96, 1)                                                                  \
	extern "C" __global__ void jd_bp_iter_##S##_any(BP_ITER_PARAMS)                            \
	{                                                                                          \
		iterate<T, 0, 0, false>(BP_ITER_ARGS(T));                                          \
	}                                                                                          \
	extern "C" __global__ void jd_bp_iter_##S##_any_img(BP_ITER_PARAMS)                        \
	{                                                                                          \
		iterate<T, 0, 0, true>(BP_ITER_ARGS(T));                                           \
	}

BP_ITER_ALL(f32, float)
BP_ITER_ALL(f16, __half)
