/*
 * After boot the frame loop allocates nothing: every heap allocation in the process is
 * counted (tests/harness/count_alloc.c, libc's own internal calls included).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fake_v4l2.h"
#include "synth.h"

#include "daemon_state.h"
#include "count_alloc.h"
#include "jd_test.h"

/* Every daemon here boots on the CPU (main() says why). */
static const struct jd_boot_choices cpu_only = {.backend = JD_BACKEND_CPU};

int main(void)
{
	static const enum jd_algo algos[] = {JD_ALGO_SGM, JD_ALGO_BP, JD_ALGO_SAD};

	/*
	 * The CPU frame loop. On the GPU the driver's blocking waits malloc and free on the
	 * calling thread (about 16 a frame, H100, driver 580), so jd_cuda_wait() polls instead
	 * (ros2_soak counted 0 on the loop's thread in 3000 frames with polling, 47538 with the
	 * driver's blocking waits); the driver's own threads still allocate now and then, which a
	 * process-wide count cannot tell from ours. jetdepth's rule on the GPU path (no device or
	 * pinned allocation after boot) is asserted by the gpu tests through the driver table. So
	 * every daemon here boots with cpu_only.
	 */

	for (size_t a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
		for (int fp16 = 0; fp16 <= (algos[a] == JD_ALGO_BP); fp16++) {
			struct jd_match_params p;
			struct jd_daemon *d;
			struct jd_frame_stats st;
			long before;

			jd_params_default(&p, algos[a], 32);
			p.bp.fp16 = fp16;
			struct jd_daemon_opts o = {.choices = &cpu_only};
			JD_CHECK(jd_daemon_init(&d, &p, 160, 120, 2, &o, NULL) == 0, "boot");
			/* Boot may allocate (threads, stdio); from here on nothing may. */
			before = jd_allocations;
			for (int i = 0; i < 12; i++) {
				/* on the CPU the pipeline is one deep: every step finishes a frame
				 */
				JD_CHECK(jd_daemon_step(d, &st) == 1, "frame %d", i);
				JD_CHECK(st.frame == i, "frame %d came out as %lld", i, st.frame);
			}
			JD_CHECK(jd_allocations == before, "%s%s: %ld allocation(s) in 12 frames",
				 jd_algo_name(algos[a]), fp16 ? " fp16" : "",
				 jd_allocations - before);
			JD_CHECK(st.bad1 < 20.0, "the frames were real work: bad1 %.1f%%", st.bad1);
			JD_CHECK(jd_daemon_drain(d, &st) == 0, "nothing left in flight");
			/* The sealed arena refuses any late request. */
			void *late;
			JD_CHECK(jd_arena_take(&d->engine.arena, 16, "late", &late) == -EPERM,
				 "sealed");
			jd_daemon_deinit(d);
		}
	}
	/*
	 * The files camera (PGM): reading, parsing and pairing frames allocates nothing either
	 * (open/read, no stdio). Its folder is written here, before boot.
	 */
	{
		static uint8_t l[160 * 120], r[160 * 120];
		char root[] = "/tmp/jd_noalloc_XXXXXX", path[128], head[32];
		struct jd_capture_config cam = {.kind = JD_CAPTURE_FILES, .files = {.loop = 1}};
		struct jd_match_params p;
		struct jd_daemon *d;
		struct jd_frame_stats st;

		JD_CHECK(mkdtemp(root) != NULL, "mkdtemp");
		int n = snprintf(head, sizeof(head), "P5\n160 120\n255\n");
		for (int s = 0; s < 2; s++) {
			snprintf(path, sizeof(path), "%s/%s", root, s ? "right" : "left");
			mkdir(path, 0700);
			for (int k = 0; k < 3; k++) {
				struct jd_image li = {l, 160, 120, 160}, ri = {r, 160, 120, 160};
				jd_synth_render(k, 32, &li, &ri, NULL);
				snprintf(path, sizeof(path), "%s/%s/%d.pgm", root,
					 s ? "right" : "left", k);
				FILE *f = fopen(path, "wb");
				JD_CHECK(f && fwrite(head, 1, (size_t)n, f) == (size_t)n &&
					     fwrite(s ? r : l, 1, sizeof(l), f) == sizeof(l),
					 "write %s", path);
				fclose(f);
			}
		}
		snprintf(cam.files.dir, sizeof(cam.files.dir), "%s", root);
		jd_params_default(&p, JD_ALGO_SAD, 32);
		struct jd_daemon_opts o = {.cam = &cam, .choices = &cpu_only};
		JD_CHECK(jd_daemon_init(&d, &p, 160, 120, 2, &o, NULL) == 0, "boot");
		long before = jd_allocations;
		for (int i = 0; i < 12; i++) {
			JD_CHECK(jd_daemon_step(d, &st) == 1, "frame %d: %s", i,
				 jd_daemon_cameras(d)->err);
		}
		JD_CHECK(jd_allocations == before, "files camera: %ld allocation(s) in 12 frames",
			 jd_allocations - before);
		JD_CHECK(jd_daemon_cameras(d)->pairs == 12 && !st.has_truth,
			 "12 pairs, no truth: %lu", jd_daemon_cameras(d)->pairs);
		jd_daemon_deinit(d);
		/* the same pairs as side-by-side images: one source, both views split in place */
		static uint8_t sbs[320 * 120];
		int m = snprintf(head, sizeof(head), "P5\n320 120\n255\n");
		snprintf(path, sizeof(path), "%s/sbs", root);
		mkdir(path, 0700);
		for (int k = 0; k < 3; k++) {
			struct jd_image li = {l, 160, 120, 160}, ri = {r, 160, 120, 160};
			jd_synth_render(k, 32, &li, &ri, NULL);
			for (int y = 0; y < 120; y++) {
				memcpy(sbs + 320 * y, l + 160 * y, 160);
				memcpy(sbs + 320 * y + 160, r + 160 * y, 160);
			}
			snprintf(path, sizeof(path), "%s/sbs/%d.pgm", root, k);
			FILE *f = fopen(path, "wb");
			JD_CHECK(f && fwrite(head, 1, (size_t)m, f) == (size_t)m &&
				     fwrite(sbs, 1, sizeof(sbs), f) == sizeof(sbs),
				 "write %s", path);
			fclose(f);
		}
		snprintf(cam.files.dir, sizeof(cam.files.dir), "%s/sbs", root);
		cam.split = JD_SPLIT_SIDE;
		JD_CHECK(jd_daemon_init(&d, &p, 160, 120, 2, &o, NULL) == 0, "boot");
		before = jd_allocations;
		for (int i = 0; i < 12; i++) {
			JD_CHECK(jd_daemon_step(d, &st) == 1, "side by side frame %d: %s", i,
				 jd_daemon_cameras(d)->err);
		}
		JD_CHECK(jd_allocations == before,
			 "side-by-side files: %ld allocation(s) in 12 frames",
			 jd_allocations - before);
		jd_daemon_deinit(d);
		/* the synthetic camera's raw 12-bit Bayer frames through the whole loop */
		struct jd_capture_config bayer = {.kind = JD_CAPTURE_SYNTH,
						  .synth = {.fmt = JD_PIX_RGGB12}};
		o.cam = &bayer;
		JD_CHECK(jd_daemon_init(&d, &p, 160, 120, 2, &o, NULL) == 0, "boot");
		before = jd_allocations;
		for (int i = 0; i < 12; i++) {
			JD_CHECK(jd_daemon_step(d, &st) == 1, "Bayer frame %d: %s", i,
				 jd_daemon_cameras(d)->err);
		}
		JD_CHECK(jd_allocations == before, "raw Bayer: %ld allocation(s) in 12 frames",
			 jd_allocations - before);
		jd_daemon_deinit(d);
		snprintf(path, sizeof(path), "rm -rf %s", root);
		JD_CHECK(system(path) == 0, "cleanup");
	}
	/*
	 * V4L2 capture against the fake kernel, across an unplug and the reopen: buffers are
	 * the kernel's (remapped), the driver state is boot memory, nothing comes from the heap.
	 * YUYV, a raw Bayer stream (12-bit RGGB, luma taken on the CPU), and the same from one
	 * device with both views side by side.
	 */
	for (int raw = 0; raw < 3; raw++) {
		struct jd_capture_config cfg = {.kind = JD_CAPTURE_V4L2,
						.v4l2 = {.sys = &fake_v4l2_sys}};
		static struct jd_capture c;
		static char mem[(1 << 14) + 2 * 320 * 240]; /* a split MJPEG frame too */
		static uint8_t l[320 * 240], r[320 * 240];
		struct jd_image li = {l, 320, 240, 320}, ri = {r, 320, 240, 320};
		int truth, ok = 0;

		fake_v4l2_reset();
		for (int i = 0; i < 2 && raw; i++) {
			fake_devs[i].formats[fake_devs[i].nformats++] = V4L2_PIX_FMT_SRGGB12;
		}
		strcpy(cfg.v4l2.device[0], "/dev/fake0");
		strcpy(cfg.v4l2.device[1], "/dev/fake1");
		cfg.cam = (struct jd_cam_config){
		    320, 240, 25, raw ? JD_PIX_RGGB12 : JD_PIX_YUYV, 4, 100, {0, {0}, 0}};
		cfg.split = raw == 2 ? JD_SPLIT_SIDE : JD_SPLIT_NONE;
		JD_CHECK(jd_capture_mem_required(&cfg) <= sizeof(mem) &&
			     jd_capture_init(&c, &cfg, mem, sizeof(mem), NULL) == 0,
			 "v4l2 boot: %s", c.err);
		long before = jd_allocations;
		for (int i = 0; i < 10; i++) {
			ok += jd_capture_next(&c, &li, &ri, NULL, &truth) == 0;
		}
		fake_devs[0].hup = 1;
		JD_CHECK(jd_capture_next(&c, &li, &ri, NULL, &truth) == -ENODEV, "unplugged");
		JD_CHECK(jd_capture_recover(&c) == 0, "reopened: %s", c.err);
		for (int i = 0; i < 10; i++) {
			ok += jd_capture_next(&c, &li, &ri, NULL, &truth) == 0;
		}
		JD_CHECK(ok == 20, "%s%s: %d of 20 pairs", jd_pixfmt_name(cfg.cam.fmt),
			 cfg.split ? " side by side" : "", ok);
		JD_CHECK(c.cam[0].cfg.fmt == cfg.cam.fmt, "granted %s",
			 jd_pixfmt_name(c.cam[0].cfg.fmt));
		JD_CHECK(jd_allocations == before,
			 "v4l2 %s capture and a reconnect: %ld allocation(s)",
			 jd_pixfmt_name(cfg.cam.fmt), jd_allocations - before);
		jd_capture_deinit(&c);
	}
	/* The counter works: an allocation is seen. */
	long before = jd_allocations;
	void *x = malloc(10);
	JD_CHECK(jd_allocations == before + 1 && x, "the interposer counts");
	free(x);
	return jd_test_done("noalloc.frame_loop");
}
