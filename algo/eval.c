#include "eval.h"

#include <string.h>

const float jd_eval_thresholds[JD_EVAL_NTHRESH] = {0.5f, 1.0f, 2.0f, 4.0f};

void jd_eval(const struct jd_disp *disp, const struct jd_disp *gt, const struct jd_image *mask,
	     struct jd_eval_result *res)
{
	long bad[JD_EVAL_NTHRESH] = {0};
	long n = 0, valid = 0, invalid = 0;
	double abs_sum = 0.0;

	memset(res, 0, sizeof(*res));
	for (int y = 0; y < gt->height; y++) {
		const float *g = jd_disp_row(gt, y);
		const float *d = jd_disp_row(disp, y);
		const uint8_t *m = mask ? jd_image_row(mask, y) : NULL;

		for (int x = 0; x < gt->width; x++) {
			if ((m && m[x] != 255) || !jd_disp_is_valid(g[x])) {
				continue;
			}
			n++;
			if (!jd_disp_is_valid(d[x])) {
				invalid++;
				for (int t = 0; t < JD_EVAL_NTHRESH; t++) {
					bad[t]++;
				}
				continue;
			}
			double e = d[x] > g[x] ? d[x] - g[x] : g[x] - d[x];
			abs_sum += e;
			valid++;
			for (int t = 0; t < JD_EVAL_NTHRESH; t++) {
				bad[t] += e > jd_eval_thresholds[t];
			}
		}
	}
	res->evaluated = n;
	if (n == 0) {
		return;
	}
	for (int t = 0; t < JD_EVAL_NTHRESH; t++) {
		res->bad[t] = 100.0 * (double)bad[t] / (double)n;
	}
	res->mae = valid ? abs_sum / (double)valid : 0.0;
	res->invalid = 100.0 * (double)invalid / (double)n;
}

void jd_eval_confidence(const struct jd_disp *disp, const struct jd_disp *gt,
			const struct jd_image *mask, const struct jd_image *conf, float thresh,
			struct jd_eval_conf *out)
{
	memset(out, 0, sizeof(*out));
	for (int y = 0; y < gt->height; y++) {
		const float *g = jd_disp_row(gt, y);
		const float *d = jd_disp_row(disp, y);
		const uint8_t *m = mask ? jd_image_row(mask, y) : NULL;
		const uint8_t *c = jd_image_row(conf, y);

		for (int x = 0; x < gt->width; x++) {
			if ((m && m[x] != 255) || !jd_disp_is_valid(g[x])) {
				continue;
			}
			float e = d[x] > g[x] ? d[x] - g[x] : g[x] - d[x];
			out->n[c[x]]++;
			out->bad[c[x]] += !jd_disp_is_valid(d[x]) || e > thresh;
		}
	}
}

void jd_eval_conf_split(const struct jd_eval_conf *c, double share, double *top, double *rest)
{
	double total = 0.0, all_bad = 0.0, kept = 0.0, kept_bad = 0.0;

	for (int v = 0; v < 256; v++) {
		total += (double)c->n[v];
		all_bad += (double)c->bad[v];
	}
	double want = share * total;
	for (int v = 255; v >= 0 && kept < want; v--) {
		double take = want - kept < (double)c->n[v] ? want - kept : (double)c->n[v];
		kept_bad += c->n[v] ? take * (double)c->bad[v] / (double)c->n[v] : 0.0;
		kept += take;
	}
	*top = kept > 0.0 ? 100.0 * kept_bad / kept : 0.0;
	*rest = total - kept > 0.0 ? 100.0 * (all_bad - kept_bad) / (total - kept) : 0.0;
}
