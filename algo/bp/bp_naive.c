#include <errno.h>
#include <string.h>

#include "bp.h"
#include "jd_carve.h"
#include "subpixel.h"

/*
 * Straightforward BP: [y][x][d] storage, one pixel and one message at a time, one thread.
 * It exists to be measured against and to cross-check jd_bp_ref(); keep it plain.
 */

enum { FROM_UP, FROM_DOWN, FROM_LEFT, FROM_RIGHT, NDIR };

struct naive_level {
	int w, h;
	float *data;
	float *msg[NDIR];
};

struct naive_ws {
	float *lf, *rf, *tmp, *h;
	struct naive_level lv[JD_BP_LEVELS_MAX];
};

static void layout(struct jd_carve *c, const struct jd_match_params *p, int w, int h,
		   struct naive_ws *ws)
{
	size_t npix = (size_t)w * h;
	struct naive_ws t;

	t.lf = jd_carve(c, sizeof(float) * npix);
	t.rf = jd_carve(c, sizeof(float) * npix);
	t.tmp = jd_carve(c, sizeof(float) * npix);
	t.h = jd_carve(c, sizeof(float) * p->ndisp);
	for (int l = 0; l < p->bp.levels; l++) {
		size_t n = (size_t)w * h * p->ndisp;

		t.lv[l].w = w;
		t.lv[l].h = h;
		t.lv[l].data = jd_carve(c, sizeof(float) * n);
		for (int k = 0; k < NDIR; k++) {
			t.lv[l].msg[k] = jd_carve(c, sizeof(float) * n);
		}
		w = (w + 1) / 2;
		h = (h + 1) / 2;
	}
	if (ws) {
		*ws = t;
	}
}

size_t jd_bp_naive_mem_required(const struct jd_match_params *p, int width, int height)
{
	struct jd_carve c;

	jd_carve_init(&c, NULL, 0);
	layout(&c, p, width, height, NULL);
	return jd_carve_total(&c);
}

static float *at(const struct naive_level *lv, float *base, int x, int y, int nd)
{
	return base + ((size_t)y * lv->w + x) * nd;
}

/* The belief of disparity d at (x, y): data + the four incoming, in the selection's order. */
static float belief(const struct naive_level *lv, int x, int y, int nd, int d)
{
	return at(lv, lv->data, x, y, nd)[d] + at(lv, lv->msg[FROM_UP], x, y, nd)[d] +
	       at(lv, lv->msg[FROM_DOWN], x, y, nd)[d] + at(lv, lv->msg[FROM_LEFT], x, y, nd)[d] +
	       at(lv, lv->msg[FROM_RIGHT], x, y, nd)[d];
}

/* Outgoing message into dst from data + three incoming vectors, in the documented order. */
static void send(float *h, const float *dat, const float *a, const float *b, const float *c,
		 float *dst, int nd, float disc_k)
{
	for (int d = 0; d < nd; d++) {
		h[d] = dat[d] + a[d] + b[d] + c[d];
	}
	jd_bp_message_1d(h, nd, disc_k);
	memcpy(dst, h, sizeof(float) * nd);
}

static void iterate(const struct naive_level *lv, int nd, float disc_k, int t, float *h)
{
	for (int y = 0; y < lv->h; y++) {
		for (int x = (y + t) & 1; x < lv->w; x += 2) {
			const float *dat = at(lv, lv->data, x, y, nd);
			const float *u = at(lv, lv->msg[FROM_UP], x, y, nd);
			const float *dn = at(lv, lv->msg[FROM_DOWN], x, y, nd);
			const float *l = at(lv, lv->msg[FROM_LEFT], x, y, nd);
			const float *r = at(lv, lv->msg[FROM_RIGHT], x, y, nd);

			if (y > 0) {
				send(h, dat, dn, l, r, at(lv, lv->msg[FROM_DOWN], x, y - 1, nd), nd,
				     disc_k);
			}
			if (y < lv->h - 1) {
				send(h, dat, u, l, r, at(lv, lv->msg[FROM_UP], x, y + 1, nd), nd,
				     disc_k);
			}
			if (x > 0) {
				send(h, dat, u, dn, r, at(lv, lv->msg[FROM_RIGHT], x - 1, y, nd),
				     nd, disc_k);
			}
			if (x < lv->w - 1) {
				send(h, dat, u, dn, l, at(lv, lv->msg[FROM_LEFT], x + 1, y, nd), nd,
				     disc_k);
			}
		}
	}
}

int jd_bp_naive(const struct jd_match_params *p, const struct jd_image *left,
		const struct jd_image *right, struct jd_disp *out, void *ws, size_t ws_bytes)
{
	int nd = p->ndisp, levels = p->bp.levels;
	float disc_k = jd_bp_disc_k(p);
	struct jd_carve c;
	struct naive_ws b;

	jd_carve_init(&c, ws, ws_bytes);
	layout(&c, p, left->width, left->height, &b);
	if (c.overflow || !ws) {
		return -ENOMEM;
	}
	jd_bp_prepare_image(left, p->bp.sigma, b.lf, b.tmp);
	jd_bp_prepare_image(right, p->bp.sigma, b.rf, b.tmp);
	for (int y = 0; y < left->height; y++) {
		for (int x = 0; x < left->width; x++) {
			float *dat = at(&b.lv[0], b.lv[0].data, x, y, nd);
			for (int d = 0; d < nd; d++) {
				dat[d] = jd_bp_data_cost(p, b.lf + (size_t)y * left->width,
							 b.rf + (size_t)y * left->width, x, d);
			}
		}
	}
	for (int l = 1; l < levels; l++) {
		const struct naive_level *f = &b.lv[l - 1], *k = &b.lv[l];
		static const int order[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};

		for (int y = 0; y < k->h; y++) {
			for (int x = 0; x < k->w; x++) {
				float *dat = at(k, k->data, x, y, nd);
				memset(dat, 0, sizeof(float) * nd);
				for (int o = 0; o < 4; o++) {
					int cx = 2 * x + order[o][0], cy = 2 * y + order[o][1];
					if (cx >= f->w || cy >= f->h) {
						continue;
					}
					const float *cd = at(f, f->data, cx, cy, nd);
					for (int d = 0; d < nd; d++) {
						dat[d] += cd[d];
					}
				}
			}
		}
	}
	for (int l = levels - 1; l >= 0; l--) {
		const struct naive_level *lv = &b.lv[l];

		if (l == levels - 1) {
			for (int k = 0; k < NDIR; k++) {
				memset(lv->msg[k], 0, sizeof(float) * lv->w * lv->h * nd);
			}
		} else {
			const struct naive_level *pa = &b.lv[l + 1];
			for (int k = 0; k < NDIR; k++) {
				for (int y = 0; y < lv->h; y++) {
					for (int x = 0; x < lv->w; x++) {
						memcpy(at(lv, lv->msg[k], x, y, nd),
						       at(pa, pa->msg[k], x / 2, y / 2, nd),
						       sizeof(float) * nd);
					}
				}
			}
		}
		for (int t = 0; t < p->bp.iters; t++) {
			iterate(lv, nd, disc_k, t, b.h);
		}
	}
	for (int y = 0; y < left->height; y++) {
		float *o = jd_disp_row(out, y);
		for (int x = 0; x < left->width; x++) {
			const struct naive_level *lv = &b.lv[0];
			int best = 0;
			float bestv = 0.0f, off = 0.0f;
			for (int d = 0; d < nd; d++) {
				float v = belief(lv, x, y, nd, d);
				if (d == 0 || v < bestv) {
					bestv = v;
					best = d;
				}
			}
			if (p->bp.subpixel && best > 0 && best < nd - 1) {
				off = jd_subpixel_equiangular(belief(lv, x, y, nd, best - 1), bestv,
							      belief(lv, x, y, nd, best + 1));
			}
			o[x] = (float)(p->min_disp + best) + off;
		}
	}
	return 0;
}
