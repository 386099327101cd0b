/*
 * The GPU stages around the matcher as one table (hal/cuda/stages_cuda.h), on the host alone:
 * the rows come in the order a frame meets them with every operation they need; a stage not
 * taken answers no ask and has no result; an ask reaches the stage's own state; collect's
 * two calls (before the wait: none; after it: the slot) set and clear what the host reads.
 * What the kernels make is the gpu tests' (gpu.cuda_confidence, gpu.cuda_sense, ...).
 */
#include <string.h>

#include "jd_test.h"
#include "stages_cuda.h"

static void rows(void)
{
	static const unsigned order[] = {JD_CUDA_STAGE_REMAP, JD_CUDA_STAGE_CONF,
					 JD_CUDA_STAGE_SENSE, JD_CUDA_STAGE_PREVIEW,
					 JD_CUDA_STAGE_CLOUD};
	unsigned seen = 0;

	JD_CHECK(jd_cuda_stage_count == 5, "%d stages", jd_cuda_stage_count);
	for (int i = 0; i < jd_cuda_stage_count; i++) {
		const struct jd_cuda_stage *s = &jd_cuda_stages[i];

		JD_CHECK(s->bit == order[i], "row %d is %s", i, s->name);
		JD_CHECK(s->take && s->taken && s->queue && s->name, "%s: an operation missing",
			 s->name);
		JD_CHECK(s->before == (s->bit == JD_CUDA_STAGE_REMAP), "%s: on the wrong side",
			 s->name);
		/* every stage after the confidence reads it: it comes first */
		JD_CHECK(s->before || s->bit == JD_CUDA_STAGE_CONF || (seen & JD_CUDA_STAGE_CONF),
			 "%s before the confidence", s->name);
		JD_CHECK(!(seen & s->bit), "%s twice", s->name);
		seen |= s->bit;
	}
}

static void not_taken(void)
{
	static struct jd_cuda_frame f;
	struct jd_cuda_ask a = {.min_conf = 3};

	memset(&f, 0, sizeof(f));
	f.last = -1;
	for (int i = 0; i < jd_cuda_stage_count; i++) {
		unsigned bit = jd_cuda_stages[i].bit;
		JD_CHECK(!jd_cuda_stage_taken(&f, bit), "%s taken", jd_cuda_stages[i].name);
		JD_CHECK(jd_cuda_stage_ask(&f, bit, &a) == 0, "%s answers", jd_cuda_stages[i].name);
		JD_CHECK(!jd_cuda_stage_result(&f, bit), "%s has a result", jd_cuda_stages[i].name);
	}
	JD_CHECK(!jd_cuda_stage_ask(NULL, JD_CUDA_STAGE_CONF, NULL), "no frame: the CPU's");
	JD_CHECK(!jd_cuda_stage_taken(&f, 64), "an unknown bit");
}

static void asks_and_results(void)
{
	static struct jd_cuda_frame f;
	static struct jd_cuda_sense sense;
	static unsigned char conf[2][16];

	memset(&f, 0, sizeof(f));
	f.last = -1;
	f.conf.taken = 1;
	f.conf.h_conf[0] = conf[0];
	f.conf.h_conf[1] = conf[1];
	f.picture.taken = 1;
	f.picture.slot = -1;
	sense.taken = 1;
	sense.last = -1;
	f.sense = &sense;

	struct jd_cuda_ask a = {.min_conf = 5, .dmax = 64.0f, .mask_map = 1};
	JD_CHECK(jd_cuda_stage_ask(&f, JD_CUDA_STAGE_CONF, NULL) == 1, "the GPU's confidence");
	JD_CHECK(jd_cuda_stage_ask(&f, JD_CUDA_STAGE_PREVIEW, &a) == 1, "preview asked");
	JD_CHECK(f.picture.want && f.picture.min_conf == 5 && f.picture.dmax == 64.0f,
		 "the picture's ask reached it");
	JD_CHECK(jd_cuda_stage_ask(&f, JD_CUDA_STAGE_SENSE, &a) == 1, "sensing asked");
	JD_CHECK(sense.on && sense.min_conf == 5 && sense.mask_map == 1, "sensing's ask");
	JD_CHECK(jd_cuda_stage_ask(&f, JD_CUDA_STAGE_CLOUD, &a) == 0, "no cloud taken");

	/* slot 1 brought its confidence back; slot 0 left it on the device */
	f.slot[1].back = JD_CUDA_BACK_MAP | JD_CUDA_BACK_CONF;
	f.slot[0].back = JD_CUDA_BACK_MAP;
	jd__cuda_stages_collected(&f, -1);
	f.last = 1;
	jd__cuda_stages_collected(&f, 1);
	JD_CHECK(jd_cuda_stage_result(&f, JD_CUDA_STAGE_CONF) == conf[1], "slot 1's confidence");
	JD_CHECK(sense.last == 1, "sensing reads slot 1: %d", sense.last);
	JD_CHECK(!jd_cuda_stage_result(&f, JD_CUDA_STAGE_PREVIEW), "no picture composed");
	jd__cuda_stages_collected(&f, -1);
	f.last = -1;
	JD_CHECK(!jd_cuda_stage_result(&f, JD_CUDA_STAGE_CONF) && sense.last == -1,
		 "before the wait nothing is the host's");
	f.last = 0;
	jd__cuda_stages_collected(&f, 0);
	JD_CHECK(!jd_cuda_stage_result(&f, JD_CUDA_STAGE_CONF), "slot 0 left it on the device");
}

int main(void)
{
	rows();
	not_taken();
	asks_and_results();
	return jd_test_done("unit.cuda_stages");
}
