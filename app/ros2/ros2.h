/*
 * ROS 2 topics straight from the daemon (Eclipse Cyclone DDS, the DDS of rmw_cyclonedds; no
 * ROS install needed): the rectified left image, both camera infos, disparity, depth,
 * confidence, the point cloud, the objects, the table and RViz markers, with ROS 2's names
 * (rt/<ns>/<topic>, <pkg>::msg::dds_::<Type>_), XCDR1 and QoS (docs/ros2.md).
 *
 * The frame loop offers each frame with jd_ros2_offer(): it copies what the subscribed topics
 * need into one of two slots carved at boot (the latest frame wins; the loop never waits) and
 * wakes the publishing thread, which composes the messages in boot memory and writes them.
 * Heavy topics (images, depth, cloud) are composed only while someone subscribes.
 * Built when Cyclone DDS is found (app/ros2/ros2_none.c otherwise: --ros2 then says so).
 */
#ifndef JD_APP_ROS2_H
#define JD_APP_ROS2_H

#include <stddef.h>
#include <stdint.h>

#include "../../algo/jd_image.h"
#include "../../algo/sense/sense.h"
#include "../../algo/sense/track.h"

#define JD_ROS2_NAME_MAX 128

struct jd_ros2_config {
	int enabled;			 /* --ros2 */
	char ns[JD_ROS2_NAME_MAX];	 /* --ros-namespace: topics under /<ns>/ ("" the root) */
	char frame_id[JD_ROS2_NAME_MAX]; /* --ros-frame-id: the rectified left camera's frame */
	int compose_always; /* compose every topic without subscribers (bench --pipeline) */
};

/** The defaults: off, namespace "jetdepth", frame "jetdepth_left_optical". */
void jd_ros2_default(struct jd_ros2_config *c);

/** NULL when this build publishes ROS 2 topics (Cyclone DDS was found), else why not. */
const char *jd_ros2_not_built(void);

/**
 * Check the namespace and frame id as ROS 2 names (letters, digits, '_' and '/' between
 * tokens; no token starting with a digit). The namespace's leading and trailing '/' are
 * dropped. @retval 0, or -EINVAL with err naming the option and the value
 */
int jd_ros2_check(struct jd_ros2_config *c, char *err, size_t errlen);

/** The rectified rig the topics describe. */
struct jd_ros2_rig {
	int width, height;
	int have_model; /* without a camera model: no depth, cloud, camera info or objects */
	struct jd_camera_model cam;
	float min_disp, max_disp; /* the matcher's range (DisparityImage) */
};

/*
 * Depth and the cloud made for a frame already (the GPU's, hal/cuda/cloud_cuda.h), lent: the
 * publisher calls release(token) once it no longer reads them (published, replaced by a newer
 * frame, or not wanted). A NULL pointer: not made, the thread composes it from the map.
 */
struct jd_ros2_made {
	const float *depth;  /* w x h, metres, NaN where none (jd_depth_image_ref()) */
	const float *points; /* npoints x JD_CLOUD_POINT_FLOATS (jd_point_cloud_ref(), metres) */
	long npoints;
	void (*release)(void *token);
	void *token;
};

/** One frame, as the loop has it; jd_ros2_offer() copies what it needs. */
struct jd_ros2_frame {
	long frame;
	uint64_t capture_ns; /* CLOCK_MONOTONIC (the cameras' clock) */
	const struct jd_image *left;
	const struct jd_disp *disp;	     /* pixels below the confidence threshold invalid */
	const uint8_t *conf;		     /* width bytes a row, or NULL */
	const struct jd_sense_result *sense; /* NULL: not sensed */
	const struct jd_track_info *tracks;  /* per object of sense, or NULL */
	struct jd_ros2_made made;	     /* all zero: nothing made */
};

/* What the subscribers want made for each frame (jd_ros2_wants_made()). */
enum { JD_ROS2_MAKE_DEPTH = 1, JD_ROS2_MAKE_POINTS = 2 };

/* What the subscribed topics read of each frame as it is (jd_ros2_wants_read()). */
enum { JD_ROS2_READ_LEFT = 1, JD_ROS2_READ_MAP = 2, JD_ROS2_READ_CONF = 4 };

/* What the publisher did (its thread's figures, read at any time). */
struct jd_ros2_counters {
	unsigned long offered;	 /* frames the loop offered */
	unsigned long published; /* frames the thread published */
	unsigned long replaced;	 /* offered frames a newer one replaced before publishing */
	unsigned long write_errors;
	double offer_ms;      /* the loop's copy, summed */
	double compose_ms;    /* the thread's message composition, summed */
	double write_ms;      /* dds_write (serialization and delivery), summed */
	int subscribed;	      /* topics with at least one subscriber now */
	unsigned long rivals; /* other participants' writers seen on our topics */
};

struct jd_ros2 {
	void *impl;		      /* in the boot memory given to jd_ros2_start() */
	struct jd_ros2_counters last; /* the counters at jd_ros2_stop() */
	char discovery[512];	      /* how peers are found, for the boot log */
	char err[512];
};

/**
 * The Cyclone configuration for ROS 2's discovery settings in the environment
 * (ROS_AUTOMATIC_DISCOVERY_RANGE, ROS_STATIC_PEERS, ROS_LOCALHOST_ONLY; CYCLONEDDS_URI
 * appended) into xml ("" leaves Cyclone to read CYCLONEDDS_URI itself), and what it means
 * into said. @retval 0 or -EINVAL with err naming the variable and the value
 */
int jd_ros2_discovery(char *xml, size_t cap, char *said, size_t saidlen, char *err, size_t errlen);

/** Bytes jd_ros2_start() takes for w x h frames. */
size_t jd_ros2_mem_required(int w, int h);

/**
 * Boot: create the DDS participant (ROS_DOMAIN_ID; discovery as jd_ros2_discovery() says),
 * the topics and writers, and the publishing thread.
 * @retval 0, or -errno with r->err saying why (-ENOSYS: not built in)
 */
int jd_ros2_start(struct jd_ros2 *r, const struct jd_ros2_config *c, const struct jd_ros2_rig *rig,
		  void *mem, size_t bytes);

/**
 * The ROS time (CLOCK_REALTIME, ns) of a capture time (CLOCK_MONOTONIC), as the messages'
 * stamps carry it: the wall clock as it reads now, so stamps follow a step of it (said once
 * a step on stderr).
 */
uint64_t jd_ros2_stamp_ns(struct jd_ros2 *r, uint64_t capture_ns);

/** JD_ROS2_MAKE_* bits: the topics made per pixel that are subscribed now (0: off). */
int jd_ros2_wants_made(const struct jd_ros2 *r);

/**
 * JD_ROS2_READ_* bits: what the topics subscribed now copy from the frame offered (the
 * image, the disparity, the confidence); depth and the cloud are jd_ros2_wants_made()'s.
 */
int jd_ros2_wants_read(const struct jd_ros2 *r);

/**
 * Offer a frame (the loop: copies, wakes the thread, never blocks on DDS). What f->made lends
 * is released here when not wanted, else by the thread.
 */
void jd_ros2_offer(struct jd_ros2 *r, const struct jd_ros2_frame *f);

/** The counters now (after jd_ros2_stop(): at the stop). */
void jd_ros2_counters(const struct jd_ros2 *r, struct jd_ros2_counters *out);

/** Publish what is pending, stop the thread, delete the DDS entities. */
void jd_ros2_stop(struct jd_ros2 *r);

#endif
