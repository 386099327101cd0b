#include "pair_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jd_sort.h"

#define R 4	    /* patch radius: 9x9 */
#define GRID 8	    /* GRID x GRID patches */
#define MIN_STD 4.0 /* gray levels: flatter patches match anywhere */
#define MIN_ZNCC 0.85
#define MIN_CONFIDENT 8

struct patch {
	float v[(2 * R + 1) * (2 * R + 1)]; /* zero mean, unit norm */
};

/* The patch at (x, y), normalised; 0 when too flat to say anything. */
static int take(const struct jd_image *im, int x, int y, struct patch *p)
{
	double sum = 0, sq = 0;
	int n = 0;

	for (int dy = -R; dy <= R; dy++) {
		const uint8_t *row = jd_image_row(im, y + dy);
		for (int dx = -R; dx <= R; dx++) {
			float v = row[x + dx];
			p->v[n++] = v;
			sum += v;
		}
	}
	double mean = sum / n;
	for (int i = 0; i < n; i++) {
		p->v[i] -= (float)mean;
		sq += (double)p->v[i] * p->v[i];
	}
	if (sqrt(sq / n) < MIN_STD) {
		return 0;
	}
	float inv = (float)(1.0 / sqrt(sq));
	for (int i = 0; i < n; i++) {
		p->v[i] *= inv;
	}
	return 1;
}

static float zncc(const struct patch *a, const struct jd_image *im, int x, int y)
{
	struct patch b;

	if (!take(im, x, y, &b)) {
		return -1.0f;
	}
	float s = 0;
	for (int i = 0; i < (2 * R + 1) * (2 * R + 1); i++) {
		s += a->v[i] * b.v[i];
	}
	return s;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

/* The peak's offset from the middle of three scores (parabola), within +-0.5. */
static float vertex(float a, float b, float c)
{
	float den = a - 2.0f * b + c;

	if (!(den < 0.0f)) {
		return 0.0f;
	}
	float t = 0.5f * (a - c) / den;
	return t < -0.5f ? -0.5f : (t > 0.5f ? 0.5f : t);
}

void jd_pair_check(const struct jd_image *l, const struct jd_image *r, int max_disp,
		   struct jd_pair_check *out)
{
	const int V = JD_PAIR_CHECK_ROWS, w = l->width, h = l->height;
	float dys[GRID * GRID];

	memset(out, 0, sizeof(*out));
	out->verdict = JD_PAIR_UNSURE;
	if (w < 2 * R + 3 || h < 2 * (R + V) + 3) {
		return;
	}
	for (int gy = 0; gy < GRID; gy++) {
		/* rows and columns spread over the image, away from the borders */
		int y = R + V + (int)((long)(h - 2 * (R + V) - 1) * (2 * gy + 1) / (2 * GRID));
		for (int gx = 0; gx < GRID; gx++) {
			int x = R + (int)((long)(w - 2 * R - 1) * (2 * gx + 1) / (2 * GRID));
			struct patch p;
			if (!take(l, x, y, &p)) {
				continue;
			}
			out->patches++;
			float best = -2.0f, second = -2.0f;
			int bd = 0, bdy = 0;
			for (int dy = -V; dy <= V; dy++) {
				for (int d = -max_disp; d <= max_disp; d++) {
					int xr = x - d;
					if (xr < R || xr >= w - R) {
						continue;
					}
					float s = zncc(&p, r, xr, y + dy);
					if (s > best) {
						/* the runner-up must be another place, not a
						 * neighbour */
						if (abs(d - bd) > 2 || abs(dy - bdy) > 2) {
							second = best;
						}
						best = s;
						bd = d;
						bdy = dy;
					} else if (s > second &&
						   (abs(d - bd) > 2 || abs(dy - bdy) > 2)) {
						second = s;
					}
				}
			}
			if (best < MIN_ZNCC || best - second < 0.02f) {
				continue; /* weak or ambiguous (repeated texture) */
			}
			float up = bdy > -V ? zncc(&p, r, x - bd, y + bdy - 1) : best;
			float dn = bdy < V ? zncc(&p, r, x - bd, y + bdy + 1) : best;
			dys[out->confident++] = (float)bdy + vertex(up, best, dn);
			out->negative += bd <= -2;
			out->positive += bd >= 2;
			out->off_row += abs(bdy) >= 2;
		}
	}
	if (out->confident < MIN_CONFIDENT) {
		return;
	}
	jd_sort(dys, (size_t)out->confident, sizeof(float), cmp_float);
	out->dy_px = dys[out->confident / 2];
	out->median_dy = (int)lrintf(out->dy_px);
	if (2 * out->off_row > out->confident) {
		out->verdict = JD_PAIR_UNRECTIFIED;
	} else if (out->negative >= MIN_CONFIDENT / 2 && out->negative > 3 * out->positive) {
		out->verdict = JD_PAIR_SWAPPED;
	} else {
		out->verdict = JD_PAIR_OK;
	}
}

const char *jd_pair_verdict_text(enum jd_pair_verdict v)
{
	switch (v) {
	case JD_PAIR_SWAPPED:
		return "left and right look swapped (matches at negative disparity)";
	case JD_PAIR_UNRECTIFIED:
		return "the pair does not look rectified (matches rows apart)";
	default:
		return NULL;
	}
}
