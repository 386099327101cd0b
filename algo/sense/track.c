#include "track.h"

#include <limits.h>
#include <math.h>
#include <string.h>

void jd_tracker_init(struct jd_tracker *tr)
{
	memset(tr, 0, sizeof(*tr));
	tr->next_id = 1;
}

/* The point an object is tracked by: its footprint's centre on the table, else its centroid. */
static const float *anchor(const struct jd_sense_result *res, int i)
{
	const struct jd_object *o = &res->objects[i];

	return res->plane.valid ? o->footprint_mm : o->centroid_mm;
}

static float dist3(const float a[3], const float b[3])
{
	float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];

	return sqrtf(dx * dx + dy * dy + dz * dz);
}

/* Where track t should be at ts_ns, and how far it may have gone since it was seen. */
static float predict(const struct jd_track *t, uint64_t ts_ns, float at[3])
{
	float dt = ts_ns > t->seen_ns ? (float)(ts_ns - t->seen_ns) / 1e9f : 0.0f;
	float speed = sqrtf(t->vel_mm_s[0] * t->vel_mm_s[0] + t->vel_mm_s[1] * t->vel_mm_s[1] +
			    t->vel_mm_s[2] * t->vel_mm_s[2]);

	for (int k = 0; k < 3; k++) {
		at[k] = t->pos_mm[k] + t->vel_mm_s[k] * dt;
	}
	return JD_TRACK_GATE_MM + 0.5f * speed * dt;
}

void jd_tracker_update(struct jd_tracker *tr, const struct jd_sense_result *res, uint64_t ts_ns,
		       struct jd_track_info info[JD_SENSE_MAX_OBJECTS])
{
	int n = res->nobjects, taken_t[JD_TRACK_MAX] = {0}, taken_o[JD_SENSE_MAX_OBJECTS] = {0};

	memset(info, 0, sizeof(*info) * JD_SENSE_MAX_OBJECTS);
	/* greedy: the closest (track, object) pair within its gate first, until none is left */
	for (;;) {
		int bt = -1, bo = -1;
		float best = INFINITY;

		for (int t = 0; t < JD_TRACK_MAX; t++) {
			float at[3], gate;
			if (!tr->t[t].id || taken_t[t]) {
				continue;
			}
			gate = predict(&tr->t[t], ts_ns, at);
			for (int i = 0; i < n; i++) {
				float d = taken_o[i] ? INFINITY : dist3(at, anchor(res, i));
				if (d <= gate && d < best) {
					best = d;
					bt = t;
					bo = i;
				}
			}
		}
		if (bt < 0) {
			break;
		}
		struct jd_track *t = &tr->t[bt];
		const float *p = anchor(res, bo);
		float dt = ts_ns > t->seen_ns ? (float)(ts_ns - t->seen_ns) / 1e9f : 0.0f;
		for (int k = 0; k < 3; k++) {
			/* a light low-pass: stereo positions jitter by a few mm a frame */
			float v = dt > 0.0f ? (p[k] - t->pos_mm[k]) / dt : 0.0f;
			t->vel_mm_s[k] = t->age > 1 ? 0.5f * t->vel_mm_s[k] + 0.5f * v : v;
			t->pos_mm[k] = p[k];
		}
		t->seen_ns = ts_ns;
		t->age++;
		t->missed = 0;
		taken_t[bt] = taken_o[bo] = 1;
		info[bo] = (struct jd_track_info){
		    t->id, t->age, {t->vel_mm_s[0], t->vel_mm_s[1], t->vel_mm_s[2]}};
	}
	for (int t = 0; t < JD_TRACK_MAX; t++) {
		if (tr->t[t].id && !taken_t[t] && ++tr->t[t].missed > JD_TRACK_MAX_MISSED) {
			tr->t[t].id = 0; /* gone */
		}
	}
	for (int i = 0; i < n; i++) {
		for (int t = 0; t < JD_TRACK_MAX && !taken_o[i]; t++) {
			if (tr->t[t].id) {
				continue;
			}
			struct jd_track *nt = &tr->t[t];
			memset(nt, 0, sizeof(*nt));
			nt->id = tr->next_id;
			tr->next_id = tr->next_id == INT_MAX ? 1 : tr->next_id + 1;
			memcpy(nt->pos_mm, anchor(res, i), sizeof(nt->pos_mm));
			nt->seen_ns = ts_ns;
			nt->age = 1;
			taken_o[i] = 1;
			info[i] = (struct jd_track_info){nt->id, 1, {0, 0, 0}};
		}
	}
}
