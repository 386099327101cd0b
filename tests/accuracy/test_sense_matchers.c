/*
 * Sensing on every matcher's depth, not only on perfect maps: the synthetic scenes (a
 * textured table, boxes on it) rendered as a stereo pair, the right camera as it is, with a
 * gain of 1.1 and an offset of -10, and with 25 % radial vignetting; each matcher's map (its
 * defaults: SAD and BP on the rank-transformed pair) kept above the default confidence, then
 * sensed. Against sensing on the true disparity: the same objects, none more (no phantom),
 * each within 1 % of its distance.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "camera_synth.h"
#include "confidence.h"
#include "jd_test.h"
#include "matcher.h"
#include "sense.h"
#include "synth.h"
#include "workers.h"

enum { W = 450, H = 375, ND = 64 };

static void photometric(struct jd_image *im, int kind)
{
	double cx = (W - 1) / 2.0, cy = (H - 1) / 2.0, r2max = cx * cx + cy * cy;

	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			uint8_t *p = &im->data[y * W + x];
			double r2 = ((x - cx) * (x - cx) + (y - cy) * (y - cy)) / r2max;
			double v = kind == 1 ? 1.1 * *p - 10.0 : *p * (1.0 - 0.25 * r2);
			*p = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : floor(v + 0.5));
		}
	}
}

static void sense(const struct jd_disp *d, const struct jd_camera_model *cam,
		  struct jd_sense_result *res, const struct jd_exec *ex)
{
	struct jd_sense_params sp;
	size_t n = jd_sense_mem_required(W, H);
	void *ws = malloc(n);

	jd_sense_default(&sp);
	JD_CHECK(jd_sense_run(&sp, cam, d, ws, n, res, ex) == 0, "sense");
	free(ws);
}

int main(void)
{
	static const char *const kinds[] = {"as is", "gain 1.1 offset -10", "vignetting 25 %"};
	static const enum jd_algo algos[] = {JD_ALGO_SGM, JD_ALGO_BP, JD_ALGO_SAD};
	static uint8_t lb[W * H], rb[W * H], r0[W * H], conf[W * H];
	static float gtb[W * H], db[W * H];
	static struct jd_sense_result truth, got;
	struct jd_image l = {lb, W, H, W}, r = {rb, W, H, W}, rs = {r0, W, H, W};
	struct jd_disp gt = {gtb, W, H, W}, d = {db, W, H, W};
	struct jd_camera_model cam;
	struct jd_workers wk;

	JD_CHECK(jd_workers_init(&wk, 2) == 0, "workers");
	jd_cam_synth_model(W, H, &cam);
	for (uint32_t seed = 0; seed < 2; seed++) {
		jd_synth_render_seeded(seed, 0, ND, &l, &rs, &gt);
		sense(&gt, &cam, &truth, &wk.exec);
		JD_CHECK(truth.plane.valid && truth.nobjects > 0,
			 "seed %u: the truth has %d objects", seed, truth.nobjects);
		for (int kind = 0; kind < 3; kind++) {
			for (size_t a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
				struct jd_match_params p;
				jd_params_default(&p, algos[a], ND);
				for (int i = 0; i < W * H; i++) {
					rb[i] = r0[i];
				}
				if (kind) {
					photometric(&r, kind);
				}
				size_t n = jd_match_mem_required(&p, W, H, 2);
				size_t nc = jd_confidence_mem_required(W, H, 2);
				struct jd_conf_search search = {p.min_disp, p.ndisp};
				void *ws = malloc(n > nc ? n : nc);
				JD_CHECK(jd_match_run(NULL, &p, &l, &r, &d, ws, n, &wk.exec) == 0 &&
					     jd_confidence_ref(&l, &r, &d, &search, conf, ws, nc,
							       &wk.exec) == 0,
					 "match");
				free(ws);
				jd_confidence_mask(&d, conf, JD_MIN_CONFIDENCE_DEFAULT);
				sense(&d, &cam, &got, &wk.exec);
				const char *what = jd_algo_name(algos[a]);
				JD_CHECK(got.plane.valid && got.nobjects == truth.nobjects,
					 "seed %u %s %s: %d objects, the truth %d", seed, what,
					 kinds[kind], got.nobjects, truth.nobjects);
				for (int t = 0; t < truth.nobjects; t++) {
					const struct jd_object *o = &truth.objects[t], *best = NULL;
					double e = INFINITY;
					for (int g = 0; g < got.nobjects; g++) {
						const float *c = got.objects[g].centroid_mm;
						double dd = hypot(hypot(c[0] - o->centroid_mm[0],
									c[1] - o->centroid_mm[1]),
								  c[2] - o->centroid_mm[2]);
						if (dd < e) {
							e = dd;
							best = &got.objects[g];
						}
					}
					double off =
					    best ? fabs(best->distance_mm - o->distance_mm) /
						       o->distance_mm
						 : 1.0;
					JD_CHECK(off < 0.01,
						 "seed %u %s %s: object %d at %.0f mm off by "
						 "%.2f %%",
						 seed, what, kinds[kind], t, (double)o->distance_mm,
						 100 * off);
					printf("seed %u %-3s %-20s object %d: %.0f mm, off by %.2f "
					       "%%\n",
					       seed, what, kinds[kind], t, (double)o->distance_mm,
					       100 * off);
				}
			}
		}
	}
	jd_workers_deinit(&wk);
	return jd_test_done("accuracy.sense_matchers");
}
