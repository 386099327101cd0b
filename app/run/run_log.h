/*
 * What `jetdepth run` says about its loop on the console: the stats line every --stats
 * seconds (also systemd's STATUS), the dropped frames as they happen, and the summary at the
 * end. Fixed memory: nothing allocates.
 */
#ifndef JD_APP_RUN_LOG_H
#define JD_APP_RUN_LOG_H

#include <stdint.h>
#include <stdio.h>

#include "../../hal/sd_notify.h"
#include "../loop/daemon.h"

/* Per-stage latency over a logging period. */
struct jd_run_stats {
	int n;
	double capture, rectify, match, confidence, sense, cpu;
	uint64_t t0;
};

void jd_run_stats_add(struct jd_run_stats *s, const struct jd_frame_stats *st);

/** Say the period's means (f and systemd's STATUS), then begin a new period at now. */
void jd_run_stats_log(struct jd_run_stats *s, FILE *f, struct jd_notify *notify, uint64_t now);

/*
 * Dropped frames are said as they happen, each with its reason, up to a few lines a second;
 * beyond that (a flood: a broken stream) only a count a second is said, until a second
 * passes without a drop.
 */
struct jd_run_drops {
	unsigned long seen; /* drops counted by capture when last looked at */
	unsigned long said; /* drops already said or summed up */
	uint64_t t;	    /* when this second began */
	int lines;	    /* lines said in it */
	int flood;	    /* the last second overflowed: counts only */
};

/** Say the cameras' new drops (stderr). @return 1 when frames were dropped since the last call */
int jd_run_drops_say(struct jd_run_drops *r, const struct jd_capture *c, uint64_t now);

/** The run's summary at the end: frames, latency and rate, each camera, the drops. */
void jd_run_summary(FILE *info, const struct jd_daemon *d, long long done, uint64_t total_ns,
		    uint64_t wall_ns, int no_pair, int outages);

#endif
