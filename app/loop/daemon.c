#include "daemon_state.h"

#include <math.h>
#include <string.h>

#include "../../algo/match/confidence.h"
#include "../../algo/eval.h"
#include "../../algo/jd_carve.h"
#include "../../algo/jd_status.h"
#include "../../algo/match/matcher.h"
#include "../../algo/geometry/pair_check.h"
#include "../../hal/camera/camera_synth.h"
#include "../../hal/clock.h"

const char *const jd_stage_names[JD_STAGES] = {"capture", "submit", "collect", "confidence",
					       "sense"};

/* The process's CPU time since t goes to stage s; returns the time now. */
static uint64_t lap(struct jd_daemon *d, enum jd_stage s, uint64_t t)
{
	uint64_t now = jd_clock_cpu_ns();

	d->stage_ns[s] += now - t;
	return now;
}

/* The frame loop's own boot memory, in order; the same layout sizes it (base NULL). */
struct loop_regions {
	void *cam, *rect, *raw[2], *sense, *app, *conf, *conf_ws;
	size_t cam_bytes, rect_bytes, sense_bytes, conf_ws_bytes;
};

static void loop_layout(struct jd_carve *c, struct loop_regions *r, size_t npix, size_t app_bytes)
{
	r->cam = jd_carve(c, r->cam_bytes);
	r->conf = jd_carve(c, npix);
	r->conf_ws = jd_carve(c, r->conf_ws_bytes);
	r->rect = r->rect_bytes ? jd_carve(c, r->rect_bytes) : NULL;
	for (int i = 0; i < 2; i++) {
		r->raw[i] = r->rect_bytes ? jd_carve(c, npix) : NULL;
	}
	r->sense = r->sense_bytes ? jd_carve(c, r->sense_bytes) : NULL;
	r->app = app_bytes ? jd_carve(c, app_bytes) : NULL;
}

/* the process's one frame loop, and whether it is booted */
static struct jd_daemon the_daemon;
static int booted;

static int daemon_boot(struct jd_daemon *d, const struct jd_match_params *p, int w, int h,
		       int threads, const struct jd_daemon_opts *o, FILE *log)
{
	static const struct jd_daemon_opts none;
	o = o ? o : &none;
	const struct jd_capture_config *cam = o->cam;
	const struct jd_sense_options *sense = o->sense;
	const struct jd_board *board = o->board;
	/* the camera as given, else the synthetic rig; the frame size and search are the run's */
	struct jd_capture_config camera = {.kind = JD_CAPTURE_SYNTH};
	int rc;

	memset(d, 0, sizeof(*d));
	d->p = *p;
	camera = cam ? *cam : camera;
	camera.cam.width = w;
	camera.cam.height = h;
	camera.synth.ndisp = p->ndisp;
	if (camera.cam.timeout_ms <= 0) {
		camera.cam.timeout_ms = 1000;
	}
	if (camera.cam.buffers <= 0) {
		camera.cam.buffers = 4;
	}
	/* Sensing: the options' camera model, else the synthetic rig's, else none. */
	if (sense) {
		d->sp = sense->sp;
		d->model = sense->cam;
		d->sensing = sense->have_focal && sense->have_baseline;
	} else {
		jd_sense_default(&d->sp);
	}
	const char *source = d->sensing ? "--focal, --baseline" : NULL;
	if (!d->sensing && camera.calib) {
		source = "the calibration";
		double f, cx, cy, bl, units;
		jd_calib_model(camera.calib, &f, &cx, &cy, &bl, &units);
		d->model =
		    (struct jd_camera_model){(float)f, (float)cx, (float)cy, (float)(bl * units)};
		d->sensing = 1;
	}
	if (!d->sensing && camera.kind == JD_CAPTURE_SYNTH) {
		source = "the synthetic rig";
		jd_cam_synth_model(w, h, &d->model);
		d->sensing = 1;
	}
	d->rectify = camera.calib != NULL;
	if (d->sensing && !(d->model.cx == d->model.cx)) {
		d->model.cx = (float)(w - 1) / 2.0f;
	}
	if (d->sensing && !(d->model.cy == d->model.cy)) {
		d->model.cy = (float)(h - 1) / 2.0f;
	}
	size_t npix = (size_t)w * h;
	struct loop_regions lr = {.cam_bytes = jd_capture_mem_required(&camera),
				  .rect_bytes = d->rectify ? jd_rectifier_mem_required(w, h) : 0,
				  .sense_bytes = d->sensing ? jd_sense_mem_required(w, h) : 0,
				  .conf_ws_bytes = jd_confidence_mem_required(w, h, threads)};
	struct jd_carve c;
	jd_carve_init(&c, NULL, 0);
	loop_layout(&c, &lr, npix, o->app_bytes);
	/* the GPU stages the loop may ask for (boot takes them where whole frames go there) */
	unsigned stages = (d->rectify ? JD_CUDA_STAGE_REMAP : 0) |
			  (o->ros2 && d->sensing ? JD_CUDA_STAGE_CLOUD : 0) |
			  (o->preview ? JD_CUDA_STAGE_PREVIEW : 0);
	struct jd_boot_config bc = {.p = p,
				    .w = w,
				    .h = h,
				    .threads = threads,
				    .gt_maps = JD_DAEMON_INFLIGHT,
				    .loop_bytes = jd_carve_total(&c),
				    .stages = stages,
				    .board = board,
				    .log = log};
	if (o->choices) {
		bc.choices = *o->choices;
	}
	JD_TRY(jd_boot_init(&d->engine, &bc));
	jd_carve_init(&c, d->engine.loop_mem, d->engine.loop_bytes);
	loop_layout(&c, &lr, npix, o->app_bytes);
	if (d->rectify) {
		jd_rectifier_init(&d->rect, camera.calib, w, h, lr.rect, lr.rect_bytes);
		for (int i = 0; i < 2; i++) {
			d->raw[i] = (struct jd_image){lr.raw[i], w, h, w};
		}
		if (d->engine.gpu_rectify) {
			rc = jd_engine_rectify_on_gpu(&d->engine, d->rect.map);
			if (rc) {
				jd_boot_deinit(&d->engine);
				return rc;
			}
			d->gpu_rectify = 1;
		}
		if (log) {
			fprintf(log,
				"rectify: undistort + rectify tables built (%.1f MiB), applied on "
				"the %s\n",
				(double)lr.rect_bytes / (1 << 20), d->gpu_rectify ? "GPU" : "CPU");
		}
	}
	d->sense_ws = lr.sense;
	d->sense_bytes = lr.sense_bytes;
	d->conf = lr.conf;
	d->conf_ws = lr.conf_ws;
	d->conf_ws_bytes = lr.conf_ws_bytes;
	d->no_truth = o && o->no_truth;
	d->min_conf = sense ? sense->min_confidence : JD_MIN_CONFIDENCE_DEFAULT;
	/* without a truth to score the raw map against, the GPU hands it over masked */
	int scored = !d->no_truth && camera.kind == JD_CAPTURE_SYNTH;
	struct jd_cuda_ask sensing = {.min_conf = d->min_conf, .mask_map = !scored};
	d->gpu_sense = d->sensing && jd_engine_gpu_ask(&d->engine, JD_CUDA_STAGE_SENSE, &sensing);
	d->gpu_masks = d->gpu_sense && !scored;
	d->gpu_conf = jd_engine_gpu_ask(&d->engine, JD_CUDA_STAGE_CONF, NULL);
	d->want_back = JD_CUDA_BACK_ALL;
	/* the loop reads each frame's map and pair before it submits the next: no copies, and
	 * capture writes each frame where the GPU sends it from */
	jd_engine_lend(&d->engine);
	d->ndest = jd_engine_destinations(&d->engine, d->dest, &d->first_dest);
	jd_tracker_init(&d->tracker);
	d->calib_dy_px = NAN;
	if (log) {
		if (d->sensing) {
			fprintf(log,
				"sensing: f %.1f px, principal point (%.1f, %.1f), baseline "
				"%.1f mm (from %s)\n",
				(double)d->model.f, (double)d->model.cx, (double)d->model.cy,
				(double)d->model.baseline_mm, source);
		} else {
			fprintf(log, "sensing: off (no camera model: give --calib, or --focal and "
				     "--baseline)\n");
		}
	}
	camera.synth.exec = &d->engine.workers.exec; /* idle while the loop captures */
	camera.kernels = &d->engine.kernels; /* the luma conversion boot chose and printed */
	rc = jd_capture_init(&d->cap, &camera, lr.cam, lr.cam_bytes, log);
	if (rc) {
		fprintf(stderr, "jetdepth: boot: %s\n", d->cap.err);
		jd_boot_deinit(&d->engine);
		return rc;
	}
	d->info = (struct jd_daemon_info){
	    w,		 h,
	    &d->p,	 d->sensing ? &d->model : NULL,
	    lr.app,	 d->engine.budget.total,
	    d->min_conf, !d->engine.gpu ? "cpu" : d->engine.cuda.mapped ? "mapped" : "cuda"};
	return 0;
}

int jd_daemon_init(struct jd_daemon **d, const struct jd_match_params *p, int w, int h, int threads,
		   const struct jd_daemon_opts *o, FILE *log)
{
	if (booted) {
		fprintf(stderr, "jetdepth: boot: the frame loop is running already\n");
		return -EBUSY;
	}
	int rc = daemon_boot(&the_daemon, p, w, h, threads, o, log);
	booted = rc == 0;
	*d = booted ? &the_daemon : NULL;
	return rc;
}

/*
 * Is the rectified pair l, r in order (algo/geometry/pair_check.h)? On the GPU-rectified path it is
 * the pair that came back with the map (collect), else the one about to be submitted.
 */
static void check_pair(struct jd_daemon *d, const struct jd_image *l, const struct jd_image *r)
{
	struct jd_pair_check pc;

	jd_pair_check(l, r, d->p.min_disp + d->p.ndisp, &pc);
	if (pc.verdict != JD_PAIR_UNSURE) {
		d->pair_verdict = pc.verdict; /* an unsure look keeps the last clear one */
	}
	/* the calibration monitor: a rectified rig's rows drift apart as it ages */
	if (pc.verdict == JD_PAIR_OK) {
		d->calib_dy_px = pc.dy_px;
		if (jd_pair_recalibrate(pc.dy_px) && !d->calib_warned) {
			d->calib_warned = 1;
			fprintf(
			    stderr,
			    "jetdepth: calibration: the rectified rows are %.2f px apart (at most "
			    "%.1f is fine): the rig has moved since it was calibrated; redo the "
			    "calibration (said once; /status and the JSON keep the figure)\n",
			    (double)pc.dy_px, (double)JD_PAIR_MAX_DY_PX);
		}
	}
}

/* What frame k (submitted next) brings back: the caller's outputs' and the loop's own. */
static unsigned bring_back(const struct jd_daemon *d, int k, const struct jd_daemon_frame *fr)
{
	unsigned want = d->gpu_conf ? d->want_back : JD_CUDA_BACK_ALL; /* else made here */

	if (fr->truth || (d->sensing && !d->gpu_sense)) {
		want |= JD_CUDA_BACK_MAP; /* scored against its truth, or sensed on the CPU */
	}
	if ((want & JD_CUDA_BACK_MAP) && d->min_conf && !d->gpu_masks) {
		want |= JD_CUDA_BACK_CONF; /* the loop masks the map by it */
	}
	if (d->gpu_rectify && k % JD_DAEMON_PAIR_CHECK_EVERY == 0) {
		want |= JD_CUDA_BACK_PAIR; /* the pair check looks at it */
	}
	return want;
}

/* Collect the oldest frame in flight and check it against its truth when there is one. */
static int collect(struct jd_daemon *d, struct jd_frame_stats *st)
{
	struct jd_engine *b = &d->engine;
	long long k = d->frame - d->inflight; /* the oldest in flight */
	struct jd_daemon_frame *fr = &d->slot[k % JD_DAEMON_INFLIGHT];

	d->inflight--;
	uint64_t cpu = jd_clock_cpu_ns();
	JD_TRY(jd_engine_collect(b));
	cpu = lap(d, JD_STAGE_COLLECT, cpu);
	st->frame = k;
	st->match_ns = jd_clock_ns() - fr->t_submit;
	st->gpu_ms = b->gpu ? b->cuda.last_kernel_ms : 0.0;
	st->has_truth = fr->truth; /* never set with no_truth: no truth map is passed */
	st->bad1 = st->invalid = 0.0;
	st->ts_ns = fr->ts;
	st->capture_ms = fr->capture_ms;
	st->rectify_ms = fr->rectify_ms;
	st->sense = NULL;
	st->tracks = NULL;
	st->sense_ms = 0.0;
	if (st->has_truth) {
		struct jd_eval_result res;

		jd_eval(&b->disp, &b->gt[k % JD_DAEMON_INFLIGHT], NULL, &res);
		st->bad1 = res.bad[1];
		st->invalid = res.invalid;
	}
	/*
	 * The confidence from the frame's own rectified pair, as it came back with the map (or
	 * is lent where it lies). Then the map keeps only what is trusted, for the depth, the
	 * cloud and sensing.
	 */
	uint64_t tc = jd_clock_ns();
	jd_engine_collected(b, &d->got);
	const struct jd_image *l = d->got.has_pair ? &d->got.pair[0] : NULL;
	const struct jd_image *r = d->got.has_pair ? &d->got.pair[1] : NULL;
	/* the GPU's, made beside the map from the same pair (the same bytes), else the CPU's */
	const uint8_t *conf = d->got.conf;
	if (!d->gpu_conf) {
		struct jd_conf_search search = {d->p.min_disp, d->p.ndisp};
		JD_TRY(jd_confidence_ref(l, r, &b->disp, &search, d->conf, d->conf_ws,
					 d->conf_ws_bytes, &b->workers.exec));
		conf = d->conf;
	}
	const struct jd_disp *map = d->got.map;
	if (map && d->min_conf && !d->gpu_masks) {
		jd_confidence_mask(&b->disp, conf, d->min_conf);
	}
	if (l && d->gpu_rectify && k % JD_DAEMON_PAIR_CHECK_EVERY == 0) {
		check_pair(d, l, r);
	}
	st->conf = conf;
	st->left = l;
	st->map = map;
	st->confidence_ms = (double)(jd_clock_ns() - tc) / 1e6;
	cpu = lap(d, JD_STAGE_CONFIDENCE, cpu);
	if (d->sensing) {
		uint64_t t0 = jd_clock_ns();
		if (d->gpu_sense) {
			/* the per-pixel work on the GPU, from the map masked there the same way */
			JD_TRY(jd_engine_gpu_sense(b, &d->sp, &d->model, d->sense_ws,
						   d->sense_bytes, &d->sense));
		} else {
			JD_TRY(jd_sense_run(&d->sp, &d->model, &b->disp, d->sense_ws,
					    d->sense_bytes, &d->sense, &b->workers.exec));
		}
		jd_tracker_update(&d->tracker, &d->sense, st->ts_ns, d->tracks);
		st->sense_ms = (double)(jd_clock_ns() - t0) / 1e6;
		st->sense = &d->sense;
		st->tracks = d->tracks;
	}
	cpu = lap(d, JD_STAGE_SENSE, cpu);
	/* every thread's CPU time since the previous frame: the loop's whole cost per frame */
	st->cpu_ms = d->cpu_ns ? (double)(cpu - d->cpu_ns) / 1e6 : 0.0;
	d->cpu_ns = cpu;
	for (int i = 0; i < JD_STAGES; i++) {
		st->stage_cpu_ms[i] = (double)d->stage_ns[i] / 1e6;
		d->stage_ns[i] = 0;
	}
	return 1;
}

int jd_daemon_step(struct jd_daemon *d, struct jd_frame_stats *st)
{
	struct jd_engine *b = &d->engine;
	long long k = d->frame;
	struct jd_daemon_frame *fr = &d->slot[k % JD_DAEMON_INFLIGHT];

	/* frame k is captured into its destination (boot's), free again once collected */
	uint64_t cpu = jd_clock_cpu_ns();
	uint64_t t0 = jd_clock_ns();
	int cpu_rectify = d->rectify && !d->gpu_rectify; /* else the GPU rectifies it */
	struct jd_engine_dest *dest = &d->dest[(d->first_dest + k) % d->ndest];
	struct jd_disp *gt = d->no_truth ? NULL : &b->gt[k % JD_DAEMON_INFLIGHT];
	struct jd_capture_raw raw = {{dest->raw[0], dest->raw[1]}, dest->raw_cap, {0, 0}};
	int rc;
	if (dest->raw[0]) {
		/* each view as the camera gave it: the device takes the luma and rectifies */
		rc = jd_capture_next_raw(&d->cap, &raw, gt, &fr->truth);
		for (int c = 0; !rc && c < 2; c++) {
			if (!jd_cuda_frame_takes_raw(raw.fmt[c])) {
				snprintf(d->cap.err, sizeof(d->cap.err),
					 "gpu: cannot take %s/%s frames raw",
					 jd_pixfmt_name(raw.fmt[0]), jd_pixfmt_name(raw.fmt[1]));
				rc = -EINVAL;
			}
		}
	} else {
		rc = jd_capture_next(&d->cap, cpu_rectify ? &d->raw[0] : &dest->pair[0],
				     cpu_rectify ? &d->raw[1] : &dest->pair[1], gt, &fr->truth);
	}
	d->camera_failed = rc != 0;
	JD_TRY(rc);
	uint64_t t1 = jd_clock_ns();
	fr->capture_ms = (double)(t1 - t0) / 1e6;
	fr->rectify_ms = 0.0;
	if (cpu_rectify) {
		jd_rectifier_apply(&d->rect, &b->kernels, &d->raw[0], &d->raw[1], &dest->pair[0],
				   &dest->pair[1], &b->workers.exec);
		fr->rectify_ms = (double)(jd_clock_ns() - t1) / 1e6;
	}
	if (!d->gpu_rectify && k % JD_DAEMON_PAIR_CHECK_EVERY == 0) {
		check_pair(d, &dest->pair[0], &dest->pair[1]);
	}
	fr->ts = d->cap.last_ts;
	cpu = lap(d, JD_STAGE_CAPTURE, cpu);
	jd_engine_bring_back(b, bring_back(d, k, fr));
	fr->t_submit = jd_clock_ns();
	JD_TRY(jd_engine_submit_frame(b, &d->p, dest, dest->raw[0] ? raw.fmt : NULL));
	lap(d, JD_STAGE_SUBMIT, cpu);
	d->frame++;
	d->inflight++;
	if (d->inflight < jd_engine_depth(b)) {
		return 0;
	}
	return collect(d, st);
}

int jd_daemon_drain(struct jd_daemon *d, struct jd_frame_stats *st)
{
	return d->inflight > 0 ? collect(d, st) : 0;
}

void jd_daemon_deinit(struct jd_daemon *d)
{
	if (d && booted) {
		jd_capture_deinit(&d->cap);
		jd_boot_deinit(&d->engine);
		booted = 0;
	}
}

const struct jd_daemon_info *jd_daemon_info(const struct jd_daemon *d)
{
	return &d->info;
}

void jd_daemon_progress(const struct jd_daemon *d, struct jd_daemon_progress *out)
{
	*out = (struct jd_daemon_progress){d->frame,	    d->inflight,    d->camera_failed,
					   d->pair_verdict, d->calib_dy_px, d->engine.cuda.copied};
}

const struct jd_capture *jd_daemon_cameras(const struct jd_daemon *d)
{
	return &d->cap;
}

int jd_daemon_skew(struct jd_daemon *d, double skew_ms[3])
{
	return jd_capture_skew(&d->cap, &skew_ms[0], &skew_ms[1], &skew_ms[2]);
}

int jd_daemon_recover(struct jd_daemon *d)
{
	return jd_capture_recover(&d->cap);
}

void jd_daemon_bring_back(struct jd_daemon *d, unsigned what)
{
	d->want_back = what;
}

int jd_daemon_picture_want(struct jd_daemon *d, float dmax)
{
	struct jd_cuda_ask a = {.min_conf = d->min_conf, .dmax = dmax};

	return jd_engine_gpu_ask(&d->engine, JD_CUDA_STAGE_PREVIEW, &a);
}

uint8_t *jd_daemon_picture(struct jd_daemon *d)
{
	return jd_engine_gpu_result(&d->engine, JD_CUDA_STAGE_PREVIEW);
}

int jd_daemon_cloud_want(struct jd_daemon *d, int what)
{
	struct jd_cuda_ask a = {.min_conf = d->min_conf, .what = what, .cam = &d->model};

	return jd_engine_gpu_ask(&d->engine, JD_CUDA_STAGE_CLOUD, &a);
}

struct jd_cuda_cloud_set *jd_daemon_cloud(struct jd_daemon *d)
{
	return jd_engine_gpu_result(&d->engine, JD_CUDA_STAGE_CLOUD);
}
