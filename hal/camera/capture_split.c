/* One source with both views in each frame (side by side, or top and bottom): split in place. */
#include <stdio.h>
#include <string.h>

#include "capture_priv.h"
#include "jpeg.h"

/*
 * A split device's frame as two views of boot's size (strided, in place; an MJPEG frame is
 * decoded whole into c->whole first). -EBADMSG for a frame that cannot be (counted).
 */
static int split_views(struct jd_capture *c, const struct jd_cam_frame *f, struct jd_cam_frame v[2])
{
	const int w = c->cfg.cam.width, h = c->cfg.cam.height, side = c->cfg.split == JD_SPLIT_SIDE;
	int fw, fh;

	jd__capture_whole_size(&c->cfg, &fw, &fh);

	v[0] = *f;
	if (f->fmt == JD_PIX_MJPEG) {
		struct jd_image all = {c->whole, fw, fh, fw};
		int rc = jd_jpeg_decode_gray(&c->jpeg[0], f->data, f->bytes, &all);
		c->decoder_failed |= rc == -EIO;
		if (rc) {
			snprintf(c->err, sizeof(c->err), "camera %.200s: frame %u: %.200s",
				 c->cam[0].device, f->seq, c->jpeg[0].err);
			return jd__capture_dropped(c, &c->drop_corrupt);
		}
		v[0] = (struct jd_cam_frame){c->whole,	  (size_t)fw * fh, fw,	   fh,	    fw,
					     JD_PIX_GREY, f->ts_ns,	   f->seq, f->index};
	}
	const int bpp = jd_pixfmt_pixel_bytes(v[0].fmt);
	const size_t at = side ? (size_t)w * bpp : (size_t)h * v[0].stride;
	if (v[0].width != fw || v[0].height != fh || v[0].bytes < at ||
	    (jd_pixfmt_is_bayer(v[0].fmt) && (side ? w : h) % 2)) {
		snprintf(c->err, sizeof(c->err),
			 "camera %.200s: frame %u: %dx%d %s, expected %dx%d with both views%s",
			 c->cam[0].device, f->seq, v[0].width, v[0].height,
			 jd_pixfmt_name(v[0].fmt), fw, fh,
			 jd_pixfmt_is_bayer(v[0].fmt) ? " (a Bayer mosaic splits at an even pixel)"
						      : "");
		return jd__capture_dropped(c, &c->drop_short);
	}
	v[0].width = w;
	v[0].height = h;
	v[1] = v[0];
	v[1].data = v[0].data + at;
	v[1].bytes = v[0].bytes - at; /* the views share the frame's rows: take_view checks */
	return 0;
}

/* next_pair() for a split device: one frame, both views, its timestamp theirs. */
int jd__capture_next_split(struct jd_capture *c, struct jd_image *left, struct jd_image *right,
			   struct jd_capture_raw *raw)
{
	for (int attempt = 0; attempt < 16; attempt++) {
		struct jd_cam_frame f, v[2];
		int rc = jd_cam_dequeue(&c->cam[0], &f);

		c->cam[1].stats = c->cam[0].stats;
		if (rc == -EBADMSG || rc == -EBUSY) {
			snprintf(c->err, sizeof(c->err), "%s", c->cam[0].err);
			if (rc == -EBADMSG) {
				jd__capture_dropped(c, &c->drop_short);
			}
			continue;
		}
		if (rc) {
			snprintf(c->err, sizeof(c->err), "%s", c->cam[0].err);
			return rc;
		}
		int bad = split_views(c, &f, v) != 0;
		bad = bad || jd__capture_take_view(c, 0, &v[0], left, raw) != 0;
		bad = bad || jd__capture_take_view(c, 1, &v[1], right, raw) != 0;
		if (!bad) {
			jd_recorder_pair(&c->rec, &v[0], &v[1]);
		}
		jd__capture_give_back(c, 0, &f);
		if (c->requeue_failed || c->decoder_failed) {
			return -EIO;
		}
		if (bad) {
			return -EAGAIN;
		}
		c->pairs++;
		c->last_ts = f.ts_ns;
		return 0;
	}
	return -EAGAIN;
}
