#include "stages_cuda.h"

#include "../../algo/jd_status.h"
#include "confidence_cuda.h"
#include "preview_cuda.h"
#include "rectify_cuda.h"

/* Each stage's entries, adapted to the table's one shape. */

static int remap_take(struct jd_cuda *cu, struct jd_cuda_frame *f, const struct jd_match_params *p,
		      struct jd_cuda_rooms *rooms)
{
	(void)p;
	(void)rooms;
	return jd_cuda_remap_take(cu, f);
}

static int remap_taken(const struct jd_cuda_frame *f)
{
	return f->remap.taken;
}

/* only once its tables are loaded (jd_cuda_remap_load()): until then frames come rectified */
static int remap_queue(struct jd_cuda *cu, struct jd_cuda_frame *f, jd_cudeviceptr map)
{
	(void)map;
	return f->remap.loaded ? jd__cuda_remap_run(cu, f) : 0;
}

static int remap_bring_back(struct jd_cuda *cu, struct jd_cuda_frame *f)
{
	return f->remap.loaded ? jd__cuda_remap_download(cu, f) : 0;
}

/* the rectified pair into the caller's images, where the frame is copied out, not lent */
static void remap_collected(struct jd_cuda_frame *f, int idx)
{
	if (idx < 0 || !f->remap.loaded || f->lend || !(f->slot[idx].back & JD_CUDA_BACK_PAIR)) {
		return;
	}
	const struct jd_cuda_slot *s = &f->slot[idx];
	struct jd_image *out[2] = {f->remap.left_out, f->remap.right_out};
	unsigned char *img[2] = {s->h_left, s->h_right};

	for (int k = 0; k < 2; k++) {
		if (out[k]) {
			jd_image_copy(&(struct jd_image){img[k], f->w, f->h, f->w}, out[k]);
		}
	}
}

static int conf_take(struct jd_cuda *cu, struct jd_cuda_frame *f, const struct jd_match_params *p,
		     struct jd_cuda_rooms *rooms)
{
	(void)rooms;
	return jd_cuda_conf_take(cu, f, p);
}

static int conf_taken(const struct jd_cuda_frame *f)
{
	return f->conf.taken;
}

static int conf_bring_back(struct jd_cuda *cu, struct jd_cuda_frame *f)
{
	return f->slot[f->cur].back & JD_CUDA_BACK_CONF ? jd__cuda_conf_download(cu, f) : 0;
}

static void conf_collected(struct jd_cuda_frame *f, int idx)
{
	f->conf.last =
	    idx >= 0 && (f->slot[idx].back & JD_CUDA_BACK_CONF) ? f->conf.h_conf[idx] : NULL;
}

static void *conf_result(struct jd_cuda_frame *f)
{
	return (void *)jd_cuda_conf_last(f);
}

static int sense_take(struct jd_cuda *cu, struct jd_cuda_frame *f, const struct jd_match_params *p,
		      struct jd_cuda_rooms *rooms)
{
	(void)p;
	return jd_cuda_sense_take(cu, f, &rooms->sense);
}

static int sense_taken(const struct jd_cuda_frame *f)
{
	return f->sense && f->sense->taken;
}

static void sense_ask(struct jd_cuda_frame *f, const struct jd_cuda_ask *a)
{
	jd_cuda_sense_start(f->sense, a->min_conf, a->mask_map);
}

/* the map masked by its confidence, which the confidence stage just made */
static int sense_queue(struct jd_cuda *cu, struct jd_cuda_frame *f, jd_cudeviceptr map)
{
	return f->sense->on ? jd__cuda_sense_queue(cu, f, map) : 0;
}

static void sense_collected(struct jd_cuda_frame *f, int idx)
{
	f->sense->last = idx;
}

static int preview_take(struct jd_cuda *cu, struct jd_cuda_frame *f,
			const struct jd_match_params *p, struct jd_cuda_rooms *rooms)
{
	(void)p;
	(void)rooms;
	return jd_cuda_preview_take(cu, f);
}

static int preview_taken(const struct jd_cuda_frame *f)
{
	return f->picture.taken;
}

static void preview_ask(struct jd_cuda_frame *f, const struct jd_cuda_ask *a)
{
	jd_cuda_preview_want(f, a->min_conf, a->dmax);
}

static void *preview_result(struct jd_cuda_frame *f)
{
	return jd_cuda_preview_last(f);
}

static int cloud_take(struct jd_cuda *cu, struct jd_cuda_frame *f, const struct jd_match_params *p,
		      struct jd_cuda_rooms *rooms)
{
	(void)p;
	return jd_cuda_cloud_take(cu, f, &rooms->cloud);
}

static int cloud_taken(const struct jd_cuda_frame *f)
{
	return f->cloud != NULL;
}

static void cloud_ask(struct jd_cuda_frame *f, const struct jd_cuda_ask *a)
{
	jd_cuda_cloud_want(f, a->what, a->min_conf, a->cam);
}

static void *cloud_result(struct jd_cuda_frame *f)
{
	return jd_cuda_cloud_claim(f);
}

/* In the order a frame meets them: the preview draws the map as sensing left it. */
const struct jd_cuda_stage jd_cuda_stages[] = {
    {JD_CUDA_STAGE_REMAP, "remap", 1, remap_take, remap_taken, NULL, remap_queue, remap_bring_back,
     remap_collected, NULL},
    {JD_CUDA_STAGE_CONF, "confidence", 0, conf_take, conf_taken, NULL, jd__cuda_conf_run,
     conf_bring_back, conf_collected, conf_result},
    {JD_CUDA_STAGE_SENSE, "sense", 0, sense_take, sense_taken, sense_ask, sense_queue, NULL,
     sense_collected, NULL},
    {JD_CUDA_STAGE_PREVIEW, "preview", 0, preview_take, preview_taken, preview_ask,
     jd__cuda_preview_run, jd__cuda_preview_download, NULL, preview_result},
    {JD_CUDA_STAGE_CLOUD, "cloud", 0, cloud_take, cloud_taken, cloud_ask, jd__cuda_cloud_run,
     jd__cuda_cloud_download, jd__cuda_cloud_collected, cloud_result},
};

const int jd_cuda_stage_count = (int)(sizeof(jd_cuda_stages) / sizeof(jd_cuda_stages[0]));

static const struct jd_cuda_stage *find(unsigned stage)
{
	for (int i = 0; i < jd_cuda_stage_count; i++) {
		if (jd_cuda_stages[i].bit == stage) {
			return &jd_cuda_stages[i];
		}
	}
	return NULL;
}

int jd_cuda_stages_take(struct jd_cuda *cu, struct jd_cuda_frame *f,
			const struct jd_match_params *p, struct jd_cuda_rooms *rooms, unsigned want)
{
	for (int i = 0; i < jd_cuda_stage_count; i++) {
		if (want & jd_cuda_stages[i].bit) {
			JD_TRY(jd_cuda_stages[i].take(cu, f, p, rooms));
		}
	}
	return 0;
}

int jd_cuda_stage_taken(const struct jd_cuda_frame *f, unsigned stage)
{
	const struct jd_cuda_stage *s = find(stage);

	return f && s && s->taken(f);
}

int jd_cuda_stage_ask(struct jd_cuda_frame *f, unsigned stage, const struct jd_cuda_ask *a)
{
	const struct jd_cuda_stage *s = find(stage);

	if (!jd_cuda_stage_taken(f, stage)) {
		return 0;
	}
	if (s->ask) {
		s->ask(f, a);
	}
	return 1;
}

void *jd_cuda_stage_result(struct jd_cuda_frame *f, unsigned stage)
{
	const struct jd_cuda_stage *s = find(stage);

	return jd_cuda_stage_taken(f, stage) && s->result ? s->result(f) : NULL;
}

int jd__cuda_stages_queue(struct jd_cuda *cu, struct jd_cuda_frame *f, int before,
			  jd_cudeviceptr map)
{
	for (int i = 0; i < jd_cuda_stage_count; i++) {
		if (jd_cuda_stages[i].before == before && jd_cuda_stages[i].taken(f)) {
			JD_TRY(jd_cuda_stages[i].queue(cu, f, map));
		}
	}
	return 0;
}

int jd__cuda_stages_bring_back(struct jd_cuda *cu, struct jd_cuda_frame *f)
{
	for (int i = 0; i < jd_cuda_stage_count && !cu->mapped; i++) {
		if (jd_cuda_stages[i].bring_back && jd_cuda_stages[i].taken(f)) {
			JD_TRY(jd_cuda_stages[i].bring_back(cu, f));
		}
	}
	return 0;
}

void jd__cuda_stages_collected(struct jd_cuda_frame *f, int idx)
{
	for (int i = 0; i < jd_cuda_stage_count; i++) {
		if (jd_cuda_stages[i].collected && jd_cuda_stages[i].taken(f)) {
			jd_cuda_stages[i].collected(f, idx);
		}
	}
}
