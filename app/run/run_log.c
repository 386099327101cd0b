#include "run_log.h"

#include <stdio.h>

void jd_run_stats_add(struct jd_run_stats *s, const struct jd_frame_stats *st)
{
	s->n++;
	s->capture += st->capture_ms;
	s->rectify += st->rectify_ms;
	s->match += (double)st->match_ns / 1e6;
	s->confidence += st->confidence_ms;
	s->sense += st->sense_ms;
	s->cpu += st->cpu_ms;
}

void jd_run_stats_log(struct jd_run_stats *s, FILE *f, struct jd_notify *notify, uint64_t now)
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
	*s = (struct jd_run_stats){.t0 = now};
}

#define DROP_LINES 5 /* a second, before only counts are said */

int jd_run_drops_say(struct jd_run_drops *r, const struct jd_capture *c, uint64_t now)
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

void jd_run_summary(FILE *info, const struct jd_daemon *d, long long done, uint64_t total_ns,
		    uint64_t wall_ns, int no_pair, int outages)
{
	const struct jd_capture *cap = jd_daemon_cameras(d);

	if (done) {
		double wall = (double)wall_ns;

		/* two different numbers: how long a frame takes, how many went through */
		fprintf(info,
			"%lld frame(s), mean latency %.1f ms (match, submit to result), loop rate "
			"%.1f fps over %.1f s (each camera's delivery rate below)\n",
			done, (double)total_ns / 1e6 / done, 1e9 * done / wall, wall / 1e9);
	}
	for (int i = 0; i < 2; i++) {
		const struct jd_camera *c = &cap->cam[i];
		char rate[32] = "rate: under 1 s of frames";
		if (c->stats.fps > 0) {
			snprintf(rate, sizeof(rate), "%.1f fps", c->stats.fps);
		}
		fprintf(
		    info,
		    "camera %s %s: %lu frame(s), %s, %lu flagged, %lu timeout(s), %lu reopen(s)\n",
		    c->label, c->device, c->stats.frames, rate, c->stats.drop_flagged,
		    c->stats.timeouts, c->stats.reopens);
	}
	if (cap->drop_corrupt || cap->drop_short || no_pair || cap->pair.drops[0] ||
	    cap->pair.drops[1]) {
		fprintf(info,
			"dropped: %lu corrupt, %lu short or flagged, %lu partner(s) of those, "
			"%lu+%lu unpaired (left+right); %d time(s) without a pair\n",
			cap->drop_corrupt, cap->drop_short, cap->drop_partner, cap->pair.drops[0],
			cap->pair.drops[1], no_pair);
		if (cap->last_drop[0]) {
			fprintf(info, "last drop: %s\n", cap->last_drop);
		}
	}
	if (outages) {
		fprintf(info, "camera outages: %d\n", outages);
	}
}
