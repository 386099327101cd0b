#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../algo/geometry/pair_check.h"
#include "../../algo/jd_status.h"
#include "../../hal/clock.h"
#include "../../hal/sd_notify.h"
#include "../formats/calib_yaml.h"
#include "../loop/daemon.h"
#include "cli.h"
#include "commands.h"
#include "run_options.h"
#include "run_log.h"
#include "run_outputs.h"
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

/* Boot the loop's inputs: the calibration the cameras are rectified with. @return JD_EXIT_* */
static int load_calibration(struct jd_run_options *o)
{
	static struct jd_stereo_calib calib;
	const char *files[2] = {o->calib[0], o->calib[1]};
	char err[600];

	if (!o->ncalib) {
		return JD_EXIT_OK;
	}
	if (o->cam.kind == JD_CAPTURE_SYNTH) {
		fprintf(stderr,
			"jetdepth: --calib %s: the synthetic camera renders rectified frames "
			"of its own rig and takes no calibration (a calibration is for "
			"--camera files:DIR or v4l2:)\n",
			files[0]);
		return JD_EXIT_USAGE;
	}
	if (jd_calib_load(files, o->ncalib, &calib, err, sizeof(err)) ||
	    jd_calib_fits(&calib, files, o->ncalib, o->w, o->h, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: %s\n", err);
		return JD_EXIT_RUNTIME;
	}
	o->cam.calib = &calib;
	return JD_EXIT_OK;
}

/* The loop's own state between steps: what it has said, counted and told systemd. */
struct run_loop {
	const struct jd_run_options *o;
	struct jd_daemon *d;
	struct jd_run_outputs *outs;
	FILE *info;
	struct jd_notify notify;
	struct jd_run_stats stats;
	struct jd_run_drops drops;
	uint64_t t_boot, t_start, last_pair_ns, total_ns;
	long long done; /* 64-bit: a daemon runs for years */
	int no_pair, ended, outages;
	enum jd_pair_verdict suspect_said; /* the verdict last warned about */
	int waiting_said;		   /* "waiting for the cameras" was said */
	int stalled; /* no pair for --stall seconds: the watchdog is not told */
};

/*
 * The loop came round: tell systemd's watchdog (a hung stage stops this), unless no pair has
 * come for --stall seconds (every frame dropped, the cameras silent): then the loop is not
 * well, and the watchdog's restart is the way out.
 */
static void tell_watchdog(struct run_loop *l, int mrc, uint64_t now_ns)
{
	const struct jd_capture *cap = jd_daemon_cameras(l->d);
	int stall_s = l->o->stall_s;

	/* a paced camera whose next frame is not due yet is a healthy loop, not a stall */
	if (mrc >= 0 || mrc == -EINPROGRESS) {
		if (l->stalled) {
			fprintf(stderr,
				"jetdepth: frame pairs again: the watchdog is told again\n");
			jd_notify_send(&l->notify, "STATUS=running the frame loop");
		}
		l->last_pair_ns = now_ns;
		l->stalled = 0;
	} else if (stall_s && !l->stalled &&
		   now_ns - l->last_pair_ns >= (uint64_t)stall_s * 1000000000ull) {
		l->stalled = 1;
		fprintf(stderr,
			"jetdepth: no frame pair for %d s (%s): systemd's watchdog is no "
			"longer told that all is well\n",
			stall_s,
			cap->last_drop[0] ? cap->last_drop
			: cap->err[0]	  ? cap->err
					  : "the cameras sent nothing");
		jd_notify_send(&l->notify, "STATUS=no frame pair: every frame dropped or the "
					   "cameras silent");
	}
	if (!l->stalled) {
		jd_notify_watchdog(&l->notify, now_ns);
	}
}

/* A camera is gone (or not there yet): reopen with backoff until it is back or we stop. */
static void await_cameras(struct run_loop *l)
{
	const struct jd_capture *cap = jd_daemon_cameras(l->d);
	int never = cap->down;

	if (never && !l->waiting_said) {
		l->waiting_said = 1;
		fprintf(stderr,
			"jetdepth: waiting for the cameras: %s; retrying every 2 s at most\n",
			cap->err);
	} else if (!never && !l->outages++) {
		fprintf(stderr, "jetdepth: camera lost: %s; reopening\n", cap->err);
	}
	jd_notify_send(&l->notify, never ? "STATUS=waiting for the cameras"
					 : "STATUS=a camera is lost: reopening");
	struct jd_run_tally t = {l->done, jd_clock_ns() - l->t_start, l->outages};
	jd_run_outputs_idle(l->outs, never ? "waiting_for_cameras" : "camera_lost", &t);
	for (int wait_ms = 100; !stop_requested && jd_daemon_recover(l->d);) {
		struct timespec ts = {wait_ms / 1000, (wait_ms % 1000) * 1000000L};
		nanosleep(&ts, NULL);
		jd_notify_watchdog(&l->notify, jd_clock_ns()); /* waiting, not stuck */
		wait_ms = wait_ms < 2000 ? wait_ms * 2 : 2000;
	}
}

/* The pair check's warning for this frame (NULL: in order), said when it changes. */
static const char *suspect_of(struct run_loop *l, enum jd_pair_verdict verdict)
{
	const char *suspect = jd_pair_verdict_text(verdict);

	if (!suspect) {
		l->suspect_said = JD_PAIR_OK;
	} else if (l->suspect_said != verdict) {
		l->suspect_said = verdict;
		fprintf(stderr,
			"jetdepth: warning: %s: every frame is marked \"suspect\" until a "
			"check passes (check the cameras' order and the calibration)\n",
			suspect);
	}
	return suspect;
}

/* A collected frame: counted, logged, handed to every output. */
static void frame_done(struct run_loop *l, const struct jd_frame_stats *st,
		       enum jd_pair_verdict verdict)
{
	const char *suspect = suspect_of(l, verdict);
	uint64_t now = jd_clock_ns();

	l->total_ns += st->match_ns;
	if (l->done == 0) {
		fprintf(l->info, "boot: %.0f ms from start to the first frame\n",
			(double)(now - l->t_boot) / 1e6);
	}
	jd_run_stats_add(&l->stats, st);
	if (l->o->stats_every > 0 &&
	    now - l->stats.t0 >= (uint64_t)l->o->stats_every * 1000000000ull) {
		jd_run_stats_log(&l->stats, l->info, &l->notify, now);
	}
	if (dump_requested && !l->o->dump_dir[0]) {
		dump_requested = 0;
		fprintf(stderr,
			"jetdepth: SIGUSR1 ignored: no --dump-dir to write the frame into\n");
	}
	struct jd_run_tally t = {l->done + 1, jd_clock_ns() - l->t_start, l->outages};
	jd_run_outputs_frame(l->outs, st, suspect, &t);
	l->done++;
}

/* Submit until N frames are in, then drain what is still in flight (the GPU's). */
static int run_loop(struct run_loop *l)
{
	const struct jd_run_options *o = l->o;

	for (;;) {
		struct jd_frame_stats st;
		struct jd_daemon_progress pr;

		jd_daemon_progress(l->d, &pr);
		int feeding = !stop_requested && !l->outs->stop && !l->ended &&
			      (o->frames == 0 || pr.submitted < o->frames);
		if (!feeding && pr.in_flight == 0) {
			return JD_EXIT_OK;
		}
		/* what the outputs read of the next frame; the rest may stay on the GPU */
		jd_daemon_bring_back(l->d, jd_run_outputs_want(l->outs, feeding, jd_clock_ns()));
		int mrc = feeding ? jd_daemon_step(l->d, &st) : jd_daemon_drain(l->d, &st);
		if (hup_seen) {
			hup_seen = 0;
			fprintf(stderr,
				"jetdepth: SIGHUP ignored: the configuration is read at boot "
				"(restart to apply a new one)\n");
		}
		jd_daemon_progress(l->d, &pr);
		uint64_t now_ns = jd_clock_ns();
		tell_watchdog(l, mrc, now_ns);
		if (mrc == -EINPROGRESS) {
			continue; /* a paced camera's frame is not due yet */
		}
		if (mrc == -ENODATA) {
			l->ended =
			    1; /* the files camera played everything: finish what is in flight */
			continue;
		}
		if (mrc < 0 && pr.camera_failed && mrc != -EAGAIN) {
			await_cameras(l);
			continue;
		}
		const struct jd_capture *cap = jd_daemon_cameras(l->d);
		int dropped_now = jd_run_drops_say(&l->drops, cap, now_ns);
		if (mrc == -EAGAIN) {
			/* no pair this time (a dropped one was said above; a timeout is said once,
			 * then counted) */
			if (!dropped_now && !l->no_pair++) {
				fprintf(stderr, "jetdepth: no frame pair: %s\n", cap->err);
			}
			continue;
		}
		if (mrc < 0) {
			fprintf(stderr, "jetdepth: frame %lld: match failed: %s\n", pr.submitted,
				jd_strerror(mrc));
			return JD_EXIT_RUNTIME;
		}
		if (mrc == 1) {
			frame_done(l, &st, pr.pair_verdict);
		}
	}
}

/* Options, calibration, outputs' checks, then the daemon and the outputs on it. */
static int boot(struct run_loop *l, struct jd_run_options *o, int argc, char **argv)
{
	static struct jd_run_outputs outs;
	int rc = jd_run_options_load(o, argc, argv);

	if (rc || o->help) {
		return rc ? rc : -1;
	}
	const struct jd_match_params *p = &o->p;
	struct jd_board *bp = o->have_board ? &o->board : NULL;
	l->o = o;
	l->outs = &outs;
	l->info = o->json ? stderr : stdout; /* stdout carries only frames with --json */
	if ((rc = jd_cli_validate(p, o->w, o->h))) {
		return rc;
	}
	fprintf(l->info, "jetdepth run: board %s, %s camera %dx%d, %s, ndisp %d, %d thread(s)\n",
		bp ? bp->name : "(built-in defaults)", jd_capture_source(o->cam.kind), o->w, o->h,
		jd_algo_name(p->algo), p->ndisp, o->threads);
	if (jd_sense_cli_model_alone(&o->sense, o->ncalib ? "--calib"
						: o->cam.kind == JD_CAPTURE_SYNTH
						    ? "the synthetic camera"
						    : NULL)) {
		return JD_EXIT_USAGE;
	}
	if ((o->sense.have_focal != o->sense.have_baseline) && jd_sense_cli_check(&o->sense)) {
		return JD_EXIT_USAGE;
	}
	if (jd_sense_cli_fits(&o->sense, o->w, o->h)) {
		return JD_EXIT_USAGE;
	}
	size_t app_bytes;
	if ((rc = load_calibration(o)) ||
	    (rc = jd_run_outputs_check(&outs, o, l->info, &app_bytes))) {
		return rc; /* an output that fails its check closes what it opened */
	}
	outs.dump_requested = &dump_requested;
	struct jd_boot_choices choices = {0};
	if (jd_cli_boot_choices(&choices)) { /* $JD_BACKEND: a runtime failure, as match's */
		jd_run_outputs_stop(&outs);
		return JD_EXIT_RUNTIME;
	}
	struct jd_daemon_opts dopts = {.cam = &o->cam,
				       .sense = &o->sense,
				       .choices = &choices,
				       .board = bp,
				       .app_bytes = app_bytes,
				       .ros2 = o->ros2.enabled,
				       .preview = o->preview.port != 0};
	/* With --json, stdout carries only the frames: boot's log goes to stderr. */
	if (jd_daemon_init(&l->d, p, o->w, o->h, o->threads, &dopts, l->info)) {
		jd_run_outputs_stop(&outs);
		return JD_EXIT_RUNTIME;
	}
	if ((rc = jd_run_outputs_start(&outs, l->d))) {
		jd_daemon_deinit(l->d);
		return rc;
	}
	if (jd_notify_init(&l->notify)) {
		fprintf(stderr,
			"jetdepth: NOTIFY_SOCKET=%s: not a socket path; systemd is not told\n",
			getenv("NOTIFY_SOCKET"));
	}
	if (l->notify.watchdog_bad) {
		fprintf(
		    stderr,
		    "jetdepth: WATCHDOG_USEC=%s: not a whole number of microseconds from 1 to "
		    "86400000000; systemd's watchdog is not told (set WatchdogSec= in the unit)\n",
		    getenv("WATCHDOG_USEC"));
	}
	jd_notify_send(&l->notify, "READY=1\nSTATUS=booted, running the frame loop");
	return 0;
}

int jd_cmd_run(int argc, char **argv)
{
	/* stdout gets a static buffer so the first printf in the loop does not malloc one. */
	static char outbuf[4096];
	static struct jd_run_options o;
	static struct run_loop l;
	int rc;

	l = (struct run_loop){.t_boot = jd_clock_ns(), .suspect_said = JD_PAIR_OK};
	setvbuf(stdout, outbuf, _IOLBF, sizeof(outbuf));
	/*
	 * Before anything else: a signal during boot (a dump request, a reload, a stop) is
	 * noted, never the default action that ends the process. A stop during boot ends the
	 * run before its first frame.
	 */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGUSR1, on_signal);
	/* SIGHUP does not reload (the pools are sized for the boot configuration): said, ignored */
	signal(SIGHUP, on_signal);
	/* a closed stdout or a file-size limit is an error on that write, not the end of the daemon
	 */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	rc = boot(&l, &o, argc, argv);
	if (rc) {
		return rc < 0 ? JD_EXIT_OK : rc; /* -1: --help said */
	}
	l.stats.t0 = l.t_start = l.last_pair_ns = jd_clock_ns();
	rc = run_loop(&l);
	const struct jd_capture *cap = jd_daemon_cameras(l.d);
	if (!l.done && rc == JD_EXIT_OK && !stop_requested) {
		/* the cameras ran dry or every pair was dropped: nothing reached the robot */
		fprintf(stderr, "jetdepth: no frame was processed%s%s\n",
			cap->last_drop[0] ? "; the last drop: " : "", cap->last_drop);
		rc = JD_EXIT_RUNTIME;
	}
	jd_run_summary(l.info, l.d, l.done, l.total_ns, jd_clock_ns() - l.t_start, l.no_pair,
		       l.outages);
	jd_run_outputs_stop(l.outs);
	rc = rc ? rc : l.outs->rc;
	jd_notify_send(&l.notify, "STOPPING=1");
	jd_notify_deinit(&l.notify);
	jd_daemon_deinit(l.d);
	if ((fflush(stdout) || ferror(stdout)) && !o.json) {
		fprintf(stderr, "jetdepth: stdout: %s: lines of this run were lost\n",
			strerror(errno));
		rc = rc ? rc : JD_EXIT_RUNTIME;
	}
	return rc;
}
