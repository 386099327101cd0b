/*
 * Another writer on jetdepth's topics: a second daemon (or a node) publishing in the same
 * namespace mixes its frames into the robot's streams without a word. The publication
 * announcements DDS discovery delivers (the built-in DCPSPublication topic) are watched for a
 * writer of one of our topic names from another participant; the first one is said, every
 * one counted (jd_ros2_counters.rivals). Internal to app/ros2.
 */
#ifndef JD_APP_ROS2_RIVALS_H
#define JD_APP_ROS2_RIVALS_H

#include "ddsc_api.h"

struct jd_ros2_rivals {
	dds_entity_t reader; /* on DCPSPublication (<= 0: not watching) */
	dds_guid_t self;     /* our participant */
	char prefix[300];    /* "rt/<ns>/": our topics' DDS names start so */
	unsigned long seen;  /* other writers found so far */
};

/** Start watching (boot). @retval 0, or <0 and the daemon runs on without the check */
int jd__ros2_rivals_start(struct jd_ros2_rivals *w, const struct jd_ddsc *dds,
			  dds_entity_t participant, const char *ns);

/** Take what discovery announced; the first rival is said on log. @return rivals so far */
unsigned long jd__ros2_rivals_poll(struct jd_ros2_rivals *w, const struct jd_ddsc *dds, FILE *log);

#endif
