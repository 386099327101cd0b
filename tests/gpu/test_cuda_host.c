/*
 * The CUDA host plumbing against a stand-in driver (fake_libcuda.c), so CI without a GPU
 * still checks it: every entry point loads, sizing counts what the carving takes without
 * touching the driver, the carving is exactly that, bounded and sealed, and a whole SAD, SGM
 * and BP frame goes through upload, launches and download without a device allocation. The kernels
 * themselves are tested on a real GPU (test_cuda_sad, test_cuda_sgm).
 */
#include <stdio.h>

#include "cuda/confidence_cuda.h"
#include "gpu_util.h"

/* One context for the three matchers (SGM with every stage beside it): they share it. */
struct three {
	struct jd_cuda_matcher sad, sgm, bp;
	const struct jd_match_params *ps, *pg, *pb;
	int w, h;
};

static int take_three(struct jd_cuda *cu, void *arg)
{
	struct three *t = arg;
	unsigned all = JD_CUDA_STAGE_REMAP | JD_CUDA_STAGE_CONF | JD_CUDA_STAGE_SENSE |
		       JD_CUDA_STAGE_PREVIEW | JD_CUDA_STAGE_CLOUD;

	JD_TRY(jd_cuda_matcher_take(&t->sgm, cu, t->pg, t->w, t->h, NULL, all));
	JD_TRY(jd_cuda_matcher_take(&t->sad, cu, t->ps, t->w, t->h, NULL, 0));
	return jd_cuda_matcher_take(&t->bp, cu, t->pb, t->w, t->h, NULL, 0);
}

int main(void)
{
	static struct jd_cuda cu;
	static struct three t;
	static struct gpu_rig g;
	struct jd_match_params ps, pg, pb;
	struct jd_image l, r;
	jd_cudeviceptr d;
	size_t dev = 0, pinned = 0;
	int w = 64, h = 32;
	struct jd_disp out = {malloc(sizeof(float) * w * h), w, h, w};

	if (!jd_cuda_built()) {
		JD_SKIP("this build has no CUDA kernels (no nvcc at build time)");
	}
	JD_CHECK(setenv("JD_CUDA_LIB", FAKE_LIBCUDA, 1) == 0, "setenv");
	jd_params_default(&ps, JD_ALGO_SAD, 16);
	jd_params_default(&pg, JD_ALGO_SGM, 16);
	jd_params_default(&pb, JD_ALGO_BP, 16);
	pb.bp.fp16 = 1;
	t = (struct three){.ps = &ps, .pg = &pg, .pb = &pb, .w = w, .h = h};
	JD_CHECK(jd_cuda_open(&cu, JD_GPU_MEMORY_AUTO) == 0 && !cu.mapped && cu.counting,
		 "open with the stand-in driver: %s", cu.err);
	/* Every entry point of the table is there. */
	void *const *fn = (void *const *)&cu.api;
	for (size_t i = 0; i < sizeof(cu.api) / sizeof(void *); i++) {
		JD_CHECK(fn[i] != NULL, "driver entry %zu not loaded", i);
	}
	/* Sizing runs the carving itself on the counting context: no memory, no driver call. */
	JD_CHECK(jd_cuda_count(&cu, take_three, &t, &dev, &pinned) == 0 && dev && pinned,
		 "count: %s", cu.err);
	JD_CHECK(cu.mem_allocs == 0 && t.sgm.frame->slot[1].h_left == NULL &&
		     t.sgm.frame->slot[1].d_left == 0 && t.sgm.frame->slot[1].ev_out == NULL,
		 "counting allocated or handed out memory (%lu allocations)", cu.mem_allocs);
	JD_CHECK(jd_cuda_allocate(&cu, dev, pinned) == 0 && !cu.counting && cu.mem_allocs == 2,
		 "one device and one pinned allocation at boot, not %lu: %s", cu.mem_allocs,
		 cu.err);
	JD_CHECK(take_three(&cu, &t) == 0, "take: %s", cu.err);
	JD_CHECK(jd_carve_total(&cu.dev_room) == jd_cuda_round(dev) &&
		     jd_carve_total(&cu.pinned_room) == jd_cuda_round(pinned),
		 "carved %zu device and %zu pinned bytes, counted %zu and %zu",
		 jd_carve_total(&cu.dev_room), jd_carve_total(&cu.pinned_room), dev, pinned);
	JD_CHECK(jd_cuda_count(&cu, take_three, &t, &dev, &pinned) == -EPERM,
		 "counting after the allocations");
	JD_CHECK(jd_cuda_take(&cu, 1 << 30, &d) == -ENOMEM && strstr(cu.err, "more bytes"),
		 "over the booked size: %s", cu.err);
	jd_cuda_seal(&cu);
	JD_CHECK(jd_cuda_take(&cu, 16, &d) == -EPERM && strstr(cu.err, "after boot"),
		 "after the seal: %s", cu.err);
	gpu_textured_pair(w, h, 7, &l, &r);
	gpu_count_allocations(&cu);
	JD_CHECK(jd_cuda_matcher_run(&t.sad, &ps, &l, &r, &out) == 0, "sad frame: %s", cu.err);
	JD_CHECK(jd_cuda_matcher_run(&t.sgm, &pg, &l, &r, &out) == 0, "sgm frame: %s", cu.err);
	pg.sgm.paths = 4;
	pg.sgm.cost = JD_SGM_COST_AD;
	JD_CHECK(jd_cuda_matcher_run(&t.sgm, &pg, &l, &r, &out) == 0, "sgm 4-path AD frame: %s",
		 cu.err);
	JD_CHECK(jd_cuda_matcher_run(&t.bp, &pb, &l, &r, &out) == 0, "bp frame: %s", cu.err);
	/* The pipeline: two frames in flight, a third refused, collected oldest first. */
	struct jd_cuda_frame *f = t.bp.frame;
	JD_CHECK(jd_cuda_matcher_submit(&t.bp, &pb, &l, &r) == 0, "first in flight: %s", cu.err);
	int first = f->cur;
	JD_CHECK(jd_cuda_matcher_submit(&t.bp, &pb, &l, &r) == 0, "second in flight: %s", cu.err);
	JD_CHECK(f->cur == !first, "second frame in slot %d, not %d", !first, f->cur);
	JD_CHECK(jd_cuda_matcher_submit(&t.bp, &pb, &l, &r) == -EBUSY &&
		     strstr(cu.err, "in flight"),
		 "a third refused: %s", cu.err);
	JD_CHECK(jd_cuda_matcher_collect(&t.bp, &out) == 0 && f->oldest == !first,
		 "collect the first");
	JD_CHECK(jd_cuda_matcher_submit(&t.bp, &pb, &l, &r) == 0 && f->cur == first,
		 "the freed slot is reused: %s", cu.err);
	JD_CHECK(jd_cuda_matcher_collect(&t.bp, &out) == 0 &&
		     jd_cuda_matcher_collect(&t.bp, &out) == 0,
		 "collect the other two: %s", cu.err);
	JD_CHECK(jd_cuda_matcher_collect(&t.bp, &out) == -ENOENT, "nothing left to collect");
	pb.bp.sigma = 0.7f; /* smoothing needs nothing boot did not take: it runs on the GPU */
	JD_CHECK(jd_cuda_matcher_run(&t.bp, &pb, &l, &r, &out) == 0, "bp frame, sigma 0.7: %s",
		 cu.err);
	pb.bp.sigma = 0.0f;
	JD_CHECK(gpu_alloc_calls == 0, "%lu allocations in frames", gpu_alloc_calls);
	gpu_restore_allocations(&cu);
	/* copy mode counts what crosses: SAD's frame is the pair up and the map down */
	unsigned long long before = cu.copied;
	JD_CHECK(jd_cuda_matcher_run(&t.sad, &ps, &l, &r, &out) == 0 &&
		     cu.copied - before == (unsigned long long)w * h * (2 + 4),
		 "copy mode: %llu bytes crossed, want %d", cu.copied - before, w * h * 6);
	/* what comes back is what the loop asks for: nothing, and the map is not lent */
	struct jd_cuda_frame *fs = t.sad.frame;
	float *map = out.data;
	fs->lend = 1;
	jd_cuda_frame_bring_back(fs, 0);
	before = cu.copied;
	JD_CHECK(jd_cuda_matcher_run(&t.sad, &ps, &l, &r, &out) == 0 &&
		     cu.copied - before == (unsigned long long)w * h * 2 && out.data == NULL &&
		     jd_cuda_frame_on_host(fs) == JD_CUDA_BACK_PAIR &&
		     jd_cuda_frame_rectified(fs, 0) == fs->slot[fs->last].h_left,
		 "nothing back: %llu bytes crossed, want %d (the pair up), the map %p, on the host "
		 "%u (the pair packed there)",
		 cu.copied - before, w * h * 2, (void *)out.data, jd_cuda_frame_on_host(fs));
	jd_cuda_frame_bring_back(fs, JD_CUDA_BACK_ALL);
	fs->lend = 0;
	out.data = map;
	/* the confidence only when asked for: the map alone leaves it on the device */
	struct jd_cuda_frame *fg = t.sgm.frame;
	jd_cuda_frame_bring_back(fg, JD_CUDA_BACK_MAP);
	before = cu.copied;
	JD_CHECK(jd_cuda_matcher_run(&t.sgm, &pg, &l, &r, &out) == 0 &&
		     cu.copied - before == (unsigned long long)w * h * (2 + 4) &&
		     jd_cuda_conf_last(fg) == NULL,
		 "the map back, not the confidence: %llu bytes crossed, want %d",
		 cu.copied - before, w * h * 6);
	jd_cuda_frame_bring_back(fg, JD_CUDA_BACK_ALL);
	before = cu.copied;
	JD_CHECK(jd_cuda_matcher_run(&t.sgm, &pg, &l, &r, &out) == 0 &&
		     cu.copied - before == (unsigned long long)w * h * (2 + 4 + 1) &&
		     jd_cuda_conf_last(fg) == fg->conf.h_conf[fg->last],
		 "all back: %llu bytes crossed, want %d", cu.copied - before, w * h * 7);
	JD_CHECK(jd_cuda_matcher_traffic(&ps, w, h) > 0 && jd_cuda_matcher_traffic(&pb, w, h) > 0,
		 "each matcher's traffic");
	jd_cuda_deinit(&cu);
	/* Mapped: the kernels read the pinned slots where the host packs them; nothing copied. */
	g = (struct gpu_rig){.p = &ps, .w = w, .h = h};
	JD_CHECK(gpu_rig_boot(&g, JD_GPU_MEMORY_MAPPED) == 0 && g.cu.mapped && g.cu.pinned_dev,
		 "mapped boot: %s", g.cu.err);
	f = g.m.frame;
	JD_CHECK(f->slot[1].d_left == jd_cuda_mapped(&g.cu, f->slot[1].h_left) &&
		     f->slot[1].d_map == jd_cuda_mapped(&g.cu, f->slot[1].h_out),
		 "the slots' device pointers are their pinned buffers' device view");
	JD_CHECK(jd_cuda_matcher_run(&g.m, &ps, &l, &r, &out) == 0 && g.cu.copied == 0,
		 "mapped frame: %s; %llu bytes copied", g.cu.err, g.cu.copied);
	JD_CHECK(f->d_out == f->slot[f->cur].d_map, "the map is written into the frame's slot");
	jd_cuda_deinit(&g.cu);
	/* a driver that refuses the module: boot says what this build's images need */
	JD_CHECK(setenv("FAKE_CUDA_NO_MODULE", "1", 1) == 0, "setenv");
	JD_CHECK(jd_cuda_open(&cu, JD_GPU_MEMORY_AUTO) == -ENODEV &&
		     strstr(cu.err, "cannot load the kernels") &&
		     (strstr(cu.err, "this build's kernels for sm_90") ||
		      strstr(cu.err, "this build has no kernels for sm_90")),
		 "refused module: %s", cu.err);
	jd_cuda_deinit(&cu);
	unsetenv("FAKE_CUDA_NO_MODULE");
	JD_CHECK(setenv("JD_CUDA_LIB", "/nonexistent/libcuda.so.1", 1) == 0, "setenv");
	JD_CHECK(jd_cuda_open(&cu, JD_GPU_MEMORY_AUTO) == -ENODEV &&
		     strstr(cu.err, "no CUDA driver"),
		 "absent driver: %s", cu.err);
	jd_cuda_deinit(&cu);
	free(l.data);
	free(r.data);
	free(out.data);
	return jd_test_done("gpu.cuda_host");
}
