#include "sense.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "jd_carve.h"
#include "jd_status.h"
#include "sense_planner.h"

void jd_sense_default(struct jd_sense_params *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->ransac_iters = 200;
	sp->plane_tol = 1.0f;
	sp->min_height_mm = 15.0f;
	sp->min_area_px = 100;
	sp->min_area_mm2 = 400.0f;
	sp->min_table_share = 0.1f;
	sp->max_table_tilt_deg = 60.0f;
	sp->seed = 1;
}

const char *jd_table_verdict_name(enum jd_table_verdict v)
{
	switch (v) {
	case JD_TABLE_FOUND:
		return "found";
	case JD_TABLE_NOT_FITTED:
		return "too_few_pixels";
	case JD_TABLE_LOW_SUPPORT:
		return "low_support";
	case JD_TABLE_ROUGH:
		return "rough";
	case JD_TABLE_NOT_IN_FRONT:
		return "not_in_front";
	}
	return "?";
}

/*
 * Workspace: two masks, labels, the union-find parents (then per-label counts), two
 * scratches, each row's figures, the blobs, and the table's extent's hull.
 */
static void layout(struct jd_carve *c, int w, int h, struct jd_sense_ws *s)
{
	size_t n = (size_t)w * h;

	s->m0 = jd_carve(c, n);
	s->m1 = jd_carve(c, n);
	s->weak = jd_carve(c, n);
	s->label = jd_carve(c, sizeof(int32_t) * n);
	s->nparent = (long)(n + 2); /* depth edges split blobs: a label can be a pixel */
	s->parent = jd_carve(c, sizeof(int32_t) * (size_t)s->nparent);
	s->scratch = jd_carve(c, sizeof(float) * n);
	s->scratch2 = jd_carve(c, sizeof(float) * n);
	s->rows = jd_carve(c, sizeof(double) * JD_SROW_FIELDS * (size_t)h);
	s->max_blobs = JD_SENSE_MAX_BLOBS(n);
	s->blobs = jd_carve(c, sizeof(struct jd_sense_blob) * (size_t)s->max_blobs);
	s->hull = jd_carve(c, sizeof(double) * 2 * (2 * (size_t)h + 1));
}

size_t jd_sense_mem_required(int width, int height)
{
	struct jd_carve c;
	struct jd_sense_ws s;

	jd_carve_init(&c, NULL, 0);
	layout(&c, width, height, &s);
	return jd_carve_total(&c);
}

int jd_sense_carve(void *mem, size_t bytes, int w, int h, struct jd_sense_ws *s)
{
	struct jd_carve c;

	jd_carve_init(&c, mem, bytes);
	layout(&c, w, h, s);
	s->nhull = 0;
	return c.overflow ? -ENOMEM : 0;
}

int jd_sense_check(const struct jd_sense_params *sp, const struct jd_camera_model *cam, int w,
		   int h, struct jd_sense_roi *r)
{
	*r = (struct jd_sense_roi){sp->roi[0], sp->roi[1], sp->roi[2], sp->roi[3]};
	if (!(cam->f > 0) || !(cam->baseline_mm > 0) || !isfinite(cam->cx) || !isfinite(cam->cy) ||
	    sp->ransac_iters < 1 || !(sp->plane_tol > 0) || sp->min_area_px < 1 ||
	    !(sp->min_area_mm2 >= 0)) {
		return -EINVAL;
	}
	if (w > JD_SENSE_MAX_SIDE || h > JD_SENSE_MAX_SIDE) {
		return -EINVAL; /* an object's pixel is (y << 16 | x) in an int32 */
	}
	if (!r->x0 && !r->y0 && !r->x1 && !r->y1) {
		*r = (struct jd_sense_roi){0, 0, w, h};
	}
	if (r->x0 < 0 || r->y0 < 0 || r->x1 > w || r->y1 > h || r->x0 >= r->x1 || r->y0 >= r->y1) {
		return -EINVAL;
	}
	return 0;
}

/* Hypotheses drawn in order (deterministic), scored in parallel, the first best kept. */
struct score_job {
	const struct jd_disp *dm;
	const struct jd_sense_roi *r;
	int step;
	float tol;
	double plane[JD_SENSE_MAX_HYPOTHESES][3];
	long count[JD_SENSE_MAX_HYPOTHESES];
};

static void score_one(void *ctx, int i, int worker)
{
	struct score_job *j = ctx;

	(void)worker;
	j->count[i] = jd_sense_score(j->dm, j->r, j->step, j->plane[i], j->tol);
}

static void fit_plane(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		      const struct jd_disp *dm, const struct jd_sense_roi *r, struct jd_sense_ws *s,
		      struct jd_plane *pl, const struct jd_exec *ex)
{
	long npix = (long)(r->x1 - r->x0) * (r->y1 - r->y0), nvalid = 0;
	int nrows = r->y1 - r->y0;
	double best[3], sol[3], sum[JD_SROW_FIELDS];

	memset(pl, 0, sizeof(*pl));
	pl->verdict = JD_TABLE_NOT_FITTED;
	for (int y = r->y0; y < r->y1; y++) {
		for (int x = r->x0; x < r->x1; x++) {
			nvalid += jd_sense_valid(jd_disp_row(dm, y)[x]);
		}
	}
	if (nvalid < 3) {
		return;
	}
	struct score_job job = {dm, r, jd_sense_grid_step(r), sp->plane_tol, {{0}}, {0}};
	int n = jd_sense_hypotheses(sp, dm, r, job.plane);
	jd_exec_run(ex, n, score_one, &job);
	if (jd_sense_best(sp, cam, (const double(*)[3])job.plane, job.count, n, best)) {
		return;
	}
	/* Least squares on every inlier, twice (the inliers move with the plane). */
	long inliers = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (int y = r->y0; y < r->y1; y++) {
			jd_sense_row_lsq(dm, r, y, best, sp->plane_tol,
					 s->rows + (size_t)(y - r->y0) * JD_SROW_FIELDS);
		}
		jd_sense_rows_add(s->rows, nrows, sum);
		if (jd_sense_lsq_solve(sum, sol)) {
			break;
		}
		memcpy(best, sol, sizeof(best));
		inliers = (long)sum[JD_SROW_N];
	}
	for (int y = r->y0; y < r->y1; y++) {
		jd_sense_row_fit(dm, r, y, best, sp->plane_tol,
				 s->rows + (size_t)(y - r->y0) * JD_SROW_FIELDS);
	}
	jd_sense_rows_add(s->rows, nrows, sum);
	jd_sense_plane(sp, cam, best, inliers, nvalid, npix, sum[JD_SROW_RSS], pl);
}

struct mask_job {
	const struct jd_sense_params *sp;
	const struct jd_camera_model *cam;
	const struct jd_disp *disp;
	const struct jd_plane *plane;
	const struct jd_sense_roi *r;
	uint8_t *mask, *weak;
	int fixed;
};

static void mask_row(void *ctx, int y, int worker)
{
	const struct mask_job *j = ctx;
	const float *row = jd_disp_row(j->disp, y);
	int w = j->disp->width;

	(void)worker;
	for (int x = 0; x < w; x++) {
		int v = jd_sense_object_px(j->sp, j->cam, j->plane, j->r, j->fixed, x, y, row[x]);
		j->mask[(size_t)y * w + x] = (uint8_t)(v == JD_SENSE_PX_STRONG);
		j->weak[(size_t)y * w + x] = (uint8_t)(v != 0);
	}
}

/*
 * 3x3 erosion (all set) or dilation (any set) of src into dst, outside the map is 0: a
 * horizontal then a vertical 3-tap pass through tmp (separable, 6 reads a pixel, not 9),
 * each pass a row a task.
 */
struct morph_job {
	const uint8_t *src;
	uint8_t *dst, *tmp;
	int w, h, dilate;
};

static void morph_h(void *ctx, int y, int worker)
{
	const struct morph_job *j = ctx;
	const uint8_t *r = j->src + (size_t)y * j->w;
	uint8_t *t = j->tmp + (size_t)y * j->w;

	(void)worker;
	for (int x = 0; x < j->w; x++) {
		int a = x > 0 ? r[x - 1] : 0, b = r[x], c = x + 1 < j->w ? r[x + 1] : 0;
		t[x] = (uint8_t)(j->dilate ? (a | b | c) : (a & b & c));
	}
}

static void morph_v(void *ctx, int y, int worker)
{
	const struct morph_job *j = ctx;
	int w = j->w;
	const uint8_t *up = y > 0 ? j->tmp + (size_t)(y - 1) * w : NULL;
	const uint8_t *mid = j->tmp + (size_t)y * w;
	const uint8_t *dn = y + 1 < j->h ? j->tmp + (size_t)(y + 1) * w : NULL;
	uint8_t *o = j->dst + (size_t)y * w;

	(void)worker;
	for (int x = 0; x < w; x++) {
		int a = up ? up[x] : 0, c = dn ? dn[x] : 0;
		o[x] = (uint8_t)(j->dilate ? (a | mid[x] | c) : (a & mid[x] & c));
	}
}

static void morph(const uint8_t *src, uint8_t *dst, uint8_t *tmp, int w, int h, int dilate,
		  const struct jd_exec *ex)
{
	struct morph_job j = {src, dst, tmp, w, h, dilate};

	jd_exec_run(ex, h, morph_h, &j);
	jd_exec_run(ex, h, morph_v, &j);
}

static int32_t find(int32_t *parent, int32_t i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

/* Do two neighbouring object pixels belong together (jd_sense_joins)? */
static int joins(const struct jd_disp *dm, size_t i, size_t j)
{
	int w = dm->width;

	return jd_sense_joins(jd_disp_row(dm, (int)(i / w))[i % w],
			      jd_disp_row(dm, (int)(j / w))[j % w]);
}

/*
 * 8-connected labels of mask (0: background) where neighbours join (above); labels are
 * roots' ids. @return max label
 */
static long label8(const uint8_t *mask, const struct jd_disp *dm, int w, int h,
		   struct jd_sense_ws *s)
{
	long next = 1;

	s->parent[0] = 0;
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			size_t i = (size_t)y * w + x;
			int32_t nb[4], nn = 0;

			s->label[i] = 0;
			if (!mask[i]) {
				continue;
			}
			if (x > 0 && mask[i - 1] && joins(dm, i, i - 1)) {
				nb[nn++] = s->label[i - 1];
			}
			if (y > 0) {
				for (int dx = -1; dx <= 1; dx++) {
					int xx = x + dx;
					if (xx >= 0 && xx < w && mask[i - w + dx] &&
					    joins(dm, i, i - w + dx)) {
						nb[nn++] = s->label[i - w + dx];
					}
				}
			}
			if (nn == 0) {
				if (next >= s->nparent) {
					return -1; /* the label table is full */
				}
				s->parent[next] = (int32_t)next;
				s->label[i] = (int32_t)next++;
				continue;
			}
			int32_t root = find(s->parent, nb[0]);
			for (int k = 1; k < nn; k++) {
				int32_t o = find(s->parent, nb[k]);
				if (o < root) {
					s->parent[root] = o;
					root = o;
				} else if (o > root) {
					s->parent[o] = root;
				}
			}
			s->label[i] = root;
		}
	}
	for (size_t i = 0; i < (size_t)w * h; i++) {
		if (s->label[i]) {
			s->label[i] = find(s->parent, s->label[i]);
		}
	}
	return next - 1;
}

/* The least label of p's 8 neighbours that joins it (0: none). */
static int32_t least_neighbour(const struct jd_disp *dm, const int32_t *label, int w, int h,
			       size_t p)
{
	int x = (int)(p % w), y = (int)(p / w);
	int32_t best = 0;

	for (int dy = -1; dy <= 1; dy++) {
		for (int dx = -1; dx <= 1; dx++) {
			int xx = x + dx, yy = y + dy;
			if ((dx || dy) && xx >= 0 && xx < w && yy >= 0 && yy < h) {
				size_t j = (size_t)yy * w + xx;
				int32_t l = label[j];
				if (l && (!best || l < best) && joins(dm, p, j)) {
					best = l;
				}
			}
		}
	}
	return best;
}

/*
 * The weak pixels join the blobs of the strong ones (sense_planner.h): JD_SENSE_GROW_PASSES
 * passes, in each of which an unlabelled weak pixel takes the least label of its neighbours
 * labelled before the pass, where they join. Weak pixels never join two blobs, so an object's
 * rim cannot bridge it to its neighbour. The pending pixels are a list (scratch2), their new
 * labels another (scratch), applied after the pass.
 */
static void grow(const struct jd_disp *dm, int w, int h, struct jd_sense_ws *s)
{
	int32_t *pend = (int32_t *)s->scratch2, *next = (int32_t *)s->scratch;
	long np = 0;

	for (size_t i = 0; i < (size_t)w * h; i++) {
		if (s->weak[i] && !s->label[i]) {
			pend[np++] = (int32_t)i;
		}
	}
	for (int pass = 0; pass < JD_SENSE_GROW_PASSES && np > 0; pass++) {
		long k = 0, changed = 0;
		for (long i = 0; i < np; i++) {
			next[i] = least_neighbour(dm, s->label, w, h, (size_t)pend[i]);
			changed += next[i] != 0;
		}
		if (!changed) {
			break;
		}
		for (long i = 0; i < np; i++) {
			if (next[i]) {
				s->label[pend[i]] = next[i];
			} else {
				pend[k++] = pend[i];
			}
		}
		np = k;
	}
}

/*
 * The blobs of at least min_area_px, in label order, with their boxes (the first
 * max_blobs: out->truncated beyond). Areas count in the parent array (its union-find job is
 * done), which then maps a label to its blob.
 */
static long blobs_of(const struct jd_sense_params *sp, struct jd_sense_ws *s, int w, int h, long nl,
		     struct jd_sense_result *out)
{
	size_t n = (size_t)w * h;
	long nb = 0;

	for (long i = 0; i <= nl; i++) {
		s->parent[i] = 0;
	}
	for (size_t i = 0; i < n; i++) {
		s->parent[s->label[i]] += s->label[i] != 0;
	}
	for (long i = 1; i <= nl; i++) {
		int32_t area = s->parent[i];
		s->parent[i] = 0;
		if (area < sp->min_area_px) { /* weak pixels too; every label has strong ones */
			continue;
		}
		if (nb == s->max_blobs) {
			out->truncated = 1;
			break;
		}
		s->blobs[nb] = (struct jd_sense_blob){(int32_t)i, area, {w, h, -1, -1}};
		s->parent[i] = (int32_t)++nb;
	}
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			int32_t k = s->parent[s->label[(size_t)y * w + x]];
			if (k) {
				int32_t *b = s->blobs[k - 1].bbox;
				b[0] = x < b[0] ? x : b[0];
				b[1] = y < b[1] ? y : b[1];
				b[2] = x > b[2] ? x : b[2];
				b[3] = y > b[3] ? y : b[3];
			}
		}
	}
	return nb;
}

int jd_sense_run(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		 const struct jd_disp *disp, void *mem, size_t ws_bytes,
		 struct jd_sense_result *out, const struct jd_exec *ex)
{
	int w = disp->width, h = disp->height;
	struct jd_sense_ws s;
	struct jd_sense_roi r;

	memset(out, 0, sizeof(*out));
	JD_TRY(jd_sense_check(sp, cam, w, h, &r));
	if (jd_sense_carve(mem, ws_bytes, w, h, &s)) {
		return -ENOMEM;
	}
	if (!sp->use_fixed) {
		fit_plane(sp, cam, disp, &r, &s, &out->plane, ex);
	}
	jd_sense_extent(cam, &r, &out->plane, w, &s);
	/* Object pixels: above the table (or past the fixed threshold without one). */
	struct mask_job mj = {sp, cam,	disp,	&out->plane,
			      &r, s.m0, s.weak, sp->use_fixed || !out->plane.valid};
	jd_exec_run(ex, h, mask_row, &mj);
	uint8_t *tmp = (uint8_t *)s.label;   /* free until labelling */
	morph(s.m0, s.m1, tmp, w, h, 0, ex); /* open: speckles go */
	morph(s.m1, s.m0, tmp, w, h, 1, ex);
	morph(s.m0, s.m1, tmp, w, h, 1, ex); /* close: small holes go */
	morph(s.m1, s.m0, tmp, w, h, 0, ex);
	long nl = label8(s.m0, disp, w, h, &s);
	if (nl < 0) {
		return -ENOMEM;
	}
	grow(disp, w, h, &s);
	long nb = blobs_of(sp, &s, w, h, nl, out);
	struct jd_sense_ref_gather rg = {cam, disp, &out->plane, &s, ex, {0}};
	struct jd_sense_gather g;
	jd_sense_ref_gather_init(&rg, &g);
	return jd_sense_objects(sp, cam, &r, &s, s.blobs, nb, &g, out);
}
