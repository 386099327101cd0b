/*
 * The outputs of `jetdepth run`: the frame dumps on SIGUSR1, the browser preview, ROS 2 topics,
 * the JSON lines (stdout, UDP) and the console's line a frame. Each is a row of one table with
 * the same operations, registered in the order a frame meets them; the run asks the table, never
 * an output by name. What every output shares of a frame (its JSON report, made once) is built
 * here, before the rows see it.
 */
#ifndef JD_APP_RUN_OUTPUTS_H
#define JD_APP_RUN_OUTPUTS_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "../../algo/jd_carve.h"
#include "../loop/daemon.h"
#include "run_options.h"

/* What the run has done so far, for the outputs that report it (the preview's /status). */
struct jd_run_tally {
	long long done;	  /* frames handed to the outputs (64-bit: never wraps) */
	uint64_t wall_ns; /* since the loop began */
	int outages;	  /* times a camera was lost */
};

/* One collected frame, as every output sees it. */
struct jd_run_frame {
	const struct jd_frame_stats *st;
	const char *suspect; /* the pair check's warning (NULL: the pair is in order) */
	const char *line;    /* the frame's JSON report (len <= 0: not made) */
	int len;
	const double *skew; /* the cameras' timestamps apart: last, median, p99 ms (NULL: one) */
	struct jd_run_tally tally; /* done counts this frame */
};

/* The most rows the table holds. */
#define JD_RUN_OUTPUTS_MAX 8

/* What the outputs share; each row's own state is its opaque block (jd_run_output_state()). */
struct jd_run_outputs {
	const struct jd_run_options *o;
	struct jd_daemon *d;
	FILE *info; /* where lines about the run go (stderr with --json) */
	int w, h;
	float colour_far;		       /* the preview's colour map's end: the search's */
	volatile sig_atomic_t *dump_requested; /* SIGUSR1 came: the next frame is dumped */
	int stop;	  /* an output asks the loop to stop (--json's reader left) */
	int rc;		  /* the exit code an output failed with (0: none) */
	unsigned open;	  /* the rows checked and started, a bit each */
	size_t app_bytes; /* their share of the boot memory, counted at check */
	long long frames; /* frames handed to the outputs so far */
	void *state[JD_RUN_OUTPUTS_MAX]; /* each on row's own block, in table order */
	void *state_mem;		 /* all of them, taken once at check */
};

/*
 * One output. Every operation may be NULL (nothing to do); none is called for an output that
 * is not on.
 */
struct jd_run_output {
	const char *name;
	size_t state_bytes; /* its own state: zeroed at check, kept to the end */
	int (*on)(const struct jd_run_options *o);
	/** Its share of the boot memory, carved in table order (c counts first: no base). */
	void (*carve)(struct jd_run_outputs *r, struct jd_carve *c);
	/** Before boot: what can be refused before the cameras open. @return 0 or JD_EXIT_* */
	int (*check)(struct jd_run_outputs *r);
	/** After boot, with its memory. @return 0 or JD_EXIT_* (said why) */
	int (*start)(struct jd_run_outputs *r);
	/** Before each step: what it reads of the next frame (JD_CUDA_BACK_* bits). */
	unsigned (*want)(struct jd_run_outputs *r, int feeding, uint64_t now_ns);
	void (*frame)(struct jd_run_outputs *r, const struct jd_run_frame *f);
	/** No frame comes (state: "waiting_for_cameras" or "camera_lost"). */
	void (*idle)(struct jd_run_outputs *r, const char *state, const struct jd_run_tally *t);
	/** At the end, in reverse order: what it still holds is sent, its counters said. */
	void (*stop)(struct jd_run_outputs *r);
};

/**
 * Before boot: each output's checks (the dump folder, the publisher's socket) and the boot
 * memory they need (for jd_daemon_opts.app_bytes). @return 0 or JD_EXIT_* (said why)
 */
int jd_run_outputs_check(struct jd_run_outputs *r, const struct jd_run_options *o, FILE *info,
			 size_t *app_bytes);

/** After boot: each output on d, with its share of d's app memory. @return 0 or JD_EXIT_* */
int jd_run_outputs_start(struct jd_run_outputs *r, struct jd_daemon *d);

/** Before each step: what the outputs read of the next frame (jd_daemon_bring_back()). */
unsigned jd_run_outputs_want(struct jd_run_outputs *r, int feeding, uint64_t now_ns);

/** A collected frame to every output (its report made once). */
void jd_run_outputs_frame(struct jd_run_outputs *r, const struct jd_frame_stats *st,
			  const char *suspect, const struct jd_run_tally *t);

/** No frame: the loop waits for the cameras. */
void jd_run_outputs_idle(struct jd_run_outputs *r, const char *state, const struct jd_run_tally *t);

/** Stop every open output, last first. */
void jd_run_outputs_stop(struct jd_run_outputs *r);

/** @p row's own state in @p r (its state_bytes), or NULL: the row is off or keeps none. */
void *jd_run_output_state(const struct jd_run_outputs *r, const struct jd_run_output *row);

struct jd_ros2;

/** The ROS 2 row's node, for what reports its clock and counters; NULL when it is off. */
struct jd_ros2 *jd_run_output_ros2_of(const struct jd_run_outputs *r);

#endif
