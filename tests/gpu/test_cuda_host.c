/*
 * The CUDA host plumbing against a stand-in driver (fake_libcuda.c), so CI without a GPU
 * still checks it: every entry point loads, boot-time carving is bounded and sealed, and a
 * whole SAD and SGM frame goes through upload, launches and download without a device
 * allocation. The kernels themselves are tested on a real GPU (test_cuda_sad, test_cuda_sgm).
 */
#include <stdio.h>

#include "cuda_bp.h"
#include "cuda_sad.h"
#include "cuda_sgm.h"
#include "gpu_util.h"

int main(void)
{
	struct jd_cuda cu;
	struct jd_cuda_sad sad;
	struct jd_cuda_sgm sgm;
	struct jd_cuda_bp bp;
	struct jd_match_params pb;
	struct jd_match_params p;
	struct jd_image l, r;
	jd_cudeviceptr d;
	int w = 64, h = 32;
	struct jd_disp out = {malloc(sizeof(float) * w * h), w, h, w};

	if (!jd_cuda_built()) {
		JD_SKIP("this build has no CUDA kernels (no nvcc at build time)");
	}
	JD_CHECK(setenv("JD_CUDA_LIB", FAKE_LIBCUDA, 1) == 0, "setenv");
	jd_params_default(&p, JD_ALGO_SGM, 16);
	jd_params_default(&pb, JD_ALGO_BP, 16);
	pb.bp.fp16 = 1;
	JD_CHECK(jd_cuda_init(&cu,
			      jd_cuda_sgm_device_bytes(&p, w, h) + jd_cuda_sad_device_bytes(&p, w, h) +
				  jd_cuda_bp_device_bytes(&pb, w, h),
			      jd_cuda_sgm_pinned_bytes(w, h) + jd_cuda_sad_pinned_bytes(w, h) +
				  jd_cuda_bp_pinned_bytes(&pb, w, h),
			      JD_GPU_MEMORY_AUTO) == 0 &&
		     !cu.mapped,
		 "init with the stand-in driver: %s", cu.err);
	/* Every entry point of the table is there. */
	void *const *fn = (void *const *)&cu.api;
	for (size_t i = 0; i < sizeof(cu.api) / sizeof(void *); i++) {
		JD_CHECK(fn[i] != NULL, "driver entry %zu not loaded", i);
	}
	JD_CHECK(cu.mem_allocs == 2, "one device and one pinned allocation at boot, not %lu",
		 cu.mem_allocs);
	JD_CHECK(jd_cuda_sgm_init(&sgm, &cu, &p, w, h) == 0, "sgm init: %s", cu.err);
	jd_params_default(&p, JD_ALGO_SAD, 16);
	JD_CHECK(jd_cuda_sad_init(&sad, &cu, &p, w, h) == 0, "sad init: %s", cu.err);
	JD_CHECK(jd_cuda_bp_init(&bp, &cu, &pb, w, h, NULL) == 0, "bp init: %s", cu.err);
	JD_CHECK(jd_cuda_take(&cu, 1 << 30, &d) == -ENOMEM && strstr(cu.err, "more bytes"),
		 "over the booked size: %s", cu.err);
	jd_cuda_seal(&cu);
	JD_CHECK(jd_cuda_take(&cu, 16, &d) == -EPERM && strstr(cu.err, "after boot"),
		 "after the seal: %s", cu.err);
	gpu_textured_pair(w, h, 7, &l, &r);
	gpu_count_allocations(&cu);
	JD_CHECK(jd_cuda_sad_run(&sad, &p, &l, &r, &out) == 0, "sad frame: %s", cu.err);
	jd_params_default(&p, JD_ALGO_SGM, 16);
	JD_CHECK(jd_cuda_sgm_run(&sgm, &p, &l, &r, &out) == 0, "sgm frame: %s", cu.err);
	p.sgm.paths = 4;
	p.sgm.cost = JD_SGM_COST_AD;
	JD_CHECK(jd_cuda_sgm_run(&sgm, &p, &l, &r, &out) == 0, "sgm 4-path AD frame: %s",
		 cu.err);
	JD_CHECK(jd_cuda_bp_run(&bp, &pb, &l, &r, &out) == 0, "bp frame: %s", cu.err);
	/* The pipeline: two frames in flight, a third refused, collected oldest first. */
	JD_CHECK(jd_cuda_bp_submit(&bp, &pb, &l, &r) == 0, "first in flight: %s", cu.err);
	int first = bp.frame.cur;
	JD_CHECK(jd_cuda_bp_submit(&bp, &pb, &l, &r) == 0, "second in flight: %s", cu.err);
	JD_CHECK(bp.frame.cur == !first, "second frame in slot %d, not %d", !first, bp.frame.cur);
	JD_CHECK(jd_cuda_bp_submit(&bp, &pb, &l, &r) == -EBUSY && strstr(cu.err, "in flight"),
		 "a third refused: %s", cu.err);
	JD_CHECK(jd_cuda_bp_collect(&bp, &out) == 0 && bp.frame.oldest == !first,
		 "collect the first");
	JD_CHECK(jd_cuda_bp_submit(&bp, &pb, &l, &r) == 0 && bp.frame.cur == first,
		 "the freed slot is reused: %s", cu.err);
	JD_CHECK(jd_cuda_bp_collect(&bp, &out) == 0 && jd_cuda_bp_collect(&bp, &out) == 0,
		 "collect the other two: %s", cu.err);
	JD_CHECK(jd_cuda_bp_collect(&bp, &out) == -ENOENT, "nothing left to collect");
	pb.bp.sigma = 0.7f; /* smoothing needs nothing boot did not take: it runs on the GPU */
	JD_CHECK(jd_cuda_bp_run(&bp, &pb, &l, &r, &out) == 0, "bp frame, sigma 0.7: %s", cu.err);
	pb.bp.sigma = 0.0f;
	JD_CHECK(gpu_alloc_calls == 0, "%lu allocations in frames", gpu_alloc_calls);
	gpu_restore_allocations(&cu);
	/* copy mode counts what crosses: SAD's frame is the pair up and the map down */
	unsigned long long before = cu.copied;
	jd_params_default(&p, JD_ALGO_SAD, 16);
	JD_CHECK(jd_cuda_sad_run(&sad, &p, &l, &r, &out) == 0 &&
		     cu.copied - before == (unsigned long long)w * h * (2 + 4),
		 "copy mode: %llu bytes crossed, want %d", cu.copied - before, w * h * 6);
	jd_cuda_deinit(&cu);
	/* Mapped: the kernels read the pinned slots where the host packs them; nothing copied. */
	JD_CHECK(jd_cuda_init(&cu, jd_cuda_sad_device_bytes(&p, w, h),
			      jd_cuda_sad_pinned_bytes(w, h), JD_GPU_MEMORY_MAPPED) == 0 &&
		     cu.mapped && cu.pinned_dev,
		 "mapped init: %s", cu.err);
	JD_CHECK(jd_cuda_sad_init(&sad, &cu, &p, w, h) == 0, "sad init, mapped: %s", cu.err);
	JD_CHECK(sad.frame.slot[1].d_left == jd_cuda_mapped(&cu, sad.frame.slot[1].h_left) &&
		     sad.frame.slot[1].d_map == jd_cuda_mapped(&cu, sad.frame.slot[1].h_out),
		 "the slots' device pointers are their pinned buffers' device view");
	JD_CHECK(jd_cuda_sad_run(&sad, &p, &l, &r, &out) == 0 && cu.copied == 0,
		 "mapped frame: %s; %llu bytes copied", cu.err, cu.copied);
	JD_CHECK(sad.frame.d_out == sad.frame.slot[sad.frame.cur].d_map,
		 "the map is written into the frame's slot");
	jd_cuda_deinit(&cu);
	JD_CHECK(setenv("JD_CUDA_LIB", "/nonexistent/libcuda.so.1", 1) == 0, "setenv");
	JD_CHECK(jd_cuda_init(&cu, 0, 0, JD_GPU_MEMORY_AUTO) == -ENODEV && strstr(cu.err, "no CUDA driver"),
		 "absent driver: %s", cu.err);
	jd_cuda_deinit(&cu);
	free(l.data);
	free(r.data);
	free(out.data);
	return jd_test_done("gpu.cuda_host");
}
