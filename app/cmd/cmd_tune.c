/*
 * jetdepth tune: on this GPU, time each BP message-kernel configuration in the fatbin (one per
 * occupancy level, the seed's rule, plus the generic kernel) for each case, after checking
 * that it gives the reference's disparities bit for bit, and write the fastest per case to
 * the tuning file boot reads. Never runs in the frame loop.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../algo/bp/bp.h"
#include "../../algo/jd_status.h"
#include "../../algo/synth.h"
#include "../../hal/cuda/matcher_cuda.h"
#include "../../hal/cuda/tuning.h"
#include "../../hal/workers.h"
#include "cli.h"
#include "commands.h"

enum { OPT_SIZE = OPT_CMD_BASE, OPT_RUNS, OPT_OUT, OPT_HELP };

struct tune_case {
	int w, h, nd, fp16;
};

/* The benchmark table's BP cases and 128 disparities at the middle size. */
static const struct tune_case default_cases[] = {
    {384, 288, 16, 1},	{450, 375, 64, 1}, {450, 375, 128, 1},
    {900, 750, 128, 1}, {450, 375, 64, 0}, {900, 750, 128, 0},
};

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

static long first_difference(const struct jd_disp *a, const struct jd_disp *b)
{
	for (long i = 0; i < (long)a->width * a->height; i++) {
		if (!(a->data[i] == b->data[i] || (isinf(a->data[i]) && isinf(b->data[i])))) {
			return i;
		}
	}
	return -1;
}

/*
 * One variant: boot a GPU context for it, check its map against ref, time runs frames.
 * @return the median kernel ms, or a negative number when it failed or differed (said why)
 */
static float time_variant(const struct jd_match_params *p, const char *variant,
			  const struct jd_image *l, const struct jd_image *r,
			  const struct jd_disp *ref, struct jd_disp *out, int runs, char *gpu,
			  int *sm, int *driver)
{
	static struct jd_cuda cu;
	static struct jd_cuda_matcher m;
	/* BP's matcher with that message kernel, nothing beside it */
	struct jd_cuda_matcher_carving v = {&m, p, l->width, l->height, variant, 0};
	size_t dev, pinned;
	float ms[256];

	if (jd_cuda_open(&cu, JD_GPU_MEMORY_AUTO)) {
		fprintf(stderr, "jetdepth: tune: %s\n", cu.err);
		jd_cuda_deinit(&cu);
		return -2.0f;
	}
	snprintf(gpu, 128, "%s", cu.name);
	*sm = cu.sm_count;
	*driver = cu.driver_version;
	if (jd_cuda_count(&cu, jd_cuda_matcher_carve, &v, &dev, &pinned) ||
	    jd_cuda_allocate(&cu, dev, pinned) || jd_cuda_matcher_carve(&cu, &v)) {
		printf("    %-8s skipped: %s\n", variant, cu.err);
		jd_cuda_deinit(&cu);
		return -1.0f;
	}
	jd_cuda_seal(&cu);
	int rc = jd_cuda_matcher_run(&m, p, l, r, out);
	long diff = rc ? -2 : first_difference(ref, out);
	if (rc || diff >= 0) {
		printf("    %-8s rejected: %s\n", variant,
		       rc ? cu.err : "its disparities differ from the reference");
		jd_cuda_deinit(&cu);
		return -1.0f;
	}
	for (int i = 0; i < runs && !rc; i++) {
		rc = jd_cuda_matcher_run(&m, p, l, r, out);
		ms[i] = cu.last_kernel_ms;
	}
	jd_cuda_deinit(&cu);
	if (rc) {
		return -1.0f;
	}
	qsort(ms, (size_t)runs, sizeof(ms[0]), cmp_float);
	return ms[runs / 2];
}

static int tune_case(const struct tune_case *c, int runs, struct jd_workers *wk,
		     struct jd_tuning *t)
{
	struct jd_match_params p;
	struct jd_image l = {malloc((size_t)c->w * c->h), c->w, c->h, c->w};
	struct jd_image r = {malloc((size_t)c->w * c->h), c->w, c->h, c->w};
	struct jd_disp ref = {malloc(sizeof(float) * c->w * c->h), c->w, c->h, c->w};
	struct jd_disp out = {malloc(sizeof(float) * c->w * c->h), c->w, c->h, c->w};
	char names[JD_CUDA_BP_VARIANTS_MAX][JD_CUDA_BP_VARIANT_LEN], err[200];
	int rc = -1;

	jd_params_default(&p, JD_ALGO_BP, c->nd);
	p.bp.fp16 = c->fp16;
	size_t wsb = jd_bp_mem_required(&p, c->w, c->h, jd_exec_workers(&wk->exec));
	void *ws = malloc(wsb);
	if (!l.data || !r.data || !ref.data || !out.data || !ws ||
	    jd_params_validate(&p, c->w, c->h, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: tune: %dx%d/%d: %s\n", c->w, c->h, c->nd,
			ws ? err : "out of memory");
		goto out;
	}
	jd_synth_render(0, c->nd, &l, &r, NULL);
	if (jd_bp_ref(&p, &l, &r, &ref, ws, wsb, &wk->exec)) {
		fprintf(stderr, "jetdepth: tune: the reference failed\n");
		goto out;
	}
	int nv = jd_cuda_bp_variants(c->nd, names, 8), best = -1;
	float best_ms = 0, default_ms = -1;
	for (int v = 0; v < nv; v++) {
		float ms = time_variant(&p, names[v], &l, &r, &ref, &out, runs, t->gpu,
					&t->sm_count, &t->driver);
		if (ms == -2.0f) {
			goto out; /* no GPU at all */
		}
		if (ms < 0) {
			continue;
		}
		if (best < 0) {
			/* the case's header once a variant ran: no header above an error */
			printf("bp %s %dx%d ndisp %d:\n", c->fp16 ? "f16" : "f32", c->w, c->h,
			       c->nd);
		}
		if (v == 0) {
			default_ms = ms;
		}
		printf("    %-8s %8.3f ms  identical to the reference%s\n", names[v], (double)ms,
		       v == 0 ? "  (built-in default)" : "");
		if (best < 0 || ms < best_ms) {
			best = v;
			best_ms = ms;
		}
	}
	if (best < 0 || default_ms < 0) {
		fprintf(stderr, "jetdepth: tune: no usable configuration for this case\n");
		goto out;
	}
	struct jd_tuning_entry e = {.kernel = "bp",
				    .fp16 = c->fp16,
				    .w = c->w,
				    .h = c->h,
				    .nd = c->nd,
				    .ms = best_ms,
				    .default_ms = default_ms};
	snprintf(e.variant, sizeof(e.variant), "%s", names[best]);
	snprintf(e.default_variant, sizeof(e.default_variant), "%s", names[0]);
	printf("    -> %s, %.2fx the default\n", names[best], (double)(default_ms / best_ms));
	rc = jd_tuning_put(t, &e);
out:
	free(l.data);
	free(r.data);
	free(ref.data);
	free(out.data);
	free(ws);
	return rc;
}

static void help(FILE *f)
{
	fprintf(
	    f,
	    "usage: jetdepth tune [-o FILE] [--runs N] [--size WxH --ndisp N [--fp16|--float]]\n\n"
	    "On this GPU, times each BP message-kernel configuration built into jetdepth (the\n"
	    "staged kernel, inputs in shared memory; the register kernels, one per occupancy\n"
	    "level: how much of the message vector stays in registers; and the generic\n"
	    "kernel) on the synthetic scene, after checking that each gives the\n"
	    "reference's disparities bit for bit, and writes the fastest for each case to the\n"
	    "tuning file. Boot reads it when GPU, driver and build match (else it says why and\n"
	    "uses the built-in defaults). SGM and SAD have one configuration each in this "
	    "build.\n\n"
	    "  -o FILE        the tuning file (default: --tuning, $JD_TUNING, else %s);\n"
	    "                 entries for other cases already in it are kept\n"
	    "  --runs N       timed runs per configuration (default 21, median kernel time)\n"
	    "  --size WxH --ndisp N   one case (default: 384x288/16, 450x375/64, 450x375/128,\n"
	    "                 900x750/128 in fp16, 450x375/64 and 900x750/128 in float)\n"
	    "  --fp16 | --float   storage for the one case (default fp16)\n",
	    JD_TUNING_DEFAULT);
}

int jd_cmd_tune(int argc, char **argv)
{
	static const struct option cmd_opts[] = {{"size", required_argument, NULL, OPT_SIZE},
						 {"runs", required_argument, NULL, OPT_RUNS},
						 {"help", no_argument, NULL, OPT_HELP},
						 {0}};
	struct jd_match_params p;
	struct jd_cli cli;
	struct jd_workers wk;
	static struct jd_tuning t, old;
	int w = 0, h = 0, runs = 21, threads = jd_workers_cpu_count(), opt, ndisp_set = 0;
	const char *out_path = NULL;
	char err[600], why[300];

	jd_params_default(&p, JD_ALGO_BP, 0);
	p.bp.fp16 = 1;
	jd_cli_begin(&cli, argc, argv, "ho:", cmd_opts, &p, &threads);
	while ((opt = jd_cli_next(&cli)) != -1) {
		if (opt == JD_CLI_BAD) {
			return JD_EXIT_USAGE;
		} else if (opt == OPT_SIZE) {
			if (jd_cli_size("--size", optarg, &w, &h)) {
				return JD_EXIT_USAGE;
			}
		} else if (opt == OPT_RUNS) {
			if (jd_cli_int("--runs", optarg, &runs) || runs < 1 || runs > 256) {
				fprintf(stderr, "jetdepth: --runs %s: must be 1 to 256\n", optarg);
				return JD_EXIT_USAGE;
			}
		} else if (opt == 'o') {
			out_path = optarg;
		} else {
			return jd_cli_help_or_usage(opt == OPT_HELP || opt == 'h', help);
		}
	}
	ndisp_set = p.ndisp != 0;
	if (optind != argc || (w != 0) != ndisp_set) {
		fprintf(stderr, "jetdepth tune: give --size and --ndisp together, or neither\n");
		return JD_EXIT_USAGE;
	}
	if (!jd_cuda_built()) {
		fprintf(stderr, "jetdepth: tune: this build has no CUDA kernels (no nvcc at build "
				"time): nothing to tune\n");
		return JD_EXIT_RUNTIME;
	}
	out_path = out_path ? out_path : jd_cli_tuning_path();
	if (jd_workers_init(&wk, threads)) {
		fprintf(stderr, "jetdepth: tune: cannot start %d worker threads\n", threads);
		return JD_EXIT_RUNTIME;
	}
	struct tune_case one = {w, h, p.ndisp, p.bp.fp16};
	int n = w ? 1 : (int)(sizeof(default_cases) / sizeof(default_cases[0])), rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		rc = tune_case(w ? &one : &default_cases[i], runs, &wk, &t);
	}
	jd_workers_deinit(&wk);
	if (rc) {
		return JD_EXIT_RUNTIME;
	}
	t.fatbin = jd_cuda_fatbin_hash();
	/* Keep the other cases of a file made on this same GPU and build. */
	if (jd_tuning_load(out_path, &old, err, sizeof(err)) == 0 &&
	    jd_tuning_matches(&old, t.gpu, t.sm_count, t.driver, t.fatbin, why, sizeof(why))) {
		for (int i = 0; i < t.n; i++) {
			jd_tuning_put(&old, &t.e[i]);
		}
		t = old;
	}
	if (jd_tuning_save(out_path, &t, err, sizeof(err))) {
		fprintf(stderr, "jetdepth: tune: %s\n", err);
		return JD_EXIT_RUNTIME;
	}
	printf("wrote %s (%d case(s) for %s, %d SMs, driver %d)\n", out_path, t.n, t.gpu,
	       t.sm_count, t.driver);
	printf("sgm, sad: one configuration each in this build: nothing to tune\n");
	return JD_EXIT_OK;
}
