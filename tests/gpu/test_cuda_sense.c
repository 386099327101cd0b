/*
 * Sensing on the GPU (hal/cuda/sense_cuda.h) against jd_sense_run() on the same map: the same
 * result byte for byte (the plane and its verdict, every object's measures and grasp, the
 * flags). Maps: GPU SGM's on the synthetic scene through the frame staging (the map masked
 * by its confidence on the device as the host masks its copy; with and without a minimum;
 * the map itself handed over masked; two frames in flight), and maps written straight into the
 * stage: the scene's truth, the same with noise, holes and speckles, under other parameters (a
 * fixed threshold, a ROI, tiny blobs, a strict tilt, many hypotheses, a sparse map whose
 * hypotheses' draw outruns the candidates that come back first, or all the stage holds), and a
 * map of more blobs than the stage's list holds (the reference then decides). At least some cases
 * must find a table and objects. Without a GPU: exit 77.
 */
#include <stdio.h>
#include <string.h>

#include "camera_synth.h"
#include "confidence.h"
#include "cuda/confidence_cuda.h"
#include "cuda/sense_cuda.h"
#include "gpu_util.h"
#include "synth.h"

static int with_objects, with_table;

static void show(const char *who, const struct jd_sense_result *r)
{
	printf("  %s: table %s (%ld inliers, a %.9g b %.9g c %.9g), %d objects%s\n", who,
	       jd_table_verdict_name(r->plane.verdict), r->plane.inliers, (double)r->plane.a,
	       (double)r->plane.b, (double)r->plane.c, r->nobjects,
	       r->truncated ? ", truncated" : "");
	for (int i = 0; i < r->nobjects && i < 4; i++) {
		const struct jd_object *o = &r->objects[i];
		printf("    #%d area %ld box %d,%d-%d,%d centroid %.9g %.9g %.9g yaw %.9g\n", o->id,
		       o->area_px, o->bbox[0], o->bbox[1], o->bbox[2], o->bbox[3],
		       (double)o->centroid_mm[0], (double)o->centroid_mm[1],
		       (double)o->centroid_mm[2], (double)o->yaw_deg);
	}
}

/* Sense map (already in the stage, slot s->last) both ways. @return 1 when identical */
static int compare(struct jd_cuda *cu, struct jd_cuda_sense *s, const struct jd_sense_params *sp,
		   const struct jd_camera_model *cam, const struct jd_disp *map, const char *what)
{
	static struct jd_sense_result ref, gpu;
	size_t bytes = jd_sense_mem_required(map->width, map->height);
	void *ws = malloc(bytes);
	int rc_ref = jd_sense_run(sp, cam, map, ws, bytes, &ref, NULL);
	int rc_gpu = jd_cuda_sense_run(cu, s, sp, cam, ws, bytes, &gpu, NULL);
	int same = rc_ref == rc_gpu && memcmp(&ref, &gpu, sizeof(ref)) == 0;

	JD_CHECK(same, "%s: the GPU's result differs (rc %d / %d; %s)", what, rc_ref, rc_gpu,
		 cu->err);
	if (!same) {
		show("reference", &ref);
		show("gpu", &gpu);
	}
	with_table += ref.plane.valid;
	with_objects += ref.nobjects > 0;
	free(ws);
	return same;
}

/* GPU SGM with the confidence and sensing beside it. */
struct stage {
	struct gpu_rig g;
	struct jd_match_params p;
	int w, h;
};

static int boot(struct stage *st, int w, int h, int ndisp)
{
	jd_params_default(&st->p, JD_ALGO_SGM, ndisp);
	st->g = (struct gpu_rig){
	    .p = &st->p, .w = w, .h = h, .stages = JD_CUDA_STAGE_CONF | JD_CUDA_STAGE_SENSE};
	int rc = gpu_rig_boot(&st->g, gpu_memory());
	JD_CHECK(rc == 0, "boot %dx%d: %s", w, h, st->g.cu.err);
	if (rc) {
		return rc;
	}
	st->w = w;
	st->h = h;
	return 0;
}

/* GPU SGM's maps of the synthetic scene through the frame staging. */
static int pipeline(int w, int h, int ndisp, int min_conf, int mask_map, int *total)
{
	static struct stage st;
	struct jd_match_params p;
	struct jd_camera_model cam;
	struct jd_sense_params sp;
	struct jd_image l[2], r[2];
	struct jd_disp map = {malloc(sizeof(float) * w * h), w, h, w};
	char what[96];
	int ok = 0;

	if (boot(&st, w, h, ndisp)) {
		return 0;
	}
	gpu_count_allocations(&st.g.cu);
	jd_params_default(&p, JD_ALGO_SGM, ndisp);
	jd_cam_synth_model(w, h, &cam);
	jd_sense_default(&sp);
	jd_cuda_sense_start(&st.g.m.rooms.sense, min_conf, mask_map);
	for (int k = 0; k < 2; k++) {
		l[k] = (struct jd_image){malloc((size_t)w * h), w, h, w};
		r[k] = (struct jd_image){malloc((size_t)w * h), w, h, w};
		jd_synth_render(3 * k, ndisp, &l[k], &r[k], NULL);
	}
	/* two frames in flight: each is sensed from its own slot's map */
	JD_CHECK(jd_cuda_matcher_submit(&st.g.m, &p, &l[0], &r[0]) == 0 &&
		     jd_cuda_matcher_submit(&st.g.m, &p, &l[1], &r[1]) == 0,
		 "submit: %s", st.g.cu.err);
	for (int k = 0; k < 2; k++) {
		JD_CHECK(jd_cuda_matcher_collect(&st.g.m, &map) == 0, "collect: %s", st.g.cu.err);
		const unsigned char *conf = jd_cuda_conf_last(st.g.m.frame);
		if (mask_map) {
			/* it came masked: invalid wherever the confidence is below the minimum */
			long unmasked = 0;
			for (long i = 0; i < (long)w * h; i++) {
				unmasked += conf[i] < min_conf && map.data[i] != JD_DISP_INVALID;
			}
			JD_CHECK(unmasked == 0, "%ld pixels below the minimum came back unmasked",
				 unmasked);
		} else if (min_conf) {
			jd_confidence_mask(&map, conf, min_conf);
		}
		snprintf(what, sizeof(what), "sgm %dx%d/%d frame %d, min confidence %d%s", w, h,
			 ndisp, 3 * k, min_conf, mask_map ? ", masked on the GPU" : "");
		ok += compare(&st.g.cu, &st.g.m.rooms.sense, &sp, &cam, &map, what);
		++*total;
	}
	JD_CHECK(gpu_alloc_calls == 0, "%lu allocations after boot", gpu_alloc_calls);
	gpu_restore_allocations(&st.g.cu);
	jd_cuda_deinit(&st.g.cu);
	for (int k = 0; k < 2; k++) {
		free(l[k].data);
		free(r[k].data);
	}
	free(map.data);
	return ok;
}

/* Write map into the stage's slot 0, as the frame staging would have. */
static int put(struct stage *st, const struct jd_disp *map)
{
	struct jd_cuda *cu = &st->g.cu;

	JD_TRY(JD_CU(cu, cuMemcpyHtoDAsync_v2(st->g.m.rooms.sense.d_disp[0], map->data,
					      sizeof(float) * st->w * st->h, cu->stream[0])));
	JD_TRY(JD_CU(cu, cuStreamSynchronize(cu->stream[0])));
	st->g.m.rooms.sense.last = 0;
	return 0;
}

/*
 * SPARSE keeps one pixel in ten: the hypotheses' draw reads more candidates than come back
 * first; SPARSE_MANY with 2000 iterations more than the stage holds (the host finishes).
 */
enum variant { PLAIN, NOISY, FIXED, ROI, TINY, STRICT, MANY, SPARSE, SPARSE_MANY, NVARIANTS };

static void params_for(enum variant v, int w, int h, float fixed_disp, struct jd_sense_params *sp)
{
	jd_sense_default(sp);
	switch (v) {
	case FIXED:
		sp->use_fixed = 1;
		sp->fixed_disp = fixed_disp;
		break;
	case ROI:
		sp->roi[0] = w / 7;
		sp->roi[1] = h / 5;
		sp->roi[2] = w - w / 9;
		sp->roi[3] = h - 3;
		break;
	case TINY:
		sp->min_area_px = 1;
		sp->min_height_mm = 2.0f;
		break;
	case STRICT:
		sp->max_table_tilt_deg = 5.0f;
		break;
	case MANY:
	case SPARSE_MANY:
		sp->ransac_iters = 2000;
		sp->seed = 7;
		break;
	default:
		break;
	}
}

/* Noise (+-0.3 px), 3 % holes and bright speckles on a map. */
static void spoil(struct jd_disp *m, unsigned seed)
{
	for (long i = 0; i < (long)m->width * m->height; i++) {
		unsigned r = jd_test_rand(&seed);
		if (r % 100 < 3) {
			m->data[i] = JD_DISP_INVALID;
		} else if (r % 1000 < 4) {
			m->data[i] += 20.0f;
		} else if (m->data[i] > 0) {
			m->data[i] += (float)((int)(r >> 20 & 255) - 128) * (0.3f / 128);
		}
	}
}

/* The scene's truth, spoiled or not, under each variant's parameters. */
static int direct(int w, int h, int ndisp, int *total)
{
	static struct stage st;
	struct jd_camera_model cam;
	struct jd_sense_params sp;
	struct jd_image l = {malloc((size_t)w * h), w, h, w}, r = {malloc((size_t)w * h), w, h, w};
	struct jd_disp map = {malloc(sizeof(float) * w * h), w, h, w};
	char what[96];
	int ok = 0;

	if (boot(&st, w, h, ndisp)) {
		return 0;
	}
	jd_cam_synth_model(w, h, &cam);
	jd_cuda_sense_start(&st.g.m.rooms.sense, 0, 0);
	for (uint32_t seed = 0; seed < 3; seed++) {
		for (int v = 0; v < NVARIANTS; v++) {
			jd_synth_render_seeded(seed, 2 * (int)seed, ndisp, &l, &r, &map);
			if (v == NOISY || v == TINY) {
				spoil(&map, 11u + seed);
			}
			for (long i = 0; (v == SPARSE || v == SPARSE_MANY) && i < (long)w * h;
			     i++) {
				map.data[i] = i % 10 ? JD_DISP_INVALID : map.data[i];
			}
			unsigned long on_host = st.g.m.rooms.sense.on_host;
			params_for((enum variant)v, w, h, (float)ndisp * 0.45f, &sp);
			if (put(&st, &map)) {
				JD_CHECK(0, "upload: %s", st.g.cu.err);
				break;
			}
			snprintf(what, sizeof(what), "truth %dx%d seed %u variant %d", w, h,
				 (unsigned)seed, v);
			ok += compare(&st.g.cu, &st.g.m.rooms.sense, &sp, &cam, &map, what);
			++*total;
			JD_CHECK((st.g.m.rooms.sense.on_host > on_host) == (v == SPARSE_MANY),
				 "%s: finished on the host %lu time(s)", what,
				 st.g.m.rooms.sense.on_host - on_host);
		}
	}
	/*
	 * More blobs than the list holds: a patch where no pixel joins a neighbour (four
	 * disparities far apart, by the pixel's row and column parity), above the threshold.
	 */
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			map.data[(size_t)y * w + x] = 5.0f + 10.0f * (float)(x % 2 + 2 * (y % 2));
		}
	}
	params_for(FIXED, w, h, 1.0f, &sp);
	sp.min_area_px = 1;
	if (!put(&st, &map)) {
		snprintf(what, sizeof(what), "%dx%d blobs beyond the list", w, h);
		ok += compare(&st.g.cu, &st.g.m.rooms.sense, &sp, &cam, &map, what);
		++*total;
	}
	jd_cuda_deinit(&st.g.cu);
	free(l.data);
	free(r.data);
	free(map.data);
	return ok;
}

int main(void)
{
	int ok = 0, total = 0;

	gpu_require();
	ok += pipeline(320, 240, 32, JD_MIN_CONFIDENCE_DEFAULT, 0, &total);
	ok += pipeline(320, 240, 32, JD_MIN_CONFIDENCE_DEFAULT, 1, &total);
	ok += pipeline(320, 240, 32, 0, 0, &total);
	ok += direct(160, 120, 16, &total);
	if (!gpu_quick()) {
		ok += pipeline(640, 480, 64, JD_MIN_CONFIDENCE_DEFAULT, 0, &total);
		ok += pipeline(1280, 720, 128, JD_MIN_CONFIDENCE_DEFAULT, 1, &total);
		ok += direct(640, 480, 64, &total);
	}
	printf("%d of %d cases identical to the reference (%d with a table, %d with objects)\n", ok,
	       total, with_table, with_objects);
	JD_CHECK(with_table >= total / 3 && with_objects >= total / 3,
		 "too few cases find a table and objects: the comparison proves little");
	return jd_test_done("gpu.cuda_sense");
}
