/*
 * Calls the FP16 BP kernel directly, bypassing the kernel table: on a CPU without FP16 this
 * must die with SIGILL. fp16_gating.sh uses it to show that the CPU model really lacks FP16,
 * so that jetdepth finishing on that CPU proves the table kept the kernel out of its way.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bp_kernels.h"

int main(void)
{
	enum { ND = 4, LEN = 8, HP = 16 };
	static uint16_t src[5][ND * HP], dst[4][ND * HP];
	static float h[4 * ND * JD_BP_CHUNK];
	struct jd_bp_scratch sc = {.h = h};
	struct jd_bp_chunk c = {.hp = HP, .len = LEN, .nd = ND, .fp16 = 1, .disc_k = 1.0f};

	for (int k = 0; k < 5; k++) {
		c.src[k] = src[k];
	}
	for (int k = 0; k < 4; k++) {
		c.dst[k] = dst[k];
	}
	jd_bp_send_neon_fp16(&c, &sc);
	printf("fp16 kernel ran (this CPU has FP16)\n");
	return 0;
}
