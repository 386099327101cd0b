#include "camera_synth.h"

#include <stdio.h>
#include <string.h>

#include "../../algo/jd_carve.h"
#include "../../algo/geometry/camera_model.h"
#include "../../algo/synth.h"
#include "../clock.h"

struct rig {
	int w, h, ndisp;
	uint32_t seed;
	uint64_t period_ns, t0;
	int rendered;	     /* the newest frame in the sets, -1 none */
	int next[2];	     /* the frame each side hands out next */
	int borrowed[2][2];  /* [set][side] */
	uint64_t ts[2];	     /* per set */
	uint8_t *view[2][2]; /* [set][side] */
	float *gt[2];	     /* per set */
	int running;
	int replay;		  /* after frames 0 and 1, hand their sets out again unrendered */
	enum jd_pixfmt fmt;	  /* the layout frames come in: any but MJPEG (set_format) */
	const struct jd_exec *ex; /* renders on these workers (NULL: the caller's thread) */
};

/* The rig's state and two buffer sets; one layout sizes (base NULL) and carves. */
static struct rig *layout(struct jd_carve *c, int w, int h, uint8_t *view[2][2], float *gt[2])
{
	size_t n = (size_t)w * h;
	struct rig *r = jd_carve(c, sizeof(struct rig));

	for (int s = 0; s < 2; s++) {
		/* room for a 4:2:2 or 16-bit frame: two bytes a pixel */
		view[s][0] = jd_carve(c, 2 * n);
		view[s][1] = jd_carve(c, 2 * n);
		gt[s] = jd_carve(c, sizeof(float) * n);
	}
	return r;
}

size_t jd_cam_synth_mem_required(int w, int h)
{
	struct jd_carve c;
	uint8_t *view[2][2];
	float *gt[2];

	jd_carve_init(&c, NULL, 0);
	layout(&c, w, h, view, gt);
	return jd_carve_total(&c);
}

int jd_cam_synth_init(struct jd_camera cam[2], void *mem, size_t bytes,
		      const struct jd_cam_synth_config *cfg, char *err, size_t errlen)
{
	const int w = cfg->width, h = cfg->height;
	const double fps = cfg->fps;
	struct jd_carve c;
	uint8_t *view[2][2];
	float *gt[2];

	jd_carve_init(&c, mem, bytes);
	struct rig *r = layout(&c, w, h, view, gt);
	if (c.overflow) {
		snprintf(err, errlen, "synth camera: boot memory too small");
		return -ENOMEM;
	}
	if ((unsigned)cfg->fmt >= JD_PIX_COUNT || cfg->fmt == JD_PIX_MJPEG) {
		snprintf(err, errlen, "synth camera: --pixfmt %s: it gives every layout but MJPG",
			 jd_pixfmt_name(cfg->fmt));
		return -EINVAL;
	}
	memset(r, 0, sizeof(*r));
	memcpy(r->view, view, sizeof(view));
	memcpy(r->gt, gt, sizeof(gt));
	r->w = w;
	r->h = h;
	r->ndisp = cfg->ndisp;
	r->seed = cfg->seed;
	r->fmt = cfg->fmt;
	r->ex = cfg->exec;
	r->replay = cfg->replay;
	r->period_ns = fps > 0 ? (uint64_t)(1e9 / fps) : 0;
	r->rendered = -1;
	for (int i = 0; i < 2; i++) {
		memset(&cam[i], 0, sizeof(cam[i]));
		cam[i].ops = &jd_camera_synth_ops;
		snprintf(cam[i].label, sizeof(cam[i].label), "%s", i ? "right" : "left");
		snprintf(cam[i].device, sizeof(cam[i].device), "synth");
		cam[i].priv = r;
		cam[i].cfg = (struct jd_cam_config){w, h, fps, cfg->fmt, 2, 1000, {0, {0}, 0}};
	}
	return 0;
}

static int side_of(const struct jd_camera *c)
{
	return strcmp(c->label, "right") == 0;
}

static int synth_open(struct jd_camera *c)
{
	(void)c;
	return 0;
}

/* The scene is rendered at the boot size in its layout (set_format): any request gets that. */
static int synth_configure(struct jd_camera *c, const struct jd_cam_config *want)
{
	struct rig *r = c->priv;

	c->cfg.fps = r->period_ns ? 1e9 / (double)r->period_ns : 0;
	c->cfg.buffers = 2;
	c->cfg.timeout_ms = want->timeout_ms;
	if (want->width != r->w || want->height != r->h) {
		jd_cam_note(c, "asked %dx%d, gives %dx%d", want->width, want->height, r->w, r->h);
	}
	return 0;
}

static int synth_start(struct jd_camera *c)
{
	struct rig *r = c->priv;

	if (!r->running) {
		r->running = 1;
		r->t0 = jd_clock_ns();
	}
	return 0;
}

/*
 * The gray view v (n pixels, packed) as a YUYV (off 0) or UYVY (off 1) frame in place, from
 * the end so that no luma is overwritten before it is read; the chroma bytes vary, so that a
 * reader taking them for luma is caught.
 */
static void to_422(uint8_t *v, size_t n, int off)
{
	for (size_t i = n; i-- > 0;) {
		uint8_t y = v[i];
		v[2 * i + (size_t)off] = y;
		v[2 * i + 1 - (size_t)off] = (uint8_t)(i * 7 + 64);
	}
}

/*
 * The gray view v (w x h, packed) as a deep mono or raw Bayer frame in place, from the end. A
 * Bayer site keeps its colour's share of the gray (R 3/4, G 1, B 1/2: a scene under a colour
 * cast, so that the mosaic is not flat), and a deep sample is that value with its top bits
 * repeated below, so that deep mono's top 8 bits give the gray back exactly.
 */
static void to_raw(uint8_t *v, int w, int h, enum jd_pixfmt fmt)
{
	const int bits = jd_pixfmt_bits(fmt), wide = jd_pixfmt_pixel_bytes(fmt) == 2;
	const int bayer = jd_pixfmt_is_bayer(fmt);
	int r_col, r_row;

	jd_pixfmt_bayer_red(fmt, &r_col, &r_row);
	for (size_t i = (size_t)w * h; i-- > 0;) {
		unsigned g = v[i];
		if (bayer) {
			/* R where both parities are R's, B where neither is, else G */
			int rc = (int)(i % (size_t)w % 2) == r_col,
			    rr = (int)(i / (size_t)w % 2) == r_row;
			g = rc && rr ? g * 3 / 4 : !rc && !rr ? g / 2 : g;
		}
		if (!wide) {
			v[i] = (uint8_t)g;
			continue;
		}
		unsigned x = (g << (bits - 8) | g >> (16 - bits)) & 0xffffu;
		v[2 * i] = (uint8_t)x;
		v[2 * i + 1] = (uint8_t)(x >> 8);
	}
}

static int render(struct jd_camera *c, struct rig *r, int k)
{
	int set = k & 1;

	if (r->borrowed[set][0] || r->borrowed[set][1]) {
		return jd_cam_fail(
		    c, -EBUSY, "frame %d: its buffer set still holds frame %d (requeue it first)",
		    k, k - 2);
	}
	struct jd_image left = {r->view[set][0], r->w, r->h, r->w};
	struct jd_image right = {r->view[set][1], r->w, r->h, r->w};
	struct jd_disp gt = {r->gt[set], r->w, r->h, r->w};
	if (r->period_ns) {
		uint64_t due = r->t0 + (uint64_t)k * r->period_ns;
		if (jd_clock_wait_until(due, JD_CLOCK_SLICE_NS)) {
			return jd_cam_fail(c, -EINPROGRESS, "frame %d is not due yet", k);
		}
		r->ts[set] = due;
	} else {
		r->ts[set] = jd_clock_ns();
	}
	if (!r->replay || k < 2) {
		jd_synth_render_par(r->seed, k, r->ndisp, &left, &right, &gt, r->ex);
		for (int i = 0; i < 2 && r->fmt != JD_PIX_GREY; i++) {
			if (r->fmt == JD_PIX_YUYV || r->fmt == JD_PIX_UYVY) {
				to_422(r->view[set][i], (size_t)r->w * r->h, r->fmt == JD_PIX_UYVY);
			} else {
				to_raw(r->view[set][i], r->w, r->h, r->fmt);
			}
		}
	}
	r->rendered = k;
	return 0;
}

static int synth_dequeue(struct jd_camera *c, struct jd_cam_frame *f)
{
	struct rig *r = c->priv;
	int side = side_of(c), k = r->next[side];

	if (!r->running) {
		return jd_cam_fail(c, -EINVAL, "dequeue before start");
	}
	if (k < r->rendered - 1) {
		k = r->rendered - 1; /* this side fell two frames behind: skip to the oldest kept */
	}
	if (k > r->rendered) {
		int rc = render(c, r, k);
		if (rc) {
			return rc;
		}
	}
	int set = k & 1;
	r->borrowed[set][side] = 1;
	r->next[side] = k + 1;
	int bpp = jd_pixfmt_pixel_bytes(r->fmt);
	*f = (struct jd_cam_frame){r->view[set][side],
				   (size_t)r->w * r->h * bpp,
				   r->w,
				   r->h,
				   r->w * bpp,
				   r->fmt,
				   r->ts[set],
				   (uint32_t)k,
				   set};
	jd_cam_count_frame(c, f->ts_ns);
	return 0;
}

static int synth_requeue(struct jd_camera *c, const struct jd_cam_frame *f)
{
	struct rig *r = c->priv;

	if (f->index < 0 || f->index > 1) {
		return jd_cam_fail(c, -EINVAL, "requeue of buffer %d", f->index);
	}
	r->borrowed[f->index][side_of(c)] = 0;
	return 0;
}

static int synth_stop(struct jd_camera *c)
{
	((struct rig *)c->priv)->running = 0;
	return 0;
}

static int synth_truth(const struct jd_camera *c, const struct jd_cam_frame *f, struct jd_disp *out)
{
	const struct rig *r = c->priv;

	*out = (struct jd_disp){r->gt[f->index & 1], r->w, r->h, r->w};
	return 0;
}

int jd_cam_synth_objects(const struct jd_camera *c, const struct jd_cam_frame *f,
			 struct jd_synth_object out[JD_SYNTH_MAX_OBJECTS])
{
	const struct rig *r = c->priv;

	return jd_synth_objects(r->seed, (int)f->seq, r->w, r->h, r->ndisp, out);
}

const struct jd_camera_ops jd_camera_synth_ops = {
    .name = "synth",
    .open = synth_open,
    .configure = synth_configure,
    .start = synth_start,
    .dequeue = synth_dequeue,
    .requeue = synth_requeue,
    .stop = synth_stop,
    .truth = synth_truth,
};

void jd_cam_synth_model(int w, int h, struct jd_camera_model *out)
{
	*out = (struct jd_camera_model){0.8f * (float)w, (float)(w - 1) / 2.0f,
					(float)(h - 1) / 2.0f, 60.0f};
}
