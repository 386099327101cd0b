/* algo/pair_check.c: a good pair passes; swapped, shifted and flat pairs are named. */
#include <stdlib.h>
#include <string.h>

#include "jd_test.h"
#include "pair_check.h"
#include "synth.h"

enum { W = 320, H = 240, ND = 48 };

static uint8_t left[W * H], right[W * H], tmp[W * H];

static enum jd_pair_verdict verdict(const uint8_t *l, const uint8_t *r, struct jd_pair_check *pc)
{
	struct jd_image li = {(uint8_t *)l, W, H, W}, ri = {(uint8_t *)r, W, H, W};

	jd_pair_check(&li, &ri, ND, pc);
	return pc->verdict;
}

int main(void)
{
	struct jd_image li = {left, W, H, W}, ri = {right, W, H, W};
	struct jd_pair_check pc;

	jd_synth_render(0, ND, &li, &ri, NULL);
	JD_CHECK(verdict(left, right, &pc) == JD_PAIR_OK, "the synthetic pair: verdict %d (%d of %d)",
		 pc.verdict, pc.confident, pc.patches);
	JD_CHECK(pc.positive > 0 && pc.negative == 0, "good pair: %d positive, %d negative",
		 pc.positive, pc.negative);
	JD_CHECK(verdict(right, left, &pc) == JD_PAIR_SWAPPED, "swapped: verdict %d (%d neg, %d pos)",
		 pc.verdict, pc.negative, pc.positive);
	/* the right view 5 rows down: a raw (unrectified) pair */
	memcpy(tmp, right, sizeof(tmp));
	memmove(tmp + 5 * W, right, (size_t)(H - 5) * W);
	JD_CHECK(verdict(left, tmp, &pc) == JD_PAIR_UNRECTIFIED && pc.median_dy == 5,
		 "shifted: verdict %d, median dy %d", pc.verdict, pc.median_dy);
	/* one camera 30 % brighter plus an offset: correlation does not care */
	for (int i = 0; i < W * H; i++) {
		int v = right[i] * 13 / 10 + 10;
		tmp[i] = (uint8_t)(v > 255 ? 255 : v);
	}
	JD_CHECK(verdict(left, tmp, &pc) == JD_PAIR_OK, "gain: verdict %d", pc.verdict);
	/* flat images: nothing to say */
	memset(tmp, 128, sizeof(tmp));
	JD_CHECK(verdict(tmp, tmp, &pc) == JD_PAIR_UNSURE && pc.patches == 0, "flat: verdict %d",
		 pc.verdict);
	/* too small to hold a patch and the row search */
	struct jd_image tiny = {left, 8, 8, W};
	jd_pair_check(&tiny, &tiny, 4, &pc);
	JD_CHECK(pc.verdict == JD_PAIR_UNSURE, "tiny: verdict %d", pc.verdict);
	return jd_test_done("unit.pair_check");
}
