/* The ROS 2 publisher over Cyclone DDS (app/ros2/ros2.h): entities at boot, one thread. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dds/dds.h>

#include "../../algo/jd_carve.h"
#include "../../hal/clock.h"
#include "ddsc_api.h"
#include "ros2.h"
#include "ros2_msgs.h"
#include "ros2_rivals.h"

/* Cyclone's calls, loaded at jd_ros2_start() (app/ros2/ddsc_api.h) */
static const struct jd_ddsc *dds;

/* The ROS 2 domain ids a participant may use on Linux (ROS 2's "Domain ID" guide). */
#define MAX_DOMAIN_ID 232

enum topic {
	T_IMAGE,
	T_LEFT_INFO,
	T_RIGHT_INFO,
	T_DISPARITY,
	T_DEPTH,
	T_CONFIDENCE,
	T_POINTS,
	T_OBJECTS,
	T_TABLE,
	T_MARKERS,
	T_COUNT
};

/* sensor: best effort, keep last 1 (images, depth, cloud: the newest is what matters);
 * reliable: keep last 10 (objects); latched: reliable, transient local (camera info) */
enum qos_kind { Q_SENSOR, Q_RELIABLE, Q_LATCHED };

static const struct topic_def {
	const char *name;
	const dds_topic_descriptor_t *type;
	enum qos_kind qos;
	int heavy;	 /* composed only while subscribed */
	int needs_model; /* needs the camera model (focal length, baseline) */
} topics[T_COUNT] = {
    [T_IMAGE] = {"left/image_rect", &sensor_msgs_msg_dds__Image__desc, Q_SENSOR, 1, 0},
    [T_LEFT_INFO] = {"left/camera_info", &sensor_msgs_msg_dds__CameraInfo__desc, Q_LATCHED, 0, 1},
    [T_RIGHT_INFO] = {"right/camera_info", &sensor_msgs_msg_dds__CameraInfo__desc, Q_LATCHED, 0, 1},
    [T_DISPARITY] = {"disparity", &stereo_msgs_msg_dds__DisparityImage__desc, Q_SENSOR, 1, 0},
    [T_DEPTH] = {"depth", &sensor_msgs_msg_dds__Image__desc, Q_SENSOR, 1, 1},
    [T_CONFIDENCE] = {"confidence", &sensor_msgs_msg_dds__Image__desc, Q_SENSOR, 1, 0},
    [T_POINTS] = {"points", &sensor_msgs_msg_dds__PointCloud2__desc, Q_SENSOR, 1, 1},
    [T_OBJECTS] = {"objects", &vision_msgs_msg_dds__Detection3DArray__desc, Q_RELIABLE, 0, 1},
    [T_TABLE] = {"table", &geometry_msgs_msg_dds__PoseStamped__desc, Q_RELIABLE, 0, 1},
    [T_MARKERS] = {"markers", &visualization_msgs_msg_dds__MarkerArray__desc, Q_RELIABLE, 0, 1},
};

/* One frame as offered: what the subscribed topics need. */
struct slot {
	long frame;
	uint64_t stamp_ns;
	int has_left, has_disp, has_conf, has_sense, has_tracks;
	uint8_t *left, *conf;
	float *disp;
	struct jd_sense_result sense;
	struct jd_track_info tracks[JD_SENSE_MAX_OBJECTS];
	struct jd_ros2_made made; /* lent until published or replaced (release: held) */
};

struct impl {
	struct jd_ros2_config cfg;
	struct jd_ros2_rig rig;
	int64_t realtime_offset_ns; /* CLOCK_REALTIME - CLOCK_MONOTONIC at the last frame */
	uint64_t stamped_capture_ns, stamped_ns; /* the last frame's capture time and its stamp */
	dds_entity_t participant, topic[T_COUNT], writer[T_COUNT];
	struct slot slot[2];
	int ready;   /* the slot waiting to be published, or -1 */
	int reading; /* the slot the thread publishes from, or -1 */
	int stopping;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
	int want[T_COUNT]; /* subscribed (or compose_always); the thread writes, the loop reads */
	struct jd_ros2_rivals rivals; /* the thread polls it */
	struct jd_ros2_counters cnt;
	struct jd_ros2_msgs msgs;
	float *disp_f32, *depth_f32, *points;
};

static void layout(struct jd_carve *c, int w, int h, struct impl **im, uint8_t *left[2],
		   uint8_t *conf[2], float *disp[2], float **disp_f32, float **depth_f32,
		   float **points)
{
	size_t npix = (size_t)w * h;

	*im = jd_carve(c, sizeof(struct impl));
	for (int k = 0; k < 2; k++) {
		left[k] = jd_carve(c, npix);
		conf[k] = jd_carve(c, npix);
		disp[k] = jd_carve(c, npix * sizeof(float));
	}
	*disp_f32 = jd_carve(c, npix * sizeof(float));
	*depth_f32 = jd_carve(c, npix * sizeof(float));
	*points = jd_carve(c, npix * JD_ROS2_POINT_BYTES);
	/* the float points are carved at jd_carve's alignment */
}

size_t jd_ros2_mem_required(int w, int h)
{
	struct jd_carve c;
	struct impl *im;
	uint8_t *left[2], *conf[2];
	float *disp[2], *df, *zf, *points;

	jd_carve_init(&c, NULL, 0);
	layout(&c, w, h, &im, left, conf, disp, &df, &zf, &points);
	return jd_carve_total(&c);
}

const char *jd_ros2_not_built(void)
{
	return NULL;
}

static int64_t realtime_offset(void)
{
	struct timespec rt;
	uint64_t m0 = jd_clock_ns();
	clock_gettime(CLOCK_REALTIME, &rt);
	uint64_t m1 = jd_clock_ns();
	return (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec - (int64_t)(m0 / 2 + m1 / 2);
}

uint64_t jd_ros2_stamp_ns(struct jd_ros2 *r, uint64_t capture_ns)
{
	struct impl *im = r->impl;

	if (!im) {
		return capture_ns;
	}
	if (im->stamped_capture_ns == capture_ns && im->stamped_ns) {
		return im->stamped_ns; /* one stamp a frame: the messages' and the JSON's agree */
	}
	/*
	 * The wall clock as it is now: a Jetson without a real-time clock boots in the past and
	 * steps when NTP or a GPS fix comes; every stamp after the step follows it (the
	 * monotonic capture time keeps the frames' spacing). A step is said once each.
	 */
	int64_t now = realtime_offset(), step = now - im->realtime_offset_ns;
	if (step > 100000000 || step < -100000000) {
		fprintf(stderr,
			"jetdepth: ros2: the wall clock stepped by %+.3f s: stamps follow it "
			"from this frame on\n",
			(double)step / 1e9);
	}
	im->realtime_offset_ns = now;
	im->stamped_capture_ns = capture_ns;
	im->stamped_ns = (uint64_t)((int64_t)capture_ns + now);
	return im->stamped_ns;
}

static dds_qos_t *make_qos(enum qos_kind kind)
{
	dds_qos_t *q = dds->create_qos();
	/* ROS 2 speaks XCDR1 (CDR little-endian, encapsulation 0x0001) */
	dds_data_representation_id_t xcdr1 = DDS_DATA_REPRESENTATION_XCDR1;

	dds->qset_data_representation(q, 1, &xcdr1);
	if (kind == Q_SENSOR) {
		dds->qset_reliability(q, DDS_RELIABILITY_BEST_EFFORT, 0);
		dds->qset_history(q, DDS_HISTORY_KEEP_LAST, 1);
		dds->qset_durability(q, DDS_DURABILITY_VOLATILE);
	} else {
		/* never hold the publishing thread long behind a slow reader */
		dds->qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_MSECS(10));
		dds->qset_history(q, DDS_HISTORY_KEEP_LAST, kind == Q_LATCHED ? 1 : 10);
		dds->qset_durability(q, kind == Q_LATCHED ? DDS_DURABILITY_TRANSIENT_LOCAL
							  : DDS_DURABILITY_VOLATILE);
	}
	return q;
}

static int dds_fail(struct jd_ros2 *r, const char *what, dds_return_t rc)
{
	snprintf(r->err, sizeof(r->err), "--ros2: %s: %s", what, dds->strretcode(rc));
	return -EIO;
}

/* ROS_DOMAIN_ID, as ROS 2 reads it (unset or empty: 0). */
static int domain_id(struct jd_ros2 *r, dds_domainid_t *out)
{
	const char *s = getenv("ROS_DOMAIN_ID");
	char *end;

	*out = 0;
	if (!s || !*s) {
		return 0;
	}
	long v = strtol(s, &end, 10);
	if (*end || v < 0 || v > MAX_DOMAIN_ID) {
		snprintf(r->err, sizeof(r->err),
			 "ROS_DOMAIN_ID=%s: not a ROS 2 domain id (0 to %d)", s, MAX_DOMAIN_ID);
		return -EINVAL;
	}
	*out = (dds_domainid_t)v;
	return 0;
}

static int create_entities(struct jd_ros2 *r, struct impl *im)
{
	dds_domainid_t domain;
	int rc = domain_id(r, &domain);
	if (rc) {
		return rc;
	}
	const char *uri = getenv("CYCLONEDDS_URI");
	static char config[8192];
	char why[300];
	if (jd_ros2_discovery(config, sizeof(config), r->discovery, sizeof(r->discovery), why,
			      sizeof(why))) {
		snprintf(r->err, sizeof(r->err), "ros2: %s", why);
		return -EINVAL;
	}
	if (config[0]) {
		dds_entity_t dom = dds->create_domain(domain, config);
		if (dom < 0) {
			return dds_fail(r,
					"the DDS domain (Cyclone's line above says why; check the "
					"network interfaces, ROS_STATIC_PEERS and CYCLONEDDS_URI)",
					dom);
		}
	}
	/* ROS 2 tools read the enclave from the participant's user data, as rmw_cyclonedds sets */
	dds_qos_t *pq = dds->create_qos();
	static const char enclave[] = "enclave=/;";
	dds->qset_userdata(pq, enclave, sizeof(enclave) - 1);
	dds->qset_entity_name(pq, "jetdepth");
	im->participant = dds->create_participant(domain, pq, NULL);
	dds->delete_qos(pq);
	if (im->participant < 0) {
		return dds_fail(r,
				uri && *uri ? "the DDS participant (check CYCLONEDDS_URI)"
					    : "the DDS participant",
				im->participant);
	}
	(void)jd__ros2_rivals_start(&im->rivals, dds, im->participant, im->cfg.ns);
	for (int t = 0; t < T_COUNT; t++) {
		const struct topic_def *d = &topics[t];
		char name[2 * JD_ROS2_NAME_MAX + 64];

		if (d->needs_model && !im->rig.have_model) {
			continue;
		}
		/* ROS 2's topic /<ns>/<name> is the DDS topic rt/<ns>/<name> */
		snprintf(name, sizeof(name), "rt/%s%s%s", im->cfg.ns, im->cfg.ns[0] ? "/" : "",
			 d->name);
		dds_qos_t *q = make_qos(d->qos);
		im->topic[t] = dds->create_topic(im->participant, d->type, name, q, NULL);
		if (im->topic[t] >= 0) {
			im->writer[t] = dds->create_writer(im->participant, im->topic[t], q, NULL);
		}
		dds->delete_qos(q);
		if (im->topic[t] < 0 || im->writer[t] < 0) {
			char what[sizeof(name) + 32];
			snprintf(what, sizeof(what), "topic %s", name + 2);
			return dds_fail(r, what, im->topic[t] < 0 ? im->topic[t] : im->writer[t]);
		}
	}
	return 0;
}

/* Which topics someone reads now (the heavy ones are composed only then). */
static void refresh_subscribed(struct impl *im)
{
	int n = 0;

	for (int t = 0; t < T_COUNT; t++) {
		dds_publication_matched_status_t st;
		int sub =
		    im->writer[t] > 0 &&
		    dds->get_publication_matched_status(im->writer[t], &st) == DDS_RETCODE_OK &&
		    st.current_count > 0;
		n += sub;
		__atomic_store_n(&im->want[t], sub || im->cfg.compose_always, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&im->cnt.subscribed, n, __ATOMIC_RELAXED);
	__atomic_store_n(&im->cnt.rivals, jd__ros2_rivals_poll(&im->rivals, dds, stderr),
			 __ATOMIC_RELAXED);
}

static int wants(const struct impl *im, enum topic t)
{
	return im->writer[t] > 0 && __atomic_load_n(&im->want[t], __ATOMIC_RELAXED);
}

/* One frame's figures, added to the counters under the lock. */
struct frame_cost {
	uint64_t write_ns;
	unsigned long errors;
};

static void write_one(struct impl *im, enum topic t, const void *sample, struct frame_cost *fc)
{
	uint64_t t0 = jd_clock_ns();
	fc->errors += dds->write(im->writer[t], sample) < 0;
	fc->write_ns += jd_clock_ns() - t0;
}

/* Release what a frame was lent, once. */
static void give_back(struct jd_ros2_made *m)
{
	if (m->release) {
		m->release(m->token);
	}
	memset(m, 0, sizeof(*m));
}

/* Compose and write one frame's messages (the thread). */
static void publish(struct impl *im, struct slot *s)
{
	struct jd_ros2_msgs *m = &im->msgs;
	const struct jd_ros2_rig *rig = &im->rig;
	int w = rig->width, h = rig->height;
	struct jd_disp disp = {s->disp, w, h, w};
	struct jd_image left = {s->left, w, h, w};
	uint64_t t0 = jd_clock_ns();
	struct frame_cost fc = {0, 0};

	jd_ros2_msgs_stamp(m, s->stamp_ns);
	if (rig->have_model) {
		for (int i = 0; i < 2; i++) {
			jd_ros2_camera_info(m, rig, i);
			write_one(im, i ? T_RIGHT_INFO : T_LEFT_INFO, &m->info[i], &fc);
		}
	}
	if (s->has_left && wants(im, T_IMAGE)) {
		jd_ros2_mono8(m, &m->image, s->left, w, h);
		write_one(im, T_IMAGE, &m->image, &fc);
	}
	if (s->has_disp && wants(im, T_DISPARITY)) {
		jd_ros2_disparity(m, rig, &disp, im->disp_f32);
		write_one(im, T_DISPARITY, &m->disparity, &fc);
	}
	if (s->made.depth && wants(im, T_DEPTH)) {
		jd_ros2_depth_of(m, s->made.depth, w, h);
		write_one(im, T_DEPTH, &m->depth, &fc);
	} else if (s->has_disp && wants(im, T_DEPTH)) {
		jd_ros2_depth(m, rig, &disp, im->depth_f32);
		write_one(im, T_DEPTH, &m->depth, &fc);
	}
	if (s->has_conf && wants(im, T_CONFIDENCE)) {
		jd_ros2_mono8(m, &m->confidence, s->conf, w, h);
		write_one(im, T_CONFIDENCE, &m->confidence, &fc);
	}
	if (s->made.points && wants(im, T_POINTS)) {
		jd_ros2_cloud_of(m, s->made.points, s->made.npoints);
		write_one(im, T_POINTS, &m->cloud, &fc);
	} else if (s->has_disp && s->has_left && wants(im, T_POINTS)) {
		jd_ros2_cloud(m, rig, &disp, &left, im->points);
		write_one(im, T_POINTS, &m->cloud, &fc);
	}
	if (s->has_sense && im->writer[T_OBJECTS] > 0) {
		const struct jd_track_info *tr = s->has_tracks ? s->tracks : NULL;
		jd_ros2_detections(m, &s->sense, tr);
		write_one(im, T_OBJECTS, &m->detections, &fc);
		if (jd_ros2_table(m, &s->sense) == 0) {
			write_one(im, T_TABLE, &m->table, &fc);
		}
		jd_ros2_markers(m, &s->sense, tr);
		write_one(im, T_MARKERS, &m->markers, &fc);
	}
	uint64_t t1 = jd_clock_ns();
	pthread_mutex_lock(&im->lock);
	im->cnt.write_errors += fc.errors;
	im->cnt.write_ms += (double)fc.write_ns / 1e6;
	im->cnt.compose_ms += (double)(t1 - t0 - fc.write_ns) / 1e6;
	im->cnt.published++;
	pthread_mutex_unlock(&im->lock);
}

static void *thread_main(void *arg)
{
	struct impl *im = arg;

	for (;;) {
		pthread_mutex_lock(&im->lock);
		while (im->ready < 0 && !im->stopping) {
			pthread_cond_wait(&im->wake, &im->lock);
		}
		if (im->ready < 0) { /* stopping, nothing pending */
			pthread_mutex_unlock(&im->lock);
			return NULL;
		}
		im->reading = im->ready;
		im->ready = -1;
		pthread_mutex_unlock(&im->lock);
		publish(im, &im->slot[im->reading]);
		give_back(&im->slot[im->reading].made);
		pthread_mutex_lock(&im->lock);
		im->reading = -1;
		pthread_mutex_unlock(&im->lock);
		refresh_subscribed(im);
	}
}

int jd_ros2_start(struct jd_ros2 *r, const struct jd_ros2_config *c, const struct jd_ros2_rig *rig,
		  void *mem, size_t bytes)
{
	struct jd_carve cv;
	struct impl *im;
	uint8_t *left[2], *conf[2];
	float *disp[2], *df, *zf, *points;

	r->impl = NULL;
	r->err[0] = '\0';
	memset(&r->last, 0, sizeof(r->last));
	int rc = jd_ddsc_load(&dds, r->err, sizeof(r->err));
	if (rc) {
		return rc;
	}
	jd_carve_init(&cv, mem, bytes);
	layout(&cv, rig->width, rig->height, &im, left, conf, disp, &df, &zf, &points);
	if (cv.overflow || !im) {
		snprintf(r->err, sizeof(r->err),
			 "--ros2: %zu bytes of boot memory given, %zu needed", bytes,
			 jd_ros2_mem_required(rig->width, rig->height));
		return -ENOMEM;
	}
	memset(im, 0, sizeof(*im));
	im->cfg = *c;
	im->rig = *rig;
	im->ready = im->reading = -1;
	for (int k = 0; k < 2; k++) {
		im->slot[k].left = left[k];
		im->slot[k].conf = conf[k];
		im->slot[k].disp = disp[k];
	}
	im->disp_f32 = df;
	im->depth_f32 = zf;
	im->points = points;
	im->realtime_offset_ns = realtime_offset();
	jd_ros2_msgs_init(&im->msgs, c->frame_id);
	rc = create_entities(r, im);
	if (rc) {
		if (im->participant > 0) {
			dds->delete_entity(im->participant);
		}
		dds->delete_entity(DDS_CYCLONEDDS_HANDLE);
		return rc;
	}
	refresh_subscribed(im);
	pthread_mutex_init(&im->lock, NULL);
	pthread_cond_init(&im->wake, NULL);
	rc = pthread_create(&im->thread, NULL, thread_main, im);
	if (rc) {
		snprintf(r->err, sizeof(r->err), "--ros2: the publishing thread: %s", strerror(rc));
		dds->delete_entity(DDS_CYCLONEDDS_HANDLE);
		return -rc;
	}
	r->impl = im;
	return 0;
}

int jd_ros2_wants_made(const struct jd_ros2 *r)
{
	struct impl *im = r->impl;

	if (!im || !im->rig.have_model) {
		return 0; /* no camera model: no depth or cloud */
	}
	return (wants(im, T_DEPTH) ? JD_ROS2_MAKE_DEPTH : 0) |
	       (wants(im, T_POINTS) ? JD_ROS2_MAKE_POINTS : 0);
}

int jd_ros2_wants_read(const struct jd_ros2 *r)
{
	struct impl *im = r->impl;

	if (!im) {
		return 0;
	}
	return (wants(im, T_IMAGE) ? JD_ROS2_READ_LEFT : 0) |
	       (wants(im, T_DISPARITY) ? JD_ROS2_READ_MAP : 0) |
	       (wants(im, T_CONFIDENCE) ? JD_ROS2_READ_CONF : 0);
}

void jd_ros2_offer(struct jd_ros2 *r, const struct jd_ros2_frame *f)
{
	struct impl *im = r->impl;
	struct jd_ros2_made made = f->made;
	if (!im) {
		give_back(&made);
		return;
	}
	uint64_t t0 = jd_clock_ns();
	/* what was made need not be composed from the map (nor the map and the left copied) */
	int depth = wants(im, T_DEPTH) && !made.depth;
	int points = wants(im, T_POINTS) && !made.points;
	int images = wants(im, T_IMAGE) || points;
	int disp = wants(im, T_DISPARITY) || depth || points;

	/* a slot the thread is not reading; a frame still waiting there is replaced */
	pthread_mutex_lock(&im->lock);
	int k = im->reading >= 0 ? 1 - im->reading : (im->ready >= 0 ? im->ready : 0);
	im->cnt.replaced += im->ready >= 0;
	im->ready = -1;
	pthread_mutex_unlock(&im->lock);

	struct slot *s = &im->slot[k];
	int w = im->rig.width, h = im->rig.height;
	give_back(&s->made); /* the replaced frame's */
	if ((made.depth && wants(im, T_DEPTH)) || (made.points && wants(im, T_POINTS))) {
		s->made = made;
	} else {
		give_back(&made);
	}
	s->frame = f->frame;
	s->stamp_ns = jd_ros2_stamp_ns(r, f->capture_ns);
	s->has_left = images && f->left;
	if (s->has_left) {
		struct jd_image dst = {s->left, w, h, w};
		jd_image_copy(f->left, &dst);
	}
	s->has_disp = disp && f->disp;
	for (int y = 0; s->has_disp && y < h; y++) {
		memcpy(s->disp + (size_t)y * w, jd_disp_row(f->disp, y), sizeof(float) * w);
	}
	s->has_conf = wants(im, T_CONFIDENCE) && f->conf;
	if (s->has_conf) {
		memcpy(s->conf, f->conf, (size_t)w * h);
	}
	s->has_sense = f->sense != NULL;
	if (f->sense) {
		s->sense.plane = f->sense->plane;
		s->sense.nobjects = f->sense->nobjects;
		s->sense.truncated = f->sense->truncated;
		memcpy(s->sense.objects, f->sense->objects,
		       sizeof(struct jd_object) * (size_t)f->sense->nobjects);
	}
	s->has_tracks = f->sense && f->tracks;
	if (s->has_tracks) {
		memcpy(s->tracks, f->tracks,
		       sizeof(struct jd_track_info) * (size_t)f->sense->nobjects);
	}
	pthread_mutex_lock(&im->lock);
	im->ready = k;
	im->cnt.offered++;
	im->cnt.offer_ms += (double)(jd_clock_ns() - t0) / 1e6;
	pthread_cond_signal(&im->wake);
	pthread_mutex_unlock(&im->lock);
}

void jd_ros2_counters(const struct jd_ros2 *r, struct jd_ros2_counters *out)
{
	struct impl *im = r->impl;
	if (!im) {
		*out = r->last;
		return;
	}
	pthread_mutex_lock(&im->lock);
	*out = im->cnt;
	pthread_mutex_unlock(&im->lock);
}

void jd_ros2_stop(struct jd_ros2 *r)
{
	struct impl *im = r ? r->impl : NULL;
	if (!im) {
		return;
	}
	pthread_mutex_lock(&im->lock);
	im->stopping = 1;
	pthread_cond_signal(&im->wake);
	pthread_mutex_unlock(&im->lock);
	pthread_join(im->thread, NULL);
	for (int k = 0; k < 2; k++) {
		give_back(&im->slot[k].made);
	}
	r->last = im->cnt;
	/* the participant, its topics and writers, and the domain: Cyclone's whole state */
	dds->delete_entity(DDS_CYCLONEDDS_HANDLE);
	pthread_mutex_destroy(&im->lock);
	pthread_cond_destroy(&im->wake);
	r->impl = NULL;
}
