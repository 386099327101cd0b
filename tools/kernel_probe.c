/*
 * Runs one kernel of the table once on a small fixed input, for counting instructions under
 * an instruction-level tracer (tools/insn_count.sh: qemu-aarch64 -singlestep -d exec).
 * usage: kernel_probe KERNEL ref|neon|neon-fp16|none
 * "none" does the same set-up without the kernel, so the difference is the kernel alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bp_kernels.h"
#include "sad_kernels.h"
#include "sgm.h"

enum { W = 256, H = 8, ND = 64, HP = 48 };

int main(int argc, char **argv)
{
	static uint8_t l[W * H], r[W * H], cost[W * H * ND];
	static uint64_t cl[W * H], cr[W * H];
	static uint16_t sf[W * H * ND], sb[W * H * ND], colsum[ND * (W + 10)];
	static uint8_t sweep[1 << 20], sel[1 << 16], lrow[W + 10], rrow[W + 10 + ND];
	static float disp[W * H], h[4 * ND * JD_BP_CHUNK];
	static float bsrc[5][ND * HP], bdst[4][ND * HP];
	static uint32_t best[W], best_r[W];
	static int bd[W], bdr[W];
	struct jd_image li = {l, W, H, W}, ri = {r, W, H, W};
	struct jd_disp out = {disp, W, H, W};
	struct jd_match_params p;
	struct jd_kernels k;
	char err[128];

	if (argc != 3) {
		fprintf(stderr, "usage: kernel_probe KERNEL ref|neon|neon-fp16|none\n");
		return 2;
	}
	for (int i = 0; i < W * H; i++) {
		l[i] = (uint8_t)(i * 2654435761u >> 24);
		r[i] = (uint8_t)((i + 3) * 2654435761u >> 24);
	}
	for (int i = 0; i < W * H * ND; i++) {
		cost[i] = (uint8_t)(i * 40503u >> 10) % 40;
	}
	for (int i = 0; i < W + 10 + ND; i++) {
		rrow[i] = (uint8_t)(i * 77);
		lrow[i % (W + 10)] = (uint8_t)(i * 31);
	}
	for (int i = 0; i < ND * HP; i++) {
		for (int s = 0; s < 5; s++) {
			bsrc[s][i] = (float)((i * 37 + s * 11) % 23) * 0.1f;
		}
	}
	jd_params_default(&p, JD_ALGO_SGM, ND);
	jd_kernels_select(strcmp(argv[2], "ref") == 0 ? JD_BACKEND_REF : JD_BACKEND_NEON,
			  strcmp(argv[2], "neon-fp16") == 0, &k, err, sizeof(err));
	if (strcmp(argv[2], "none") == 0) {
		return 0;
	}
	if (strcmp(argv[1], "census") == 0) {
		k.census(&li, cl, NULL);
	} else if (strcmp(argv[1], "sgm_cost") == 0) {
		k.sgm_cost(&p, &li, &ri, cl, cr, cost, NULL);
	} else if (strcmp(argv[1], "sgm_aggregate") == 0) {
		k.sgm_aggregate(&p, &li, cost, sf, sb, sweep, NULL);
	} else if (strcmp(argv[1], "sgm_select") == 0) {
		k.sgm_select(&p, sf, sb, &out, sel, NULL);
	} else if (strcmp(argv[1], "sad_accumulate") == 0) {
		k.sad_accumulate(colsum, lrow, rrow, W + 10, ND, 0, ND - 1, 1);
	} else if (strcmp(argv[1], "sad_wta") == 0) {
		for (int d = 0; d < ND; d++) {
			k.sad_wta(colsum + d * (W + 10), W, 11, d, d, best, bd, best_r, bdr);
		}
	} else if (strcmp(argv[1], "bp_messages") == 0 ||
		   strcmp(argv[1], "bp_messages_fp16") == 0) {
		int fp16 = argv[1][11] != '\0';
		struct jd_bp_scratch sc = {.h = h};
		struct jd_bp_chunk c = {
		    .hp = HP, .len = 32, .nd = ND, .fp16 = fp16, .disc_k = 8.5f};
		static float in[5][ND * JD_BP_CHUNK];

		for (int i = 0; i < 5; i++) {
			c.src[i] = bsrc[i];
			sc.in[i] = in[i];
		}
		for (int i = 0; i < 4; i++) {
			c.dst[i] = bdst[i];
			c.doff[i] = 1;
		}
		(fp16 ? k.bp_send_fp16 : k.bp_send)(&c, &sc);
	} else {
		fprintf(stderr, "kernel_probe: unknown kernel %s\n", argv[1]);
		return 2;
	}
	return 0;
}
