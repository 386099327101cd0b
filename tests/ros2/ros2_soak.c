/*
 * The ROS 2 soak (ctest ros2.soak, with tests/ros2/ros2_listen subscribed from another
 * process): the frame loop as `run --ros2` drives it, FRAMES frames (default 100000) on the
 * synthetic camera, every frame offered to the publisher. The loop thread allocates nothing
 * after the warm-up (its own count: tests/harness/count_alloc.h); Cyclone DDS's threads
 * allocate per sample (serialization, delivery) and free again: the process's live heap
 * (glibc's in-use bytes and the interposer's blocks) is sampled ten times after the warm-up
 * and must not grow.
 * usage: ros2_soak NAMESPACE [FRAMES]
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "camera_synth.h"
#include "count_alloc.h"
#include "daemon.h"
#include "sense_cli.h"
#include "jd_test.h"
#include "ros2/ros2_daemon.h"

enum { W = 128, H = 96, ND = 16, SAMPLES = 10 };

static long live_blocks(void)
{
	return jd_allocations - jd_frees;
}

int main(int argc, char **argv)
{
	struct jd_daemon *d;
	static struct jd_ros2 ros2;
	struct jd_match_params p;
	struct jd_frame_stats st;
	const char *ns = argc > 1 ? argv[1] : "soak";
	long frames = argc > 2 ? atol(argv[2]) : 100000;

	jd_params_default(&p, JD_ALGO_SAD, ND);
	/* the soak is about publishing: the cheapest frame that still has a table and objects */
	p.prefilter = JD_PREFILTER_NONE;
	struct jd_sense_options sense;
	jd_sense_cli_init(&sense);
	sense.sp.ransac_iters = 40;
	jd_cam_synth_model(W, H, &sense.cam);
	sense.have_focal = sense.have_baseline = 1;
	struct jd_capture_config cam = {.kind = JD_CAPTURE_SYNTH};
	size_t bytes = jd_ros2_mem_required(W, H);
	struct jd_daemon_opts o = {.cam = &cam, .sense = &sense, .app_bytes = bytes, .ros2 = 1};
	JD_CHECK(jd_daemon_init(&d, &p, W, H, 1, &o, NULL) == 0, "boot");
	struct jd_ros2_config c;
	jd_ros2_default(&c);
	snprintf(c.ns, sizeof(c.ns), "%s", ns);
	c.enabled = 1;
	struct jd_ros2_rig rig = jd_ros2_rig_of(d);
	JD_CHECK(jd_ros2_start(&ros2, &c, &rig, jd_daemon_info(d)->app_mem, bytes) == 0, "%s",
		 ros2.err);

	long warmup = frames / 10, loop_allocs = 0, blocks[SAMPLES] = {0};
	size_t heap[SAMPLES] = {0};
	int ns_ = 0;
	for (long i = 0; i < frames + warmup; i++) {
		if (i == warmup && getenv("JD_ALLOC_TRACE")) {
			jd_alloc_trace(
			    atoi(getenv("JD_ALLOC_TRACE"))); /* where the loop allocates */
		}
		long a = jd_thread_allocations;
		jd_daemon_bring_back(d, jd_ros2_want_made(&ros2, d));
		int rc = jd_daemon_step(d, &st);
		JD_CHECK(rc >= 0 || rc == -EAGAIN, "frame %ld: %d", i, rc);
		if (rc == 1) {
			struct jd_ros2_frame f = jd_ros2_frame_of(d, &st);
			jd_ros2_offer(&ros2, &f);
		}
		loop_allocs += i >= warmup ? jd_thread_allocations - a : 0;
		if (i >= warmup && (i - warmup) % (frames / SAMPLES) == 0 && ns_ < SAMPLES) {
			struct mallinfo2 mi = mallinfo2();
			heap[ns_] = mi.uordblks;
			blocks[ns_++] = live_blocks();
		}
	}
	struct jd_ros2_counters cnt;
	jd_ros2_counters(&ros2, &cnt);
	long sub = cnt.subscribed;
	jd_ros2_stop(&ros2);
	jd_ros2_counters(&ros2, &cnt);
	jd_daemon_deinit(d);

	printf("ros2 soak: %ld frames (+%ld warm-up) at %dx%d, %lu offered, %lu published, %lu "
	       "replaced, %lu write errors, %ld topic(s) subscribed at the end\n",
	       frames, warmup, W, H, cnt.offered, cnt.published, cnt.replaced, cnt.write_errors,
	       sub);
	printf("live heap (bytes / blocks) at each tenth:");
	size_t hmin = heap[0], hmax = heap[0];
	long bmin = blocks[0], bmax = blocks[0];
	for (int k = 0; k < ns_; k++) {
		printf(" %zu/%ld", heap[k], blocks[k]);
		hmin = heap[k] < hmin ? heap[k] : hmin;
		hmax = heap[k] > hmax ? heap[k] : hmax;
		bmin = blocks[k] < bmin ? blocks[k] : bmin;
		bmax = blocks[k] > bmax ? blocks[k] : bmax;
	}
	printf("\n");
	JD_CHECK(ns_ == SAMPLES, "%d samples", ns_);
	JD_CHECK(sub >= 8, "%ld topics subscribed: is the listener running?", sub);
	JD_CHECK(cnt.published > (unsigned long)frames / 100, "%lu frames published",
		 cnt.published);
	JD_CHECK(cnt.write_errors == 0, "%lu write errors", cnt.write_errors);
	/* no growth: the last tenth no higher than the highest of the first half, and the
	 * spread (samples in flight at the sampling instant) bounded */
	size_t hfirst = 0;
	long bfirst = 0;
	for (int k = 0; k < SAMPLES / 2; k++) {
		hfirst = heap[k] > hfirst ? heap[k] : hfirst;
		bfirst = blocks[k] > bfirst ? blocks[k] : bfirst;
	}
	JD_CHECK(heap[SAMPLES - 1] <= hfirst + 64 * 1024,
		 "live heap grew: %zu bytes at the end, at most %zu in the first half",
		 heap[SAMPLES - 1], hfirst);
	JD_CHECK(blocks[SAMPLES - 1] <= bfirst + 64,
		 "live blocks grew: %ld at the end, at most %ld in the first half",
		 blocks[SAMPLES - 1], bfirst);
	JD_CHECK(loop_allocs == 0, "the frame loop's thread allocated %ld time(s)", loop_allocs);
	printf("ok: no growth (heap %zu..%zu bytes, %ld..%ld blocks); the loop's thread allocated "
	       "%ld time(s) in %ld frames\n",
	       hmin, hmax, bmin, bmax, loop_allocs, frames);
	return jd_test_failures ? 1 : 0;
}
