#include "bench_pipeline.h"

#include <stdio.h>
#include <string.h>

#include "../hal/camera_synth.h"
#include "../hal/clock.h"
#include "daemon.h"

static int one(const struct jd_match_params *p0, int w, int h, int ndisp, int frames, int threads)
{
	static struct jd_daemon d;
	static struct jd_stereo_calib calib;
	struct jd_match_params p = *p0;
	struct jd_camera_model m;
	struct jd_frame_stats st;
	double cap = 0, rect = 0, match = 0, sense = 0, gpu = 0;
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
	struct jd_capture_config cam = {.kind = JD_CAPTURE_SYNTH, .calib = &calib};
	struct jd_daemon_opts o = {.cam = &cam};
	if (jd_daemon_init(&d, &p, w, h, threads, &o, NULL)) {
		return -1;
	}
	uint64_t t0 = 0;
	for (int i = 0; n < frames; i++) {
		int rc = d.frame < frames + 2 ? jd_daemon_step(&d, &st) : jd_daemon_drain(&d, &st);
		if (rc < 0) {
			fprintf(stderr, "jetdepth: bench: frame %d failed\n", i);
			jd_daemon_deinit(&d);
			return -1;
		}
		if (rc == 1 && st.frame >= 2) { /* two warm-up frames */
			t0 = t0 ? t0 : jd_clock_ns();
			cap += st.capture_ms;
			rect += st.rectify_ms;
			match += (double)st.match_ns / 1e6;
			sense += st.sense_ms;
			gpu += st.gpu_ms;
			n++;
		}
	}
	double wall = (double)(jd_clock_ns() - t0) / 1e6;
	/* On the GPU two frames are in flight: "match" is submit to map in hand (queueing
	 * behind the next capture included), "gpu" the kernels alone. */
	printf("%-8s %-6s %9dx%-5d %5d %7d %8.2f %8.2f %8.2f %8.2f %8.2f %7.1f\n",
	       jd_algo_name(p.algo), d.boot.gpu ? "cuda" : "cpu", w, h, ndisp, threads, cap / n,
	       rect / n, match / n, gpu / n, sense / n, n > 1 ? 1000.0 * (n - 1) / wall : 0.0);
	jd_daemon_deinit(&d);
	return 0;
}

int jd_bench_pipeline(const struct jd_match_params *p, int w, int h, int frames, int threads)
{
	static const int cases[][3] = {{640, 480, 64}, {1280, 720, 128}};
	int rc = 0;

	printf("%-8s %-6s %15s %5s %7s %8s %8s %8s %8s %8s %7s\n", "matcher", "where", "size",
	       "ndisp", "threads", "capture", "rectify", "match", "gpu", "sense", "fps");
	if (w) {
		return one(p, w, h, p->ndisp, frames, threads);
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rc |= one(p, cases[i][0], cases[i][1], cases[i][2], frames, threads);
	}
	return rc;
}
