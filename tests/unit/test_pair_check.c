/* algo/geometry/pair_check.c: a good pair passes; swapped, shifted and flat pairs are named. */
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
	JD_CHECK(verdict(left, right, &pc) == JD_PAIR_OK,
		 "the synthetic pair: verdict %d (%d of %d)", pc.verdict, pc.confident, pc.patches);
	JD_CHECK(pc.positive > 0 && pc.negative == 0, "good pair: %d positive, %d negative",
		 pc.positive, pc.negative);
	JD_CHECK(verdict(right, left, &pc) == JD_PAIR_SWAPPED,
		 "swapped: verdict %d (%d neg, %d pos)", pc.verdict, pc.negative, pc.positive);
	/* the right view 5 rows down: a raw (unrectified) pair */
	memcpy(tmp, right, sizeof(tmp));
	memmove(tmp + 5 * W, right, (size_t)(H - 5) * W);
	JD_CHECK(verdict(left, tmp, &pc) == JD_PAIR_UNRECTIFIED && pc.median_dy == 5,
		 "shifted: verdict %d, median dy %d", pc.verdict, pc.median_dy);
	/* a drifted rig: the right view a fraction of a row down (bilinear), measured to 0.15 px */
	JD_CHECK(verdict(left, right, &pc) == JD_PAIR_OK && pc.dy_px > -0.15f && pc.dy_px < 0.15f,
		 "aligned: %.2f px", (double)pc.dy_px);
	for (int k = 0; k < 3; k++) {
		static const float shift[3] = {0.3f, 0.7f, -0.6f};
		float f = shift[k] < 0 ? 1.0f + shift[k] : shift[k];
		int up = shift[k] < 0 ? 0 : 1; /* rows come from above (down shift) or below */
		for (int y = 0; y < H; y++) {
			int y0 = up ? (y > 0 ? y - 1 : 0) : y,
			    y1 = up ? y : (y + 1 < H ? y + 1 : y);
			for (int x = 0; x < W; x++) {
				float a = right[y0 * W + x], b = right[y1 * W + x];
				/* down: f of the row above; up: 1 - f of the row below */
				tmp[y * W + x] = (uint8_t)(f * a + (1 - f) * b + 0.5f);
			}
		}
		verdict(left, tmp, &pc);
		JD_CHECK(pc.dy_px > shift[k] - 0.15f && pc.dy_px < shift[k] + 0.15f,
			 "%.1f px down: measured %.2f px", (double)shift[k], (double)pc.dy_px);
	}
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
