/*
 * Stable object identities across frames for a robot arm: each frame's objects (algo/sense/sense.h)
 * are matched to the tracks of the frames before by nearest footprint centre (or centroid
 * without a table) within a gate, greedily from the closest pair; matched tracks move, keep
 * their id and age, and get a velocity; unmatched objects start tracks with new ids; tracks
 * missed for JD_TRACK_MAX_MISSED frames end. A bounded table in the caller's memory (boot):
 * no allocation. Deterministic: the same frames give the same ids.
 */
#ifndef JD_ALGO_TRACK_H
#define JD_ALGO_TRACK_H

#include <stdint.h>

#include "sense.h"

#define JD_TRACK_MAX 64
#define JD_TRACK_MAX_MISSED 5
/* An object matches a track within this distance (mm), plus how far the track may have moved. */
#define JD_TRACK_GATE_MM 40.0f

struct jd_track {
	int id;		   /* 0: the slot is free */
	float pos_mm[3];   /* where it was last seen (camera frame) */
	float vel_mm_s[3]; /* smoothed velocity */
	uint64_t seen_ns;  /* when it was last seen */
	int age;	   /* frames it has been seen in */
	int missed;	   /* frames since */
};

struct jd_tracker {
	struct jd_track t[JD_TRACK_MAX];
	int next_id;
};

/* What the tracker says about one object of the frame (same index as the objects). */
struct jd_track_info {
	int id, age;
	float vel_mm_s[3];
};

void jd_tracker_init(struct jd_tracker *tr);

/**
 * Match the frame's objects (taken at ts_ns) to the tracks and update them; info[i] is
 * object i's. Objects beyond JD_TRACK_MAX free slots get id 0 (untracked).
 */
void jd_tracker_update(struct jd_tracker *tr, const struct jd_sense_result *res, uint64_t ts_ns,
		       struct jd_track_info info[JD_SENSE_MAX_OBJECTS]);

#endif
