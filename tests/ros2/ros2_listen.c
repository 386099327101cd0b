/*
 * A ROS 2 subscriber written against Cyclone DDS's C API, for the ros2 tests: it reads every
 * topic `jetdepth run --ros2` publishes, with the QoS a ROS 2 node would ask for, and
 *  - checks what it can alone: every topic arrives, stamps increase, frame ids, encodings
 *    and sizes (exit 1 with the reasons);
 *  - writes each sample's serialized bytes (DIR/<topic>.<n>.cdr, encapsulation header
 *    included) and its decoded fields (DIR/samples.jsonl) for tests/ros2/check_cdr.mjs,
 *    which decodes the bytes independently and compares them with the daemon's JSON.
 * usage: ros2_listen DIR NAMESPACE WIDTH HEIGHT FRAME_ID [SECONDS [IDLE]]
 * Stops when every topic has arrived and nothing came for IDLE seconds (1), or after SECONDS
 * (20).
 */
#include <dds/dds.h>
#include <dds/ddsi/ddsi_serdata.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "geometry_msgs.h"
#include "sensor_msgs.h"
#include "stereo_msgs.h"
#include "vision_msgs.h"
#include "visualization_msgs.h"

/* the same host-only discovery the daemon uses by default (set independently here) */
static const char config[] =
    "<CycloneDDS><Domain Id=\"any\"><General><Interfaces><NetworkInterface "
    "address=\"127.0.0.1\"/></Interfaces><AllowMulticast>false</AllowMulticast>"
    "<MaxMessageSize>65500B</MaxMessageSize></General><Discovery><ParticipantIndex>auto"
    "</ParticipantIndex><MaxAutoParticipantIndex>32</MaxAutoParticipantIndex><Peers><Peer "
    "address=\"127.0.0.1\"/></Peers></Discovery><Internal><SocketReceiveBufferSize min=\"8MB\"/>"
    "</Internal></Domain></CycloneDDS>";

enum kind { K_IMAGE, K_INFO, K_DISP, K_CLOUD, K_DET, K_POSE, K_MARKERS };
enum qos { Q_SENSOR, Q_RELIABLE, Q_LATCHED };

static struct topic {
	const char *name, *file;
	const dds_topic_descriptor_t *type;
	enum kind kind;
	enum qos qos;
	const char *encoding; /* images */
	dds_entity_t reader;
	int n; /* samples received */
	int32_t last_sec;
	uint32_t last_nsec;
	void *sample;
} topics[] = {
    {"left/image_rect", "left_image_rect", &sensor_msgs_msg_dds__Image__desc, K_IMAGE, Q_SENSOR,
     "mono8", 0, 0, 0, 0, NULL},
    {"left/camera_info", "left_camera_info", &sensor_msgs_msg_dds__CameraInfo__desc, K_INFO,
     Q_LATCHED, NULL, 0, 0, 0, 0, NULL},
    {"right/camera_info", "right_camera_info", &sensor_msgs_msg_dds__CameraInfo__desc, K_INFO,
     Q_LATCHED, NULL, 0, 0, 0, 0, NULL},
    {"disparity", "disparity", &stereo_msgs_msg_dds__DisparityImage__desc, K_DISP, Q_SENSOR,
     "32FC1", 0, 0, 0, 0, NULL},
    {"depth", "depth", &sensor_msgs_msg_dds__Image__desc, K_IMAGE, Q_SENSOR, "32FC1", 0, 0, 0, 0,
     NULL},
    {"confidence", "confidence", &sensor_msgs_msg_dds__Image__desc, K_IMAGE, Q_SENSOR, "mono8", 0,
     0, 0, 0, NULL},
    {"points", "points", &sensor_msgs_msg_dds__PointCloud2__desc, K_CLOUD, Q_SENSOR, NULL, 0, 0, 0,
     0, NULL},
    {"objects", "objects", &vision_msgs_msg_dds__Detection3DArray__desc, K_DET, Q_RELIABLE, NULL, 0,
     0, 0, 0, NULL},
    {"table", "table", &geometry_msgs_msg_dds__PoseStamped__desc, K_POSE, Q_RELIABLE, NULL, 0, 0, 0,
     0, NULL},
    {"markers", "markers", &visualization_msgs_msg_dds__MarkerArray__desc, K_MARKERS, Q_RELIABLE,
     NULL, 0, 0, 0, 0, NULL},
};
#define NTOPICS (int)(sizeof(topics) / sizeof(topics[0]))

static int failures;
static int W, H;
static const char *frame_id;
static FILE *jsonl, *samples, *devnull; /* jsonl: where describe() writes now */

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond) && failures++ < 20) {                                                  \
			fprintf(stderr, "ros2_listen: " __VA_ARGS__);                              \
			fputc('\n', stderr);                                                       \
		}                                                                                  \
	} while (0)

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint32_t sum8(const uint8_t *p, uint32_t n)
{
	uint32_t s = 0;
	for (uint32_t i = 0; i < n; i++) {
		s += p[i];
	}
	return s;
}

static void header(struct topic *t, const std_msgs_msg_dds__Header_ *h)
{
	fprintf(jsonl,
		"\"header\":{\"stamp\":{\"sec\":%" PRId32 ",\"nanosec\":%" PRIu32
		"},\"frame_id\":\"%s\"}",
		h->stamp.sec, h->stamp.nanosec, h->frame_id);
	CHECK(!strcmp(h->frame_id, frame_id), "%s: frame_id '%s', expected '%s'", t->name,
	      h->frame_id, frame_id);
	CHECK(h->stamp.sec > 1500000000, "%s: stamp %d s: not ROS (wall clock) time", t->name,
	      h->stamp.sec);
	/* stamps never go back; camera info repeats with each frame's stamp */
	int later = h->stamp.sec > t->last_sec ||
		    (h->stamp.sec == t->last_sec && h->stamp.nanosec > t->last_nsec);
	CHECK(t->n == 0 || later, "%s: stamp %d.%09u not after %d.%09u", t->name, h->stamp.sec,
	      h->stamp.nanosec, t->last_sec, t->last_nsec);
	t->last_sec = h->stamp.sec;
	t->last_nsec = h->stamp.nanosec;
}

/* The header of a message inside another (same frame and stamp; not an arrival of its own). */
static void inner_header(const struct topic *t, const std_msgs_msg_dds__Header_ *h)
{
	struct topic inner = *t;
	inner.n = 0;
	header(&inner, h);
}

static void image(struct topic *t, const sensor_msgs_msg_dds__Image_ *m, const char *enc)
{
	int bpp = !strcmp(enc, "32FC1") ? 4 : 1;
	fprintf(jsonl,
		"\"height\":%u,\"width\":%u,\"encoding\":\"%s\",\"is_bigendian\":%u,"
		"\"step\":%u,\"data_length\":%u,\"data_sum\":%u",
		m->height, m->width, m->encoding, m->is_bigendian, m->step, m->data._length,
		sum8(m->data._buffer, m->data._length));
	CHECK(!strcmp(m->encoding, enc), "%s: encoding %s, expected %s", t->name, m->encoding, enc);
	CHECK((int)m->width == W && (int)m->height == H, "%s: %ux%u, expected %dx%d", t->name,
	      m->width, m->height, W, H);
	CHECK(m->step == m->width * (uint32_t)bpp && m->data._length == m->step * m->height,
	      "%s: step %u and %u bytes for %ux%u %s", t->name, m->step, m->data._length, m->width,
	      m->height, enc);
}

static void pose(const geometry_msgs_msg_dds__Pose_ *p)
{
	fprintf(jsonl,
		"{\"position\":{\"x\":%.17g,\"y\":%.17g,\"z\":%.17g},\"orientation\":{\"x\":"
		"%.17g,\"y\":%.17g,\"z\":%.17g,\"w\":%.17g}}",
		p->position.x, p->position.y, p->position.z, p->orientation.x, p->orientation.y,
		p->orientation.z, p->orientation.w);
}

static void vec3(const char *name, double x, double y, double z)
{
	fprintf(jsonl, "\"%s\":{\"x\":%.17g,\"y\":%.17g,\"z\":%.17g}", name, x, y, z);
}

static void doubles(const char *name, const double *v, int n)
{
	fprintf(jsonl, "\"%s\":[", name);
	for (int i = 0; i < n; i++) {
		fprintf(jsonl, "%s%.17g", i ? "," : "", v[i]);
	}
	fputc(']', jsonl);
}

static void roi(const char *name, const sensor_msgs_msg_dds__RegionOfInterest_ *r)
{
	fprintf(jsonl,
		"\"%s\":{\"x_offset\":%u,\"y_offset\":%u,\"height\":%u,\"width\":%u,"
		"\"do_rectify\":%s}",
		name, r->x_offset, r->y_offset, r->height, r->width,
		r->do_rectify ? "true" : "false");
}

/* Decoded fields of one sample as JSON (the names ROS 2's definitions use). */
static void describe(struct topic *t, const void *s)
{
	switch (t->kind) {
	case K_IMAGE: {
		const sensor_msgs_msg_dds__Image_ *m = s;
		header(t, &m->header);
		fputc(',', jsonl);
		image(t, m, t->encoding);
		break;
	}
	case K_INFO: {
		const sensor_msgs_msg_dds__CameraInfo_ *m = s;
		header(t, &m->header);
		fprintf(jsonl, ",\"height\":%u,\"width\":%u,\"distortion_model\":\"%s\",",
			m->height, m->width, m->distortion_model);
		doubles("d", m->d._buffer, (int)m->d._length);
		fputc(',', jsonl);
		doubles("k", m->k, 9);
		fputc(',', jsonl);
		doubles("r", m->r, 9);
		fputc(',', jsonl);
		doubles("p", m->p, 12);
		fprintf(jsonl, ",\"binning_x\":%u,\"binning_y\":%u,", m->binning_x, m->binning_y);
		roi("roi", &m->roi);
		CHECK((int)m->width == W && (int)m->height == H, "%s: %ux%u", t->name, m->width,
		      m->height);
		CHECK(m->k[0] > 0 && m->p[0] == m->k[0], "%s: K[0] %g, P[0] %g", t->name, m->k[0],
		      m->p[0]);
		CHECK(strcmp(t->name, "right/camera_info") ? m->p[3] == 0 : m->p[3] < 0,
		      "%s: P's Tx %g (the right view's is -f * baseline)", t->name, m->p[3]);
		break;
	}
	case K_DISP: {
		const stereo_msgs_msg_dds__DisparityImage_ *m = s;
		header(t, &m->header);
		fputs(",\"image\":{", jsonl);
		inner_header(t, &m->image.header);
		fputc(',', jsonl);
		image(t, &m->image, "32FC1");
		fprintf(jsonl, "},\"f\":%.9g,\"t\":%.9g,", m->f, m->t);
		roi("valid_window", &m->valid_window);
		fprintf(jsonl, ",\"min_disparity\":%.9g,\"max_disparity\":%.9g,\"delta_d\":%.9g",
			m->min_disparity, m->max_disparity, m->delta_d);
		CHECK(m->f > 0 && m->t > 0 && m->max_disparity > m->min_disparity,
		      "%s: f %g, T %g, range %g..%g", t->name, m->f, m->t, m->min_disparity,
		      m->max_disparity);
		break;
	}
	case K_CLOUD: {
		const sensor_msgs_msg_dds__PointCloud2_ *m = s;
		header(t, &m->header);
		fprintf(jsonl, ",\"height\":%u,\"width\":%u,\"fields\":[", m->height, m->width);
		for (uint32_t i = 0; i < m->fields._length; i++) {
			const sensor_msgs_msg_dds__PointField_ *f = &m->fields._buffer[i];
			fprintf(jsonl,
				"%s{\"name\":\"%s\",\"offset\":%u,\"datatype\":%u,\"count\":%u}",
				i ? "," : "", f->name, f->offset, f->datatype, f->count);
		}
		fprintf(jsonl,
			"],\"is_bigendian\":%s,\"point_step\":%u,\"row_step\":%u,"
			"\"data_length\":%u,\"data_sum\":%u,\"is_dense\":%s",
			m->is_bigendian ? "true" : "false", m->point_step, m->row_step,
			m->data._length, sum8(m->data._buffer, m->data._length),
			m->is_dense ? "true" : "false");
		CHECK(m->fields._length == 4 && m->point_step == 16 &&
			  m->data._length == m->row_step * m->height &&
			  m->row_step == m->point_step * m->width && m->width > 0,
		      "%s: %u fields, point_step %u, row_step %u, %u bytes for %ux%u", t->name,
		      m->fields._length, m->point_step, m->row_step, m->data._length, m->width,
		      m->height);
		break;
	}
	case K_DET: {
		const vision_msgs_msg_dds__Detection3DArray_ *m = s;
		header(t, &m->header);
		fputs(",\"detections\":[", jsonl);
		for (uint32_t i = 0; i < m->detections._length; i++) {
			const vision_msgs_msg_dds__Detection3D_ *d = &m->detections._buffer[i];
			fputs(i ? ",{" : "{", jsonl);
			inner_header(t, &d->header);
			fputs(",\"results\":[", jsonl);
			for (uint32_t k = 0; k < d->results._length; k++) {
				const vision_msgs_msg_dds__ObjectHypothesisWithPose_ *h =
				    &d->results._buffer[k];
				fprintf(jsonl,
					"%s{\"hypothesis\":{\"class_id\":\"%s\",\"score\":%.17g},"
					"\"pose\":{\"pose\":",
					k ? "," : "", h->hypothesis.class_id, h->hypothesis.score);
				pose(&h->pose.pose);
				fputc(',', jsonl);
				doubles("covariance", h->pose.covariance, 36);
				fputs("}}", jsonl);
			}
			fputs("],\"bbox\":{\"center\":", jsonl);
			pose(&d->bbox.center);
			fputc(',', jsonl);
			vec3("size", d->bbox.size.x, d->bbox.size.y, d->bbox.size.z);
			fprintf(jsonl, "},\"id\":\"%s\"}", d->id);
			CHECK(d->bbox.size.x > 0 && d->bbox.center.position.z > 0,
			      "%s: detection %u: size %g, centre z %g", t->name, i, d->bbox.size.x,
			      d->bbox.center.position.z);
		}
		fputc(']', jsonl);
		break;
	}
	case K_POSE: {
		const geometry_msgs_msg_dds__PoseStamped_ *m = s;
		header(t, &m->header);
		fputs(",\"pose\":", jsonl);
		pose(&m->pose);
		break;
	}
	case K_MARKERS: {
		const visualization_msgs_msg_dds__MarkerArray_ *m = s;
		fputs("\"markers\":[", jsonl);
		for (uint32_t i = 0; i < m->markers._length; i++) {
			const visualization_msgs_msg_dds__Marker_ *k = &m->markers._buffer[i];
			fputs(i ? ",{" : "{", jsonl);
			inner_header(t, &k->header);
			fprintf(jsonl,
				",\"ns\":\"%s\",\"id\":%d,\"type\":%d,\"action\":%d,\"pose\":",
				k->ns, k->id, k->type, k->action);
			pose(&k->pose);
			fputc(',', jsonl);
			vec3("scale", k->scale.x, k->scale.y, k->scale.z);
			fprintf(jsonl,
				",\"color\":{\"r\":%.9g,\"g\":%.9g,\"b\":%.9g,\"a\":%.9g},"
				"\"lifetime\":{\"sec\":%d,\"nanosec\":%u},\"frame_locked\":%s,"
				"\"points\":%u,\"colors\":%u,\"texture_resource\":\"%s\","
				"\"texture\":{",
				k->color.r, k->color.g, k->color.b, k->color.a, k->lifetime.sec,
				k->lifetime.nanosec, k->frame_locked ? "true" : "false",
				k->points._length, k->colors._length, k->texture_resource);
			inner_header(t, &k->texture.header);
			fprintf(jsonl,
				",\"format\":\"%s\",\"data\":%u},\"uv_coordinates\":%u,"
				"\"text\":\"%s\",\"mesh_resource\":\"%s\",\"mesh_file\":{"
				"\"filename\":\"%s\",\"data\":%u},"
				"\"mesh_use_embedded_materials\":%s}",
				k->texture.format, k->texture.data._length,
				k->uv_coordinates._length, k->text, k->mesh_resource,
				k->mesh_file.filename, k->mesh_file.data._length,
				k->mesh_use_embedded_materials ? "true" : "false");
		}
		fputc(']', jsonl);
		CHECK(m->markers._length >= 1 && m->markers._buffer[0].action == 3,
		      "%s: the first marker is not DELETEALL", t->name);
		break;
	}
	}
}

static dds_qos_t *qos_of(enum qos q)
{
	dds_qos_t *qos = dds_create_qos();
	if (q == Q_SENSOR) {
		dds_qset_reliability(qos, DDS_RELIABILITY_BEST_EFFORT, 0);
		dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, 5);
	} else {
		dds_qset_reliability(qos, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
		dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, 10);
		if (q == Q_LATCHED) {
			dds_qset_durability(qos, DDS_DURABILITY_TRANSIENT_LOCAL);
		}
	}
	return qos;
}

int main(int argc, char **argv)
{
	if (argc < 6) {
		fprintf(
		    stderr,
		    "usage: ros2_listen DIR NAMESPACE WIDTH HEIGHT FRAME_ID [SECONDS [IDLE]]\n");
		return 2;
	}
	const char *dir = argv[1], *ns = argv[2];
	W = atoi(argv[3]);
	H = atoi(argv[4]);
	frame_id = argv[5];
	double limit = argc > 6 ? atof(argv[6]) : 20.0;
	double idle = argc > 7 ? atof(argv[7]) : 1.0;
	char path[1024];

	snprintf(path, sizeof(path), "%s/samples.jsonl", dir);
	samples = fopen(path, "w");
	devnull = fopen("/dev/null", "w");
	if (!samples || !devnull) {
		perror(path);
		return 2;
	}
	/* the domain as ROS 2 reads it (the tests give each run its own: no cross-talk) */
	dds_domainid_t domain =
	    getenv("ROS_DOMAIN_ID") ? (dds_domainid_t)atoi(getenv("ROS_DOMAIN_ID")) : 0;
	if (!getenv("CYCLONEDDS_URI") || !*getenv("CYCLONEDDS_URI")) {
		dds_entity_t dom = dds_create_domain(domain, config);
		if (dom < 0) {
			fprintf(stderr, "ros2_listen: domain: %s\n", dds_strretcode(dom));
			return 2;
		}
	}
	dds_entity_t pp = dds_create_participant(domain, NULL, NULL);
	if (pp < 0) {
		fprintf(stderr, "ros2_listen: participant: %s\n", dds_strretcode(pp));
		return 2;
	}
	for (int i = 0; i < NTOPICS; i++) {
		struct topic *t = &topics[i];
		char name[512];
		snprintf(name, sizeof(name), "rt/%s%s%s", ns, ns[0] ? "/" : "", t->name);
		dds_qos_t *q = qos_of(t->qos);
		dds_entity_t tp = dds_create_topic(pp, t->type, name, NULL, NULL);
		t->reader = tp < 0 ? tp : dds_create_reader(pp, tp, q, NULL);
		dds_delete_qos(q);
		if (t->reader < 0) {
			fprintf(stderr, "ros2_listen: %s: %s\n", name, dds_strretcode(t->reader));
			return 2;
		}
		t->sample = calloc(1, t->type->m_size);
	}
	double start = now_s(), last = start;
	int all = 0;
	static uint8_t buf[64 << 20];
	while (now_s() - start < limit && !(all && now_s() - last > idle)) {
		int got = 0;
		for (int i = 0; i < NTOPICS; i++) {
			struct topic *t = &topics[i];
			struct ddsi_serdata *sd;
			dds_sample_info_t si;
			while (dds_takecdr(t->reader, &sd, 1, &si, DDS_ANY_STATE) == 1) {
				if (!si.valid_data) {
					ddsi_serdata_unref(sd);
					continue;
				}
				got = 1;
				uint32_t size = ddsi_serdata_size(sd);
				CHECK(size <= sizeof(buf), "%s: %u bytes", t->name, size);
				if (size <= sizeof(buf)) {
					ddsi_serdata_to_ser(sd, 0, size, buf);
					snprintf(path, sizeof(path), "%s/%s.%d.cdr", dir, t->file,
						 t->n);
					FILE *f = t->n < 3 ? fopen(path, "wb") : NULL;
					if (f) {
						fwrite(buf, 1, size, f);
						fclose(f);
					}
				}
				memset(t->sample, 0, t->type->m_size);
				CHECK(ddsi_serdata_to_sample(sd, t->sample, NULL, NULL),
				      "%s: not decoded", t->name);
				/* the first three of each topic written out; every one checked */
				jsonl = t->n < 3 ? samples : devnull;
				fprintf(jsonl, "{\"topic\":\"%s\",\"n\":%d,\"bytes\":%u,\"msg\":{",
					t->name, t->n, size);
				describe(t, t->sample);
				fputs("}}\n", jsonl);
				dds_sample_free(t->sample, t->type, DDS_FREE_CONTENTS);
				ddsi_serdata_unref(sd);
				t->n++;
			}
		}
		if (got) {
			last = now_s();
		}
		all = 1;
		for (int i = 0; i < NTOPICS; i++) {
			all &= topics[i].n > 0;
		}
		struct timespec ts = {0, 2000000};
		nanosleep(&ts, NULL);
	}
	fclose(samples);
	fclose(devnull);
	for (int i = 0; i < NTOPICS; i++) {
		printf("%-18s %d sample(s)\n", topics[i].name, topics[i].n);
		CHECK(topics[i].n > 0, "%s: nothing received in %.0f s", topics[i].name, limit);
	}
	dds_delete(DDS_CYCLONEDDS_HANDLE);
	if (failures) {
		fprintf(stderr, "ros2_listen: %d failure(s)\n", failures);
		return 1;
	}
	return 0;
}
