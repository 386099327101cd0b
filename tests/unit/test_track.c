/* Object tracks (algo/sense/track.h): ids that stay with moving objects, velocities, ends, new ids.
 */
#include <math.h>
#include <string.h>

#include "jd_test.h"
#include "track.h"

static struct jd_sense_result res;

static void put(int i, float x, float y, float z)
{
	res.plane.valid = 1;
	res.objects[i].footprint_mm[0] = x;
	res.objects[i].footprint_mm[1] = y;
	res.objects[i].footprint_mm[2] = z;
}

int main(void)
{
	static struct jd_tracker tr;
	struct jd_track_info info[JD_SENSE_MAX_OBJECTS];
	uint64_t ms = 1000000;

	jd_tracker_init(&tr);
	res.nobjects = 2;
	put(0, 0, 0, 800);
	put(1, 200, 0, 800);
	jd_tracker_update(&tr, &res, 1000 * ms, info);
	JD_CHECK(info[0].id == 1 && info[1].id == 2 && info[0].age == 1, "new ids %d %d",
		 info[0].id, info[1].id);

	/* 100 ms later both moved 5 mm in x and came in the other order */
	put(0, 205, 0, 800);
	put(1, 5, 0, 800);
	jd_tracker_update(&tr, &res, 1100 * ms, info);
	JD_CHECK(info[0].id == 2 && info[1].id == 1 && info[1].age == 2,
		 "the ids follow the objects: %d %d", info[0].id, info[1].id);
	JD_CHECK(fabsf(info[1].vel_mm_s[0] - 50.0f) < 0.5f && fabsf(info[1].vel_mm_s[1]) < 0.5f,
		 "velocity %.1f mm/s (50)", (double)info[1].vel_mm_s[0]);

	/* one leaves the view, a new one comes far away: a new id; the other keeps its own */
	res.nobjects = 2;
	put(0, 10, 0, 800);
	put(1, -300, 100, 700);
	jd_tracker_update(&tr, &res, 1200 * ms, info);
	JD_CHECK(info[0].id == 1 && info[1].id == 3, "kept %d, new %d", info[0].id, info[1].id);

	/* the one that left is forgotten after JD_TRACK_MAX_MISSED frames, then is new */
	res.nobjects = 1;
	put(0, 15, 0, 800);
	for (int f = 0; f <= JD_TRACK_MAX_MISSED; f++) {
		jd_tracker_update(&tr, &res, (1300 + 100 * (uint64_t)f) * ms, info);
	}
	JD_CHECK(info[0].id == 1, "still 1: %d", info[0].id);
	res.nobjects = 2;
	put(1, 215, 0, 800);
	jd_tracker_update(&tr, &res, 2000 * ms, info);
	JD_CHECK(info[1].id == 4, "the returning object is new: %d", info[1].id);

	/* a jump beyond the gate is another object */
	res.nobjects = 1;
	put(0, 400, 300, 900);
	jd_tracker_update(&tr, &res, 2100 * ms, info);
	JD_CHECK(info[0].id == 5, "a jump is a new object: %d", info[0].id);

	/* more objects than free slots: the rest are untracked (id 0), nothing overflows */
	jd_tracker_init(&tr);
	res.nobjects = JD_SENSE_MAX_OBJECTS;
	for (int i = 0; i < JD_SENSE_MAX_OBJECTS; i++) {
		put(i, (float)(i * 100), 0, 800);
	}
	jd_tracker_update(&tr, &res, 3000 * ms, info);
	JD_CHECK(info[JD_SENSE_MAX_OBJECTS - 1].id == JD_SENSE_MAX_OBJECTS, "64 tracks");
	return jd_test_done("unit.track");
}
