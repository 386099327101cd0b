/*
 * BP with FP16 arithmetic (bp_messages_neon_fp16.c) against the reference fp16-storage BP on
 * the dataset pairs. Not bit-exact by design; the documented bound (docs/neon.md): at most 3%
 * of pixels differ, and the 1-px bad rate against ground truth rises by at most 0.5 points.
 * Needs a CPU with FP16 (Orin; qemu -cpu max): elsewhere it skips, saying so.
 */
#include <stdio.h>

#include "eval.h"
#include "image_io.h"
#include "matcher.h"
#include "jd_test_data.h"
#include "neon_util.h"
#include "workers.h"

static double run(const struct jd_kernels *k, const struct jd_match_params *p, struct jd_image *l,
		  struct jd_image *r, struct jd_disp *out, const struct jd_disp *gt,
		  const struct jd_image *mask, const struct jd_exec *ex)
{
	size_t n = jd_match_mem_required(p, l->width, l->height, ex->nworkers);
	void *ws = aligned_alloc(64, (n + 63) / 64 * 64);
	struct jd_eval_result res;

	JD_CHECK(jd_match_run(k, p, l, r, out, ws, n, ex) == 0, "run");
	free(ws);
	jd_eval(out, gt, mask, &res);
	return res.bad[1];
}

int main(void)
{
	const char *list =
	    getenv("JD_TEST_PAIRS") ? getenv("JD_TEST_PAIRS") : "tsukuba venus teddy cones";
	struct jd_kernels k;
	struct jd_workers w;
	char pairs[256], *save = NULL, err[512];
	int checked = 0;

	if (jd_kernels_select(JD_BACKEND_NEON, 1, &k, err, sizeof(err))) {
		JD_SKIP("%s", err);
	}
	if (k.bp_send_fp16 == k.bp_send) {
		JD_SKIP("this CPU has no FP16 vector arithmetic (HWCAP_ASIMDHP): the FP16 BP "
			"kernel is not used here");
	}
	jd_workers_init(&w, 2);
	snprintf(pairs, sizeof(pairs), "%s", list);
	for (char *name = strtok_r(pairs, " ,", &save); name; name = strtok_r(NULL, " ,", &save)) {
		struct jd_test_pair tp;
		struct jd_match_params p;

		if (jd_test_load_pair(name, 1, &tp)) {
			continue;
		}
		struct jd_image l = tp.l, r = tp.r, mask = tp.mask;
		struct jd_disp gt = tp.gt;
		int nd = tp.ndisp;
		jd_params_default(&p, JD_ALGO_BP, nd);
		p.bp.fp16 = 1;

		int npx = l.width * l.height;
		struct jd_disp a = {malloc(sizeof(float) * npx), l.width, l.height, l.width};
		struct jd_disp b = {malloc(sizeof(float) * npx), l.width, l.height, l.width};
		double bad_ref = run(&jd_kernels_ref, &p, &l, &r, &a, &gt, &mask, &w.exec);
		double bad_fp16 = run(&k, &p, &l, &r, &b, &gt, &mask, &w.exec);
		long differ = 0;

		for (int i = 0; i < npx; i++) {
			differ += a.data[i] != b.data[i];
		}
		printf("%-8s bad>1px ref-fp16-storage %.2f%%  neon-fp16-arith %.2f%%  differing "
		       "%.3f%%\n",
		       name, bad_ref, bad_fp16, 100.0 * differ / npx);
		JD_CHECK(bad_fp16 <= bad_ref + 0.5, "%s: %.2f vs %.2f", name, bad_fp16, bad_ref);
		JD_CHECK(100.0 * differ / npx <= 3.0, "%s: %.3f%% differ", name,
			 100.0 * differ / npx);
		checked++;
		free(a.data);
		free(b.data);
		jd_test_free_pair(&tp);
	}
	jd_workers_deinit(&w);
	if (!checked) {
		JD_SKIP("no dataset pairs under %s/stereo (set JETDEPTH_DATA)", jd_test_data_dir());
	}
	return jd_test_done("neon.bp_fp16");
}
