#include "bench_pipeline.h"

#include <stdio.h>
#include <string.h>

#include "../../hal/camera/camera_synth.h"
#include "../../hal/clock.h"
#include "../loop/daemon.h"
#include "../ros2/ros2_daemon.h"

static int one(const struct jd_match_params *p0, int w, int h, int ndisp, int frames, int threads,
	       int ros2, enum jd_pixfmt fmt, const struct jd_boot_choices *choices)
{
	struct jd_daemon *d;
	static struct jd_stereo_calib calib;
	struct jd_match_params p = *p0;
	struct jd_camera_model m;
	struct jd_frame_stats st;
	double cap = 0, rect = 0, match = 0, sense = 0, gpu = 0, cpu = 0, stage[JD_STAGES] = {0};
	int n = 0;

	p.ndisp = ndisp;
	jd_cam_synth_model(w, h, &m);
	/* the synthetic rig as a calibration: identity rotation, no distortion */
	memset(&calib, 0, sizeof(calib));
	for (int i = 0; i < 2; i++) {
		double *K = calib.cam[i].K;
		K[0] = K[4] = m.f;
		K[2] = m.cx;
		K[5] = m.cy;
		K[8] = 1;
	}
	calib.R[0] = calib.R[4] = calib.R[8] = 1;
	calib.T[0] = -m.baseline_mm;
	calib.have_rt = 1;
	jd_calib_rectify(&calib);
	/* replayed frames: the camera costs nothing, so the CPU time is the loop's own */
	struct jd_capture_config cam = {
	    .kind = JD_CAPTURE_SYNTH, .calib = &calib, .synth = {.fmt = fmt, .replay = 1}};
	size_t ros2_bytes = ros2 ? jd_ros2_mem_required(w, h) : 0;
	struct jd_daemon_opts o = {
	    .cam = &cam, .app_bytes = ros2_bytes, .no_truth = 1, .ros2 = ros2, .choices = choices};
	if (jd_daemon_init(&d, &p, w, h, threads, &o, NULL)) {
		return -1;
	}
	static struct jd_ros2 pub;
	if (ros2) {
		struct jd_ros2_config rc;
		jd_ros2_default(&rc);
		snprintf(rc.ns, sizeof(rc.ns), "jetdepth_bench");
		rc.enabled = rc.compose_always = 1;
		struct jd_ros2_rig rig = jd_ros2_rig_of(d);
		if (jd_ros2_start(&pub, &rc, &rig, jd_daemon_info(d)->app_mem, ros2_bytes)) {
			fprintf(stderr, "jetdepth: bench: %s\n", pub.err);
			jd_daemon_deinit(d);
			return -1;
		}
	}
	uint64_t t0 = 0;
	unsigned long long copied0 = 0;
	for (int i = 0; n < frames; i++) {
		/* only what the topics read comes back (none without them): the loop's own cost */
		struct jd_daemon_progress pr;
		jd_daemon_progress(d, &pr);
		jd_daemon_bring_back(d, ros2 ? jd_ros2_want_made(&pub, d) : 0);
		int rc =
		    pr.submitted < frames + 2 ? jd_daemon_step(d, &st) : jd_daemon_drain(d, &st);
		if (rc < 0) {
			fprintf(stderr, "jetdepth: bench: frame %d failed\n", i);
			jd_daemon_deinit(d);
			return -1;
		}
		if (rc == 1 && ros2) {
			struct jd_ros2_frame f = jd_ros2_frame_of(d, &st);
			jd_ros2_offer(&pub, &f);
		}
		if (rc == 1 && st.frame >= 2) { /* two warm-up frames */
			if (!t0) {
				t0 = jd_clock_ns();
				jd_daemon_progress(d, &pr);
				copied0 = pr.copied;
			}
			cap += st.capture_ms;
			rect += st.rectify_ms;
			match += (double)st.match_ns / 1e6;
			sense += st.sense_ms;
			gpu += st.gpu_ms;
			cpu += st.cpu_ms;
			for (int s = 0; s < JD_STAGES; s++) {
				stage[s] += st.stage_cpu_ms[s];
			}
			n++;
		}
	}
	double wall = (double)(jd_clock_ns() - t0) / 1e6;
	struct jd_ros2_counters rc2 = {0};
	if (ros2) {
		jd_ros2_stop(&pub);
		jd_ros2_counters(&pub, &rc2);
	}
	/* On the GPU two frames are in flight: "match" is submit to map in hand (queueing
	 * behind the next capture included), "gpu" the kernels alone. */
	/* copied: bytes a frame crosses between host and device buffers (0: mapped, or CPU) */
	struct jd_daemon_progress end;
	jd_daemon_progress(d, &end);
	const char *where = jd_daemon_info(d)->where;
	printf("%-8s %-6s %9dx%-5d %5d %7d %8.2f %8.2f %8.2f %8.2f %8.2f %7.1f %8.2f %8.0f",
	       jd_algo_name(p.algo), where, w, h, ndisp, threads, cap / n, rect / n, match / n,
	       gpu / n, sense / n, n > 1 ? 1000.0 * (n - 1) / wall : 0.0, cpu / n,
	       (double)(end.copied - copied0) / n / 1024.0);
	if (ros2) {
		/* the loop's copy per offered frame; the thread's work per published frame (it
		 * skips frames a newer one replaced) */
		double np = rc2.published ? (double)rc2.published : 1.0;
		printf(" %8.2f %8.2f %8.2f %5lu/%lu", rc2.offer_ms / (double)rc2.offered,
		       rc2.compose_ms / np, rc2.write_ms / np, rc2.published, rc2.offered);
	}
	printf("\n");
	/* where the cpu column goes: each stage's share, and the rest (the loop around them) */
	double staged = 0;
	printf("  cpu ms a frame by stage:");
	for (int s = 0; s < JD_STAGES; s++) {
		printf(" %s %.2f", jd_stage_names[s], stage[s] / n);
		staged += stage[s] / n;
	}
	printf(" other %.2f\n", cpu / n - staged);
	jd_daemon_deinit(d);
	return 0;
}

int jd_bench_pipeline(const struct jd_match_params *p, int w, int h, int frames, int threads,
		      int ros2, enum jd_pixfmt fmt, const struct jd_boot_choices *choices)
{
	static const int cases[][3] = {{640, 480, 64}, {1280, 720, 128}};
	int rc = 0;

	printf("%-8s %-6s %15s %5s %7s %8s %8s %8s %8s %8s %7s %8s %8s", "matcher", "where", "size",
	       "ndisp", "threads", "capture", "rectify", "match", "gpu", "sense", "fps", "cpu",
	       "KiB/f");
	printf("%s\n", ros2 ? "    offer  compose    write  published" : "");
	if (fmt != JD_PIX_GREY) {
		printf("camera frames: %s\n", jd_pixfmt_name(fmt));
	}
	if (w) {
		return one(p, w, h, p->ndisp, frames, threads, ros2, fmt, choices);
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rc |= one(p, cases[i][0], cases[i][1], cases[i][2], frames, threads, ros2, fmt,
			  choices);
	}
	return rc;
}
