#include "ros2_msgs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../algo/geometry/box3d.h"
#include "../../algo/geometry/depth.h"

/* strings in messages are char *; the generated types do not const them (never written) */
#define TEXT(s) ((char *)(s))

static void seq_u8(dds_sequence_uint8 *s, const void *data, size_t bytes)
{
	s->_buffer = (uint8_t *)data;
	s->_length = s->_maximum = (uint32_t)bytes;
	s->_release = false;
}

void jd_ros2_msgs_init(struct jd_ros2_msgs *m, const char *frame_id)
{
	static const char *const names[4] = {"x", "y", "z", "intensity"};

	memset(m, 0, sizeof(*m));
	snprintf(m->frame_id, sizeof(m->frame_id), "%s", frame_id);
	m->header.frame_id = m->frame_id;
	for (int i = 0; i < 4; i++) {
		m->fields[i] = (jd_ros_point_field){TEXT(names[i]), (uint32_t)(4 * i),
						    JD_POINT_FIELD_FLOAT32, 1};
	}
}

void jd_ros2_msgs_stamp(struct jd_ros2_msgs *m, uint64_t stamp_ns)
{
	m->header.stamp.sec = (int32_t)(stamp_ns / 1000000000u);
	m->header.stamp.nanosec = (uint32_t)(stamp_ns % 1000000000u);
}

static void image(struct jd_ros2_msgs *m, jd_ros_image *img, const char *encoding, const void *data,
		  int w, int h, int bytes_per_pixel)
{
	img->header = m->header;
	img->height = (uint32_t)h;
	img->width = (uint32_t)w;
	img->encoding = TEXT(encoding);
	img->is_bigendian = 0; /* every platform jetdepth runs on is little-endian */
	img->step = (uint32_t)(w * bytes_per_pixel);
	seq_u8(&img->data, data, (size_t)w * h * bytes_per_pixel);
}

void jd_ros2_mono8(struct jd_ros2_msgs *m, jd_ros_image *img, const uint8_t *data, int w, int h)
{
	image(m, img, "mono8", data, w, h, 1);
}

void jd_ros2_camera_info(struct jd_ros2_msgs *m, const struct jd_ros2_rig *rig, int right)
{
	jd_ros_camera_info *ci = &m->info[right ? 1 : 0];
	const struct jd_camera_model *c = &rig->cam;
	double f = c->f, cx = c->cx, cy = c->cy;

	memset(ci, 0, sizeof(*ci));
	ci->header = m->header;
	ci->height = (uint32_t)rig->height;
	ci->width = (uint32_t)rig->width;
	/* rectified images: no distortion left, identity rectification (REP 104) */
	ci->distortion_model = TEXT("plumb_bob");
	static const double no_distortion[5];
	ci->d._buffer = (double *)no_distortion;
	ci->d._length = ci->d._maximum = 5;
	ci->d._release = false;
	const double k[9] = {f, 0, cx, 0, f, cy, 0, 0, 1};
	memcpy(ci->k, k, sizeof(k));
	ci->r[0] = ci->r[4] = ci->r[8] = 1;
	/* the right view's projection carries the baseline: Tx = -f * B (metres) */
	const double p[12] = {f, 0, cx, right ? -f * c->baseline_mm / 1000.0 : 0, 0, f, cy, 0, 0,
			      0, 1, 0};
	memcpy(ci->p, p, sizeof(p));
}

void jd_ros2_disparity(struct jd_ros2_msgs *m, const struct jd_ros2_rig *rig,
		       const struct jd_disp *disp, float *f32)
{
	int w = disp->width, h = disp->height;
	float invalid = rig->min_disp - 1.0f;
	jd_ros_disparity *di = &m->disparity;

	for (int y = 0; y < h; y++) {
		const float *row = jd_disp_row(disp, y);
		float *out = f32 + (size_t)y * w;
		for (int x = 0; x < w; x++) {
			out[x] = jd_disp_is_valid(row[x]) ? row[x] : invalid;
		}
	}
	di->header = m->header;
	image(m, &di->image, "32FC1", f32, w, h, 4);
	di->f = rig->have_model ? rig->cam.f : 0.0f;
	di->t = rig->have_model ? rig->cam.baseline_mm / 1000.0f : 0.0f;
	di->valid_window =
	    (sensor_msgs_msg_dds__RegionOfInterest_){0, 0, (uint32_t)h, (uint32_t)w, false};
	di->min_disparity = rig->min_disp;
	di->max_disparity = rig->max_disp;
	di->delta_d = 1.0f / 16.0f; /* the matchers' sub-pixel step is finer; said as 1/16 px */
}

void jd_ros2_depth_of(struct jd_ros2_msgs *m, const float *f32, int w, int h)
{
	image(m, &m->depth, "32FC1", f32, w, h, 4);
}

void jd_ros2_depth(struct jd_ros2_msgs *m, const struct jd_ros2_rig *rig,
		   const struct jd_disp *disp, float *f32)
{
	jd_depth_image_ref(disp, jd_fb_metres(&rig->cam), f32);
	jd_ros2_depth_of(m, f32, disp->width, disp->height);
}

void jd_ros2_cloud_of(struct jd_ros2_msgs *m, const float *xyzi, long n)
{
	jd_ros_cloud *cl = &m->cloud;
	cl->header = m->header;
	cl->height = 1;
	cl->width = (uint32_t)n;
	cl->fields._buffer = m->fields;
	cl->fields._length = cl->fields._maximum = 4;
	cl->fields._release = false;
	cl->is_bigendian = false;
	cl->point_step = JD_ROS2_POINT_BYTES;
	cl->row_step = (uint32_t)(n * JD_ROS2_POINT_BYTES);
	seq_u8(&cl->data, (const uint8_t *)xyzi, (size_t)n * JD_ROS2_POINT_BYTES);
	cl->is_dense = true; /* only valid points are sent */
}

long jd_ros2_cloud(struct jd_ros2_msgs *m, const struct jd_ros2_rig *rig,
		   const struct jd_disp *disp, const struct jd_image *left, float *xyzi)
{
	long n = jd_point_cloud_ref(disp, left, &rig->cam, jd_fb_metres(&rig->cam), xyzi);
	jd_ros2_cloud_of(m, xyzi, n);
	return n;
}

static void pose_mm(geometry_msgs_msg_dds__Pose_ *p, const float pos_mm[3], const float q[4])
{
	p->position = (geometry_msgs_msg_dds__Point_){pos_mm[0] / 1000.0, pos_mm[1] / 1000.0,
						      pos_mm[2] / 1000.0};
	p->orientation = (geometry_msgs_msg_dds__Quaternion_){q[0], q[1], q[2], q[3]};
}

void jd_ros2_detections(struct jd_ros2_msgs *m, const struct jd_sense_result *s,
			const struct jd_track_info *tracks)
{
	jd_ros_detections *a = &m->detections;

	a->header = m->header;
	a->detections._buffer = m->detection;
	a->detections._length = a->detections._maximum = (uint32_t)s->nobjects;
	a->detections._release = false;
	for (int i = 0; i < s->nobjects; i++) {
		const struct jd_object *o = &s->objects[i];
		jd_ros_detection *d = &m->detection[i];
		jd_ros_hypothesis *hy = &m->hypothesis[i];
		struct jd_box3d box;

		jd_object_box(&s->plane, o, &box);
		memset(d, 0, sizeof(*d));
		memset(hy, 0, sizeof(*hy));
		d->header = m->header;
		pose_mm(&d->bbox.center, box.centre_mm, box.q);
		d->bbox.size = (geometry_msgs_msg_dds__Vector3_){
		    box.size_mm[0] / 1000.0, box.size_mm[1] / 1000.0, box.size_mm[2] / 1000.0};
		/* no classes: every object is "object", scored by how much of it has depth */
		hy->hypothesis.class_id = TEXT("object");
		hy->hypothesis.score = o->quality;
		hy->pose.pose = d->bbox.center;
		d->results._buffer = hy;
		d->results._length = d->results._maximum = 1;
		d->results._release = false;
		/* the track id: the same object keeps it across frames */
		if (tracks) {
			snprintf(m->detection_id[i], JD_ROS2_TEXT, "%d", tracks[i].id);
		} else {
			snprintf(m->detection_id[i], JD_ROS2_TEXT, "frame-object-%d", o->id);
		}
		d->id = m->detection_id[i];
	}
}

int jd_ros2_table(struct jd_ros2_msgs *m, const struct jd_sense_result *s)
{
	float origin[3], q[4];

	if (jd_table_pose(&s->plane, origin, q)) {
		return -1;
	}
	m->table.header = m->header;
	pose_mm(&m->table.pose, origin, q);
	return 0;
}

static jd_ros_marker *marker(struct jd_ros2_msgs *m, int i, int type, int action)
{
	jd_ros_marker *k = &m->marker[i];

	memset(k, 0, sizeof(*k));
	k->header = m->header;
	k->ns = TEXT("jetdepth");
	k->id = i;
	k->type = type;
	k->action = action;
	k->pose.orientation.w = 1;
	/* empty strings, not NULL: the serializer writes every string */
	k->texture_resource = k->text = k->mesh_resource = k->mesh_file.filename = TEXT("");
	k->texture.header = m->header;
	k->texture.format = TEXT("");
	/* gone after a second unless refreshed: a stopped daemon leaves no stale boxes */
	k->lifetime.sec = 1;
	return k;
}

/* A colour a track keeps: hue from the id (golden-ratio steps). */
static void track_colour(int id, std_msgs_msg_dds__ColorRGBA_ *c)
{
	float h = fmodf((float)id * 0.618034f, 1.0f) * 6.0f;
	float x = 1.0f - fabsf(fmodf(h, 2.0f) - 1.0f);
	float rgb[6][3] = {{1, x, 0}, {x, 1, 0}, {0, 1, x}, {0, x, 1}, {x, 0, 1}, {1, 0, x}};
	int k = (int)h % 6;
	*c = (std_msgs_msg_dds__ColorRGBA_){rgb[k][0], rgb[k][1], rgb[k][2], 0.6f};
}

void jd_ros2_markers(struct jd_ros2_msgs *m, const struct jd_sense_result *s,
		     const struct jd_track_info *tracks)
{
	int n = 0;

	marker(m, n++, JD_MARKER_CUBE, JD_MARKER_DELETEALL); /* last frame's boxes go */
	for (int i = 0; i < s->nobjects; i++) {
		const struct jd_object *o = &s->objects[i];
		int id = tracks ? tracks[i].id : o->id;
		struct jd_box3d box;

		jd_object_box(&s->plane, o, &box);
		jd_ros_marker *b = marker(m, n++, JD_MARKER_CUBE, JD_MARKER_ADD);
		pose_mm(&b->pose, box.centre_mm, box.q);
		/* a box with no depth extent (no table) is drawn 1 cm thick */
		b->scale = (geometry_msgs_msg_dds__Vector3_){fmax(box.size_mm[0], 10.0) / 1000.0,
							     fmax(box.size_mm[1], 10.0) / 1000.0,
							     fmax(box.size_mm[2], 10.0) / 1000.0};
		track_colour(id, &b->color);
		jd_ros_marker *t = marker(m, n++, JD_MARKER_TEXT, JD_MARKER_ADD);
		t->pose = b->pose;
		t->scale.z = 0.03; /* text height, metres */
		t->color = (std_msgs_msg_dds__ColorRGBA_){1, 1, 1, 1};
		snprintf(m->label[i], JD_ROS2_TEXT, "#%d %.0f mm", id, (double)o->distance_mm);
		t->text = m->label[i];
	}
	m->markers.markers._buffer = m->marker;
	m->markers.markers._length = m->markers.markers._maximum = (uint32_t)n;
	m->markers.markers._release = false;
}
