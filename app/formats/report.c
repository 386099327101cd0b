#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "../../algo/geometry/pair_check.h"
#include "extrinsics.h"

struct out {
	char *buf;
	size_t len, pos;
	int overflow;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->overflow) {
		return;
	}
	va_start(ap, fmt);
	int n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->pos) {
		o->overflow = 1;
		return;
	}
	o->pos += (size_t)n;
}

/* JSON has no inf or NaN: those become null. */
static void num(struct out *o, double v)
{
	if (isfinite(v)) {
		put(o, "%.6g", v);
	} else {
		put(o, "null");
	}
}

/* A JSON array of numbers. */
static void arr(struct out *o, const float *v, int n)
{
	put(o, "[");
	for (int i = 0; i < n; i++) {
		if (i) {
			put(o, ",");
		}
		num(o, v[i]);
	}
	put(o, "]");
}

/* An object's positions, and its footprint's long axis, in the robot's base frame. */
static void base_frame(struct out *o, const double *m, const struct jd_plane *p,
		       const struct jd_object *b)
{
	float v[3];

	put(o, ",\"base\":{\"centroid_mm\":");
	jd_extrinsics_point(m, b->centroid_mm, v);
	arr(o, v, 3);
	if (p->valid) {
		float c = cosf(b->yaw_deg * (float)M_PI / 180.0f);
		float s = sinf(b->yaw_deg * (float)M_PI / 180.0f), axis[3];
		for (int i = 0; i < 3; i++) {
			axis[i] = c * p->e1[i] + s * p->e2[i];
		}
		put(o, ",\"footprint_center_mm\":");
		jd_extrinsics_point(m, b->footprint_mm, v);
		arr(o, v, 3);
		put(o, ",\"top_mm\":");
		jd_extrinsics_point(m, b->top_mm, v);
		arr(o, v, 3);
		put(o, ",\"long_axis\":");
		jd_extrinsics_dir(m, axis, v);
		arr(o, v, 3);
		put(o, ",\"table_normal\":");
		jd_extrinsics_dir(m, p->n, v);
		arr(o, v, 3);
	}
	put(o, "}");
}

/* The calibration monitor: the rectified rows' residual offset, and whether it is too much. */
static void calibration(struct out *o, const struct jd_frame_report *r)
{
	put(o, ",\"calibration\":{\"vertical_offset_px\":");
	num(o, r->vertical_offset_px);
	put(o, ",\"recalibrate\":%s}",
	    jd_pair_recalibrate(r->vertical_offset_px) ? "true" : "false");
}

/* s as a JSON string: quotes, backslashes and control bytes escaped. */
static void put_string(struct out *o, const char *s)
{
	put(o, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			put(o, "\\%c", c);
		} else if (c < 0x20) {
			put(o, "\\u%04x", c);
		} else {
			put(o, "%c", c);
		}
	}
	put(o, "\"");
}

/* Where the frame came from and whether its depth is suspect, then the object's end. */
static void provenance(struct out *o, const struct jd_frame_report *r)
{
	if (r->source) {
		put(o, ",\"source\":\"%s\"", r->source);
	}
	if (r->daemon_id) {
		put(o, ",\"daemon\":{\"id\":\"%s\",\"pid\":%ld}", r->daemon_id, r->pid);
	}
	if (r->camera[0] && r->camera[1]) {
		put(o, ",\"cameras\":[");
		put_string(o, r->camera[0]);
		put(o, ",");
		put_string(o, r->camera[1]);
		put(o, "]");
	}
	if (r->pair_skew_ms) {
		put(o, ",\"pair_skew_ms\":{\"last\":");
		num(o, r->pair_skew_ms[0]);
		put(o, ",\"median\":");
		num(o, r->pair_skew_ms[1]);
		put(o, ",\"p99\":");
		num(o, r->pair_skew_ms[2]);
		put(o, "}");
	}
	if (r->suspect) {
		put(o, ",\"suspect\":\"%s\"", r->suspect);
	}
	put(o, "}\n");
}

int jd_report_json(const struct jd_frame_report *r, char *buf, size_t len)
{
	struct out o = {buf, len, 0, 0};

	put(&o, "{\"frame\":%ld,\"timestamp_ns\":%llu,", r->frame, (unsigned long long)r->ts_ns);
	if (r->ros_stamp_ns) {
		/* the ROS 2 messages' header.stamp of this frame: JSON and topics side by side */
		put(&o, "\"ros_stamp\":{\"sec\":%llu,\"nanosec\":%llu},",
		    (unsigned long long)(r->ros_stamp_ns / 1000000000u),
		    (unsigned long long)(r->ros_stamp_ns % 1000000000u));
	}
	put(&o, "\"latency_ms\":{\"capture\":");
	num(&o, r->capture_ms);
	put(&o, ",\"rectify\":");
	num(&o, r->rectify_ms);
	put(&o, ",\"match\":");
	num(&o, r->match_ms);
	put(&o, ",\"sense\":");
	num(&o, r->sense_ms);
	put(&o, "},\"cpu_ms\":");
	num(&o, r->cpu_ms);
	if (!r->sense) {
		put(&o, ",\"table\":null,\"objects\":null");
		calibration(&o, r);
		provenance(&o, r);
		return o.overflow ? -1 : (int)o.pos;
	}
	const struct jd_plane *p = &r->sense->plane;
	if (p->valid) {
		const float abc[3] = {p->a, p->b, p->c};
		put(&o, ",\"table\":{\"disparity_plane\":");
		arr(&o, abc, 3);
		put(&o, ",\"normal\":");
		arr(&o, p->n, 3);
		put(&o, ",\"distance_mm\":");
		num(&o, p->k_mm);
		put(&o, ",\"tilt_deg\":");
		num(&o, p->tilt_deg);
		put(&o, ",\"inliers\":%ld,\"roi_share\":", p->inliers);
		num(&o, p->roi_share);
		put(&o, ",\"residual_px\":");
		num(&o, p->residual_px);
		put(&o, "}");
	} else {
		/* no table, and why: the plane that was best, if any, and its support */
		put(&o,
		    ",\"table\":null,\"no_table\":{\"reason\":\"%s\",\"inliers\":%ld,"
		    "\"roi_share\":",
		    jd_table_verdict_name(p->verdict), p->inliers);
		num(&o, p->roi_share);
		put(&o, ",\"residual_px\":");
		num(&o, p->residual_px);
		put(&o, "}");
	}
	put(&o, ",\"objects\":[");
	for (int i = 0; i < r->sense->nobjects; i++) {
		const struct jd_object *b = &r->sense->objects[i];
		put(&o, "%s{\"id\":%d,\"area_px\":%ld,\"bbox\":[%d,%d,%d,%d],\"centroid_px\":",
		    i ? "," : "", b->id, b->area_px, b->bbox[0], b->bbox[1], b->bbox[2],
		    b->bbox[3]);
		arr(&o, b->centroid_px, 2);
		put(&o, ",\"median_disparity\":");
		num(&o, b->median_disp);
		put(&o, ",\"centroid_mm\":");
		arr(&o, b->centroid_mm, 3);
		put(&o, ",\"distance_mm\":");
		num(&o, b->distance_mm);
		put(&o, ",\"height_mm\":");
		num(&o, b->height_mm);
		put(&o, ",\"size_mm\":");
		arr(&o, b->size_mm, 2);
		if (p->valid) {
			put(&o, ",\"footprint\":{\"center_mm\":");
			arr(&o, b->footprint_mm, 3);
			put(&o, ",\"yaw_deg\":");
			num(&o, b->yaw_deg);
			put(&o, ",\"length_mm\":");
			num(&o, b->length_mm);
			put(&o, ",\"width_mm\":");
			num(&o, b->width_mm);
			put(&o, "},\"top_mm\":");
			arr(&o, b->top_mm, 3);
		}
		put(&o, ",\"quality\":");
		num(&o, b->quality);
		put(&o, ",\"cut\":%s", b->cut ? "true" : "false");
		if (r->tracks) {
			put(&o,
			    ",\"track\":{\"id\":%d,\"age\":%d,\"velocity_mm_s\":", r->tracks[i].id,
			    r->tracks[i].age);
			arr(&o, r->tracks[i].vel_mm_s, 3);
			put(&o, "}");
		}
		if (r->base_from_camera) {
			base_frame(&o, r->base_from_camera, p, b);
		}
		put(&o, "}");
	}
	put(&o, "],\"truncated\":%s", r->sense->truncated ? "true" : "false");
	calibration(&o, r);
	provenance(&o, r);
	return o.overflow ? -1 : (int)o.pos;
}
