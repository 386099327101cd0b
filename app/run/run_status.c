#include "run_status.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../algo/geometry/pair_check.h"

/* The preview's /status: what the loop has done, the cameras, the drops, the memory. */
void jd_run_status_json(const struct jd_daemon *d, const struct jd_frame_stats *last,
			long long frames, uint64_t wall_ns, int outages, int streams,
			const char *state, const struct jd_ros2 *ros2, const double *skew,
			const char *frame_json, char *buf, size_t len)
{
	static const struct jd_frame_stats none = {.frame = -1};
	const struct jd_frame_stats *st = last ? last : &none; /* NULL: no frame yet */
	const struct jd_capture *c = jd_daemon_cameras(d);
	struct jd_daemon_progress pr;
	jd_daemon_progress(d, &pr);
	const char *suspect = jd_pair_verdict_text(pr.pair_verdict);
	char dy[32] = "null", skew_text[96] = "null";
	if (skew) { /* two devices: how far apart their timestamps are */
		snprintf(skew_text, sizeof(skew_text),
			 "{\"last\":%.3f,\"median\":%.3f,\"p99\":%.3f}", skew[0], skew[1], skew[2]);
	}
	if (isfinite(pr.calib_dy_px)) {
		snprintf(dy, sizeof(dy), "%.3f", (double)pr.calib_dy_px);
	}
	int n = snprintf(
	    buf, len,
	    "{\"frames\":%lld,\"state\":\"%s\",\"source\":\"%s\",\"fps\":%.2f,"
	    "\"last_frame\":%lld,\"latency_ms\":%.2f,\"cpu_ms\":%.2f,"
	    "\"objects\":%d,\"table\":%s,\"memory_mib\":%.1f,\"outages\":%d,"
	    "\"streams\":%d,\"suspect\":%s%s%s,\"vertical_offset_px\":%s,"
	    "\"recalibrate\":%s,"
	    "\"drops\":{\"corrupt\":%lu,\"short\":%lu,\"partner\":%lu,\"unpaired\":%lu},"
	    "\"pair_skew_ms\":%s,\"cameras\":[",
	    frames, state, jd_capture_source(c->cfg.kind),
	    wall_ns ? 1e9 * frames / (double)wall_ns : 0.0, st->frame, (double)st->match_ns / 1e6,
	    st->cpu_ms, st->sense ? st->sense->nobjects : -1,
	    st->sense && st->sense->plane.valid ? "true" : "false",
	    (double)jd_daemon_info(d)->memory / (1 << 20), outages, streams, suspect ? "\"" : "",
	    suspect ? suspect : "null", suspect ? "\"" : "", dy,
	    jd_pair_recalibrate(pr.calib_dy_px) ? "true" : "false", c->drop_corrupt, c->drop_short,
	    c->drop_partner, c->pair.drops[0] + c->pair.drops[1], skew_text);
	for (int i = 0; i < 2 && n > 0 && (size_t)n < len; i++) {
		const struct jd_camera *cam = &c->cam[i];
		n += snprintf(buf + n, len - (size_t)n,
			      "%s{\"label\":\"%s\",\"device\":\"%s\",\"frames\":%lu,\"fps\":%.2f,"
			      "\"flagged\":%lu,\"timeouts\":%lu,\"reopens\":%lu,\"clock\":%s%s%s,"
			      "\"controls\":{",
			      i ? "," : "", cam->label, cam->device, cam->stats.frames,
			      cam->stats.fps, cam->stats.drop_flagged, cam->stats.timeouts,
			      cam->stats.reopens, cam->stats.clock ? "\"" : "",
			      cam->stats.clock ? cam->stats.clock : "null",
			      cam->stats.clock ? "\"" : "");
		/* as read back at boot: the ones the driver has */
		for (int k = 0, m = 0; k < JD_CTL_COUNT && n > 0 && (size_t)n < len; k++) {
			if (cam->got.set & 1u << k) {
				n += snprintf(
				    buf + n, len - (size_t)n, "%s\"%s\":%d", m++ ? "," : "",
				    jd_cam_control_name((enum jd_cam_control)k), cam->got.value[k]);
			}
		}
		if (n > 0 && (size_t)n < len) {
			n += snprintf(buf + n, len - (size_t)n, "}}");
		}
	}
	if (ros2 && n > 0 && (size_t)n < len) {
		/* the ROS 2 publisher: what went out, and how many topics someone reads */
		struct jd_ros2_counters rc;
		jd_ros2_counters(ros2, &rc);
		n += snprintf(buf + n, len - (size_t)n,
			      "],\"ros2\":{\"offered\":%lu,\"published\":%lu,\"replaced\":%lu,"
			      "\"write_errors\":%lu,\"subscribed_topics\":%d,\"other_writers\":%lu",
			      rc.offered, rc.published, rc.replaced, rc.write_errors, rc.subscribed,
			      rc.rivals);
	}
	if (n > 0 && (size_t)n < len) {
		/* the last frame's report as the robot gets it (its trailing newline dropped) */
		size_t fl = frame_json ? strcspn(frame_json, "\n") : 0;
		n += snprintf(buf + n, len - (size_t)n, "%s%s%.*s}", ros2 ? "}" : "]",
			      fl ? ",\"frame\":" : "", (int)fl, frame_json ? frame_json : "");
	}
}
