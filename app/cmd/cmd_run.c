#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../algo/jd_carve.h"
#include "../../algo/jd_status.h"
#include "../../hal/clock.h"
#include "board_find.h"
#include "cli.h"
#include "commands.h"
#include "../formats/calib_yaml.h"
#include "../../hal/sd_notify.h"
#include "../../algo/geometry/pair_check.h"
#include "../loop/daemon.h"
#include "../net/preview.h"
#include "../formats/dump.h"
#include "../net/publish.h"
#include "../formats/report.h"
#include "../ros2/ros2_daemon.h"
#include "run_options.h"
#include "run_status.h"
#include "sense_cli.h"

static volatile sig_atomic_t stop_requested, dump_requested, hup_seen;

static void on_signal(int sig)
{
	if (sig == SIGUSR1) {
		dump_requested = 1;
	} else if (sig == SIGHUP) {
		hup_seen = 1;
	} else {
		stop_requested = 1;
	}
}

/* Per-stage latency over a logging period, kept in fixed memory. */
struct stage_stats {
	int n;
	double capture, rectify, match, confidence, sense, cpu;
	uint64_t t0;
};

static void stats_log(struct stage_stats *s, FILE *f, struct jd_notify *notify, uint64_t now)
{
	char line[256];
	double secs = (double)(now - s->t0) / 1e9;

	snprintf(line, sizeof(line),
		 "%d frames in %.1f s (%.1f fps); mean ms: capture %.2f, rectify %.2f, match "
		 "%.2f, confidence %.2f, sense %.2f; CPU %.2f ms a frame (all threads)",
		 s->n, secs, s->n / secs, s->capture / s->n, s->rectify / s->n, s->match / s->n,
		 s->confidence / s->n, s->sense / s->n, s->cpu / s->n);
	fprintf(f, "stats: %s\n", line);
	char status[300];
	snprintf(status, sizeof(status), "STATUS=%s", line);
	jd_notify_send(notify, status);
	*s = (struct stage_stats){.t0 = now};
}

/* run's own boot memory (the daemon's app_mem): one region an output that wants one. */
struct run_regions {
	void *preview; /* jd_preview_mem_required() */
	float *dump;   /* jd_dump_mem_required(): the depth a dump writes */
	void *ros2;    /* jd_ros2_mem_required() */
	size_t preview_bytes, ros2_bytes;
};

/*
 * The one layout of that memory: with a NULL base it counts the bytes to ask the daemon for,
 * with the daemon's app_mem it points each output at its region (algo/jd_carve.h).
 */
static size_t run_layout(struct jd_carve *c, const struct jd_run_options *o, int w, int h,
			 struct run_regions *r)
{
	r->preview_bytes = o->preview.port ? jd_preview_mem_required(w, h) : 0;
	r->ros2_bytes = o->ros2.enabled ? jd_ros2_mem_required(w, h) : 0;
	r->preview = r->preview_bytes ? jd_carve(c, r->preview_bytes) : NULL;
	r->dump = o->dump_dir[0] ? jd_carve(c, jd_dump_mem_required(w, h)) : NULL;
	r->ros2 = r->ros2_bytes ? jd_carve(c, r->ros2_bytes) : NULL;
	return jd_carve_total(c);
}

/*
 * Dropped frames are said as they happen, each with its reason, up to DROP_LINES a second;
 * beyond that (a flood: a broken stream) only a count a second is said, until a second
 * passes without a drop.
 */
#define DROP_LINES 5

struct drop_report {
	unsigned long seen; /* drops counted by capture when last looked at */
	unsigned long said; /* drops already said or summed up */
	uint64_t t;	    /* when this second began */
	int lines;	    /* lines said in it */
	int flood;	    /* the last second overflowed: counts only */
};

/* @return 1 when frames were dropped since the last call */
static int report_drops(struct drop_report *r, const struct jd_capture *c, uint64_t now)
{
	unsigned long n = c->drop_corrupt + c->drop_short;
	int new = n > r->seen;

	if (now - r->t >= 1000000000ull) {
		if (n > r->said && (r->flood || r->lines >= DROP_LINES)) {
			fprintf(stderr, "jetdepth: %lu more frame(s) dropped; the last: %s\n",
				n - r->said, c->last_drop);
			r->said = n;
			r->flood = 1;
		} else {
			r->flood = 0; /* a second with room to spare: say each again */
		}
		r->t = now;
		r->lines = 0;
	}
	if (n > r->said && !r->flood && r->lines < DROP_LINES) {
		r->lines++;
		fprintf(stderr, "jetdepth: frame dropped: %s\n", c->last_drop);
		r->said = n;
	}
	r->seen = n;
	return new;
}

int jd_cmd_run(int argc, char **argv)
{
	uint64_t t_boot = jd_clock_ns();
	/* stdout gets a static buffer so the first printf in the loop does not malloc one. */
	static char outbuf[4096];
	static struct jd_run_options o;
	static struct jd_daemon d; /* large (camera state): not on the stack */
	uint64_t total_ns = 0;
	int done = 0, no_pair = 0, ended = 0, outages = 0, publish_errors = 0, rc;
	struct drop_report drops = {0, 0, 0, 0, 0};
	enum jd_pair_verdict suspect_said = JD_PAIR_OK; /* the verdict last warned about */
	int waiting_said = 0; /* "waiting for the cameras" was said */
	int stalled = 0;      /* no pair for --stall seconds: the watchdog is not told */
	uint64_t last_pair_ns = jd_clock_ns();

	setvbuf(stdout, outbuf, _IOLBF, sizeof(outbuf));
	rc = jd_run_options_load(&o, argc, argv);
	if (rc || o.help) {
		return rc;
	}
	struct jd_match_params p = o.p;
	int w = o.w, h = o.h, frames = o.frames, threads = o.threads, json = o.json;
	struct jd_capture_config cam = o.cam;
	struct jd_sense_options sense = o.sense;
	const char *udp = o.udp[0] ? o.udp : NULL;
	const char *calib_files[2] = {o.calib[0], o.calib[1]};
	int ncalib = o.ncalib;
	static struct jd_stereo_calib calib;
	struct jd_board *bp = o.have_board ? &o.board : NULL;
	if ((rc = jd_cli_validate(&p, w, h))) {
		return rc;
	}
	fprintf(json ? stderr : stdout, "jetdepth run: board %s, %s camera %dx%d, %s, ndisp %d, %d thread(s)\n",
	       bp ? bp->name : "(built-in defaults)",
	       jd_capture_source(cam.kind),
	       w, h, jd_algo_name(p.algo), p.ndisp, threads);
	if ((sense.have_focal != sense.have_baseline) && jd_sense_cli_check(&sense)) {
		return JD_EXIT_USAGE;
	}
	if (jd_sense_cli_fits(&sense, w, h)) {
		return JD_EXIT_USAGE;
	}
	if (o.dump_dir[0]) {
		char err[700];
		if (jd_dump_dir_check(o.dump_dir, err, sizeof(err))) {
			fprintf(stderr, "jetdepth: %s\n", err);
			return JD_EXIT_RUNTIME;
		}
	}
	if (ncalib && cam.kind == JD_CAPTURE_SYNTH) {
		fprintf(stderr, "jetdepth: --calib %s: the synthetic camera renders rectified frames "
				"of its own rig and takes no calibration (a calibration is for "
				"--camera files:DIR or v4l2:)\n", calib_files[0]);
		return JD_EXIT_USAGE;
	}
	if (ncalib) {
		char err[600];
		if (jd_calib_load(calib_files, ncalib, &calib, err, sizeof(err)) ||
		    jd_calib_fits(&calib, calib_files, ncalib, w, h, err, sizeof(err))) {
			fprintf(stderr, "jetdepth: %s\n", err);
			return JD_EXIT_RUNTIME;
		}
		cam.calib = &calib;
	}
	if (json && (jd_cli_closed_std_fds & 2)) {
		fprintf(stderr, "jetdepth: --json: stdout is closed, so every frame would be lost "
				"(redirect it to a file or a pipe, or use --udp)\n");
		return JD_EXIT_USAGE;
	}
	static struct jd_publisher pub;
	if (jd_publish_init(&pub, json ? STDOUT_FILENO : -1, udp)) {
		fprintf(stderr, "jetdepth: %s\n", pub.err);
		return JD_EXIT_USAGE;
	}
	/* With --json, stdout carries only the frames: boot's log goes to stderr. */
	struct run_regions mem;
	struct jd_carve layout;
	jd_carve_init(&layout, NULL, 0);
	struct jd_boot_config choices = {0};
	if (jd_cli_boot_choices(&choices)) { /* $JD_BACKEND: a runtime failure, as match's */
		jd_publish_deinit(&pub);
		return JD_EXIT_RUNTIME;
	}
	struct jd_daemon_opts dopts = {.cam = &cam,
				       .sense = &sense,
				       .choices = &choices,
				       .board = bp,
				       .app_bytes = run_layout(&layout, &o, w, h, &mem),
				       .ros2 = o.ros2.enabled,
				       .preview = o.preview.port != 0};
	if (jd_daemon_init(&d, &p, w, h, threads, &dopts, json ? stderr : stdout)) {
		jd_publish_deinit(&pub);
		return JD_EXIT_RUNTIME;
	}
	jd_carve_init(&layout, d.app_mem, dopts.app_bytes);
	run_layout(&layout, &o, w, h, &mem);
	static struct jd_preview preview;
	if (o.preview.port) {
		if (jd_preview_start(&preview, &o.preview, w, h, mem.preview, mem.preview_bytes)) {
			fprintf(stderr, "jetdepth: %s\n", preview.err);
			jd_daemon_deinit(&d);
			jd_publish_deinit(&pub);
			return JD_EXIT_RUNTIME;
		}
		fprintf(json ? stderr : stdout, "preview: http://%s:%d/ (at most %d clients)\n",
			o.preview.bind, o.preview.port, o.preview.max_clients);
	}
	static struct jd_ros2 ros2;
	if (o.ros2.enabled) {
		struct jd_ros2_rig rig = jd_ros2_rig_of(&d);
		if (jd_ros2_start(&ros2, &o.ros2, &rig, mem.ros2, mem.ros2_bytes)) {
			fprintf(stderr, "jetdepth: %s\n", ros2.err);
			jd_preview_stop(&preview);
			jd_daemon_deinit(&d);
			jd_publish_deinit(&pub);
			return JD_EXIT_RUNTIME;
		}
		fprintf(json ? stderr : stdout, "ros2: publishing under /%s (frame %s)%s; discovery: %s\n",
			o.ros2.ns, o.ros2.frame_id,
			d.sensing ? "" : "; no camera model: no depth, cloud, camera info or objects",
			ros2.discovery);
	}
	static struct jd_notify notify;
	if (jd_notify_init(&notify)) {
		fprintf(stderr, "jetdepth: NOTIFY_SOCKET=%s: not a socket path; systemd is not told\n",
			getenv("NOTIFY_SOCKET"));
	}
	jd_notify_send(&notify, "READY=1\nSTATUS=booted, running the frame loop");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGUSR1, on_signal);
	/* SIGHUP does not reload (the pools are sized for the boot configuration): said, ignored */
	signal(SIGHUP, on_signal);
	/* a closed stdout or a file-size limit is an error on that write, not the end of the daemon */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	FILE *info = json ? stderr : stdout; /* stdout carries only frames with --json */
	struct stage_stats stats = {.t0 = jd_clock_ns()};
	rc = JD_EXIT_OK;
	uint64_t t_start = jd_clock_ns();
	const float colour_far = (float)(p.min_disp + p.ndisp); /* the preview's colour map's end */
	/* Submit until N frames are in, then drain what is still in flight (the GPU's). */
	for (;;) {
		struct jd_frame_stats st;
		int feeding = !stop_requested && !ended && (frames == 0 || d.frame < frames);

		if (!feeding && d.inflight == 0) {
			break;
		}
		/* someone watches and a picture is due: the GPU composes the next one (if it can) */
		int picture_due =
		    o.preview.port && feeding && jd_preview_wants(&preview, jd_clock_ns());
		int gpu_picture =
		    picture_due && jd_engine_gpu_preview_want(&d.engine, d.min_conf, colour_far);
		/* what the outputs read of the next frame; the rest may stay on the GPU */
		d.want_back =
		    dump_requested || (picture_due && !gpu_picture) ? JD_CUDA_BACK_ALL : 0;
		if (o.ros2.enabled) {
			d.want_back |= jd_ros2_want_made(&ros2, &d); /* the GPU makes the rest */
		}
		int mrc = feeding ? jd_daemon_step(&d, &st) : jd_daemon_drain(&d, &st);
		if (hup_seen) {
			hup_seen = 0;
			fprintf(stderr, "jetdepth: SIGHUP ignored: the configuration is read at boot "
					"(restart to apply a new one)\n");
		}

		/*
		 * The loop came round: tell systemd's watchdog (a hung stage stops this), unless
		 * no pair has come for --stall seconds (every frame dropped, the cameras silent):
		 * then the loop is not well, and the watchdog's restart is the way out.
		 */
		uint64_t now_ns = jd_clock_ns();
		if (mrc >= 0) {
			if (stalled) {
				fprintf(stderr, "jetdepth: frame pairs again: the watchdog is told again\n");
				jd_notify_send(&notify, "STATUS=running the frame loop");
			}
			last_pair_ns = now_ns;
			stalled = 0;
		} else if (o.stall_s && !stalled &&
			   now_ns - last_pair_ns >= (uint64_t)o.stall_s * 1000000000ull) {
			stalled = 1;
			fprintf(stderr, "jetdepth: no frame pair for %d s (%s): systemd's watchdog is no "
					"longer told that all is well\n",
				o.stall_s, d.cap.last_drop[0] ? d.cap.last_drop : d.cap.err);
			jd_notify_send(&notify, "STATUS=no frame pair: every frame dropped or the "
						"cameras silent");
		}
		if (!stalled) {
			jd_notify_watchdog(&notify, now_ns);
		}
		if (mrc == -EINPROGRESS) {
			continue; /* a paced camera's frame is not due yet */
		}
		if (mrc == -ENODATA) {
			ended = 1; /* the files camera played everything: finish what is in flight */
			continue;
		}
		if (mrc < 0 && d.camera_failed && mrc != -EAGAIN) {
			/* a camera is gone (or not there yet): reopen with backoff until it is back
			 * or we are stopped */
			int never = d.cap.down;
			if (never && !waiting_said) {
				waiting_said = 1;
				fprintf(stderr, "jetdepth: waiting for the cameras: %s; retrying every "
						"2 s at most\n", d.cap.err);
			} else if (!never && !outages++) {
				fprintf(stderr, "jetdepth: camera lost: %s; reopening\n", d.cap.err);
			}
			jd_notify_send(&notify, never ? "STATUS=waiting for the cameras"
						      : "STATUS=a camera is lost: reopening");
			if (o.preview.port) {
				static char status[2048];
				jd_run_status_json(&d, NULL, done, jd_clock_ns() - t_start, outages,
					    preview.watchers, never ? "waiting_for_cameras" : "camera_lost",
					    o.ros2.enabled ? &ros2 : NULL, NULL, NULL, status,
					    sizeof(status));
				jd_preview_set_status(&preview, status);
			}
			for (int wait_ms = 100; !stop_requested && jd_capture_recover(&d.cap);) {
				struct timespec ts = {wait_ms / 1000, (wait_ms % 1000) * 1000000L};
				nanosleep(&ts, NULL);
				jd_notify_watchdog(&notify, jd_clock_ns()); /* waiting, not stuck */
				wait_ms = wait_ms < 2000 ? wait_ms * 2 : 2000;
			}
			continue;
		}
		int dropped_now = report_drops(&drops, &d.cap, now_ns);
		if (mrc == -EAGAIN) {
			/* no pair this time (a dropped one was said above; a timeout is said once,
			 * then counted) */
			if (!dropped_now && !no_pair++) {
				fprintf(stderr, "jetdepth: no frame pair: %s\n", d.cap.err);
			}
			continue;
		}
		if (mrc < 0) {
			fprintf(stderr, "jetdepth: frame %d: match failed: %s\n", d.frame,
				jd_strerror(mrc));
			rc = JD_EXIT_RUNTIME;
			break;
		}
		if (mrc == 0) {
			continue;
		}
		const char *suspect = jd_pair_verdict_text(d.pair_verdict);
		if (suspect) {
			if (suspect_said != d.pair_verdict) {
				suspect_said = d.pair_verdict;
				fprintf(stderr, "jetdepth: warning: %s: every frame is marked "
						"\"suspect\" until a check passes (check the cameras' "
						"order and the calibration)\n", suspect);
			}
		} else {
			suspect_said = JD_PAIR_OK;
		}
		total_ns += st.match_ns;
		uint64_t now = jd_clock_ns();
		if (done == 0) {
			fprintf(info, "boot: %.0f ms from start to the first frame\n",
				(double)(now - t_boot) / 1e6);
		}
		stats.n++;
		stats.capture += st.capture_ms;
		stats.rectify += st.rectify_ms;
		stats.match += (double)st.match_ns / 1e6;
		stats.confidence += st.confidence_ms;
		stats.sense += st.sense_ms;
		stats.cpu += st.cpu_ms;
		if (o.stats_every > 0 && now - stats.t0 >= (uint64_t)o.stats_every * 1000000000ull) {
			stats_log(&stats, info, &notify, now);
		}
		if (dump_requested && !o.dump_dir[0]) {
			dump_requested = 0;
			fprintf(stderr, "jetdepth: SIGUSR1 ignored: no --dump-dir to write the frame "
					"into\n");
		}
		/* a frame with its map and pair on the host (asked for since the signal) */
		if (dump_requested && st.map && st.left) {
			char err[700];
			dump_requested = 0;
			int nd =
			    jd_dump_frame(o.dump_dir, st.map, st.conf, st.left,
					  d.sensing ? &d.model : NULL, mem.dump, err, sizeof(err));
			if (nd < 0) {
				fprintf(stderr, "jetdepth: dump: %s; no file of this frame was "
						"kept (the loop goes on)\n", err);
			} else {
				fprintf(info, "dump: frame %d, %d file(s) in %s\n", st.frame, nd,
					o.dump_dir);
			}
		}
		/* the frame's report: the JSON line, and /status's "frame" */
		static char line[65536];
		int n = -1;
		double skew[3];
		int has_skew = jd_capture_skew(&d.cap, &skew[0], &skew[1], &skew[2]) == 0;
		if (json || udp || o.preview.port) {
			struct jd_frame_report rep = {jd_capture_source(cam.kind), suspect, st.frame,
						      st.ts_ns,
						      st.capture_ms, st.rectify_ms,
						      (double)st.match_ns / 1e6, st.sense_ms,
						      st.cpu_ms,
						      st.sense, st.sense ? st.tracks : NULL,
						      sense.have_extrinsics ? sense.base_from_camera
									    : NULL,
						      d.calib_dy_px,
						      o.ros2.enabled ? jd_ros2_stamp_ns(&ros2, st.ts_ns)
								     : 0,
						      o.id,
						      (long)getpid(),
						      {d.cap.cam[0].device, d.cap.cam[1].device},
						      has_skew ? skew : NULL};
			n = jd_report_json(&rep, line, sizeof(line));
		}
		if (o.preview.port) {
			static char status[JD_PREVIEW_STATUS_MAX];
			jd_run_status_json(&d, &st, done + 1, jd_clock_ns() - t_start, outages,
				    preview.watchers, "running", o.ros2.enabled ? &ros2 : NULL,
				    has_skew ? skew : NULL, n > 0 ? line : NULL, status,
				    sizeof(status));
			struct jd_preview_frame pf = {st.left,
						      st.map,
						      colour_far,
						      st.sense,
						      st.sense ? st.tracks : NULL,
						      st.conf,
						      d.min_conf,
						      jd_engine_gpu_preview(&d.engine)};
			if (gpu_picture && !pf.rgb) {
				/* the GPU composes it: wait for the frame that has it */
				jd_preview_set_status(&preview, status);
			} else {
				jd_preview_publish(&preview, &pf, status, jd_clock_ns());
			}
		}
		if (o.ros2.enabled) {
			struct jd_ros2_frame rf = jd_ros2_frame_of(&d, &st);
			jd_ros2_offer(&ros2, &rf);
		}
		done++;
		if (json || udp) {
			int prc = n > 0 ? jd_publish(&pub, line, (size_t)n) : 0;
			if (prc && !publish_errors++) {
				fprintf(stderr, "jetdepth: publish: %s (said once, then counted)\n",
					pub.err);
			}
			if (prc == -EPIPE) {
				/* the reader of --json left: nobody reads what follows; stop */
				fprintf(stderr, "jetdepth: --json: stdout cannot be written any more: "
						"stopping\n");
				stop_requested = 1;
				rc = JD_EXIT_RUNTIME;
			}
			if (json) {
				continue;
			}
		}
		printf("frame %4d  %8.1f ms", st.frame, (double)st.match_ns / 1e6);
		if (st.sense) {
			printf("  objects %d  table %s", st.sense->nobjects,
			       st.sense->plane.valid ? "found" : "not found");
		}
		if (st.has_truth) {
			printf("  bad>1px %5.2f%%", st.bad1);
		}
		if (st.has_truth && !st.sense) {
			printf("  invalid %5.2f%%", st.invalid);
		}
		printf("%s\n", suspect ? "  SUSPECT" : "");
	}
	if (!done && rc == JD_EXIT_OK && !stop_requested) {
		/* the cameras ran dry or every pair was dropped: nothing reached the robot */
		fprintf(stderr, "jetdepth: no frame was processed%s%s\n",
			d.cap.last_drop[0] ? "; the last drop: " : "", d.cap.last_drop);
		rc = JD_EXIT_RUNTIME;
	}
	if (done) {
		double wall = (double)(jd_clock_ns() - t_start);

		/* two different numbers: how long a frame takes, how many went through */
		fprintf(info,
			"%d frame(s), mean latency %.1f ms (match, submit to result), loop rate "
			"%.1f fps over %.1f s (each camera's delivery rate below)\n",
			done, (double)total_ns / 1e6 / done, 1e9 * done / wall, wall / 1e9);
	}
	for (int i = 0; i < 2; i++) {
		const struct jd_camera *c = &d.cap.cam[i];
		char rate[32] = "rate: under 1 s of frames";
		if (c->stats.fps > 0) {
			snprintf(rate, sizeof(rate), "%.1f fps", c->stats.fps);
		}
		fprintf(info, "camera %s %s: %lu frame(s), %s, %lu flagged, %lu timeout(s), %lu reopen(s)\n",
		       c->label, c->device, c->stats.frames, rate, c->stats.drop_flagged,
		       c->stats.timeouts, c->stats.reopens);
	}
	if (d.cap.drop_corrupt || d.cap.drop_short || no_pair || d.cap.pair.drops[0] ||
	    d.cap.pair.drops[1]) {
		fprintf(info, "dropped: %lu corrupt, %lu short or flagged, %lu partner(s) of those, "
		       "%lu+%lu unpaired (left+right); %d time(s) without a pair\n",
		       d.cap.drop_corrupt, d.cap.drop_short, d.cap.drop_partner, d.cap.pair.drops[0],
		       d.cap.pair.drops[1], no_pair);
		if (d.cap.last_drop[0]) {
			fprintf(info, "last drop: %s\n", d.cap.last_drop);
		}
	}
	if (outages) {
		fprintf(info, "camera outages: %d\n", outages);
	}
	if (publish_errors) {
		fprintf(stderr,
			"jetdepth: publish: %lu of %d frame(s) reached every output; stdout: %lu "
			"line(s) written, %lu lost; udp: %lu datagram(s) sent, %lu send error(s)\n",
			pub.sent, done, pub.out_sent, pub.out_errors, pub.udp_sent, pub.send_errors);
		if (pub.out_errors && rc == JD_EXIT_OK) {
			rc = JD_EXIT_RUNTIME; /* frames the caller asked for on stdout were lost */
		}
	}
	if (o.ros2.enabled) {
		struct jd_ros2_counters rc2;
		jd_ros2_stop(&ros2); /* publishes what is pending first */
		jd_ros2_counters(&ros2, &rc2);
		fprintf(info, "ros2: %lu of %lu frame(s) published (%lu replaced by a newer one), "
			      "%lu write error(s), %lu other writer(s) on these topics; mean ms: "
			      "offer %.2f, compose %.2f, write %.2f\n",
			rc2.published, rc2.offered, rc2.replaced, rc2.write_errors, rc2.rivals,
			rc2.offered ? rc2.offer_ms / rc2.offered : 0.0,
			rc2.published ? rc2.compose_ms / rc2.published : 0.0,
			rc2.published ? rc2.write_ms / rc2.published : 0.0);
	}
	jd_preview_stop(&preview);
	jd_notify_send(&notify, "STOPPING=1");
	jd_notify_deinit(&notify);
	jd_publish_deinit(&pub);
	jd_daemon_deinit(&d);
	if ((fflush(stdout) || ferror(stdout)) && !json) {
		fprintf(stderr, "jetdepth: stdout: %s: lines of this run were lost\n",
			strerror(errno));
		rc = rc ? rc : JD_EXIT_RUNTIME;
	}
	return rc;
}
