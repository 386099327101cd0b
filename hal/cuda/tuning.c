#include "tuning.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../algo/jd_status.h"
#include "../in_file.h"
#include "../out_file.h"

#define FAIL(...)                                                                                  \
	do {                                                                                       \
		snprintf(err, errlen, __VA_ARGS__);                                                \
		fclose(f);                                                                         \
		return -EINVAL;                                                                    \
	} while (0)

int jd_tuning_load(const char *path, struct jd_tuning *t, char *err, size_t errlen)
{
	FILE *f = jd_in_fopen(path, err, errlen);
	char line[512];
	int ln = 0, have_gpu = 0, have_sm = 0, have_drv = 0, have_fat = 0;

	memset(t, 0, sizeof(*t));
	if (!f) {
		return errno == ENOENT ? -ENOENT : -EINVAL;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		char *s = line;

		ln++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			FAIL("%s:%d: line longer than %zu characters", path, ln, sizeof(line) - 2);
		}
		line[strcspn(line, "\r\n")] = '\0';
		while (*s == ' ' || *s == '\t') {
			s++;
		}
		if (*s == '\0' || *s == '#') {
			continue;
		}
		char extra;
		if (!strncmp(s, "gpu ", 4)) {
			snprintf(t->gpu, sizeof(t->gpu), "%s", s + 4);
			have_gpu = t->gpu[0] != '\0';
		} else if (!strncmp(s, "sm_count ", 9)) {
			if (sscanf(s + 9, "%d %c", &t->sm_count, &extra) != 1 || t->sm_count < 1) {
				FAIL("%s:%d: sm_count: expected a positive number, got '%s'", path,
				     ln, s + 9);
			}
			have_sm = 1;
		} else if (!strncmp(s, "driver ", 7)) {
			if (sscanf(s + 7, "%d %c", &t->driver, &extra) != 1 || t->driver < 1) {
				FAIL("%s:%d: driver: expected a version number, got '%s'", path, ln,
				     s + 7);
			}
			have_drv = 1;
		} else if (!strncmp(s, "fatbin ", 7)) {
			if (sscanf(s + 7, "%" SCNx64 " %c", &t->fatbin, &extra) != 1) {
				FAIL("%s:%d: fatbin: expected a hex hash, got '%s'", path, ln,
				     s + 7);
			}
			have_fat = 1;
		} else if (!strncmp(s, "bp ", 3)) {
			struct jd_tuning_entry e = {.kernel = "bp"};
			char st[8];
			if (sscanf(s + 3, "%7s %dx%d %d %23s %f default %23s %f %c", st, &e.w, &e.h,
				   &e.nd, e.variant, &e.ms, e.default_variant, &e.default_ms,
				   &extra) != 8 ||
			    (strcmp(st, "f16") && strcmp(st, "f32")) || e.w < 1 || e.h < 1 ||
			    e.nd < 2 || !(e.ms > 0) || !(e.default_ms > 0)) {
				FAIL("%s:%d: expected 'bp f16|f32 WxH NDISP VARIANT MS default "
				     "VARIANT "
				     "MS', got '%s'",
				     path, ln, s);
			}
			e.fp16 = !strcmp(st, "f16");
			if (jd_tuning_put(t, &e)) {
				FAIL("%s:%d: more than %d entries", path, ln, JD_TUNING_MAX);
			}
		} else {
			FAIL("%s:%d: unknown line '%s'", path, ln, s);
		}
	}
	fclose(f);
	if (!have_gpu || !have_sm || !have_drv || !have_fat) {
		snprintf(err, errlen, "%s: missing %s", path,
			 !have_gpu   ? "gpu"
			 : !have_sm  ? "sm_count"
			 : !have_drv ? "driver"
				     : "fatbin");
		return -EINVAL;
	}
	return 0;
}

int jd_tuning_save(const char *path, const struct jd_tuning *t, char *err, size_t errlen)
{
	static char text[512 + JD_TUNING_MAX * 160];
	struct jd_out o;
	size_t n = 0;

	/* one line per entry, each well under 160 characters (names are short, numbers bounded) */
	n += (size_t)snprintf(
	    text, sizeof(text),
	    "# jetdepth tuning file, written by `jetdepth tune`: the fastest "
	    "configuration\n# of each kernel on this GPU, driver and build (kernel "
	    "times in ms).\ngpu %s\nsm_count %d\ndriver %d\nfatbin %016" PRIx64 "\n",
	    t->gpu, t->sm_count, t->driver, t->fatbin);
	for (int i = 0; i < t->n && n < sizeof(text); i++) {
		const struct jd_tuning_entry *e = &t->e[i];
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "%s %s %dx%d %d %s %.4f default %s %.4f\n", e->kernel,
				      e->fp16 ? "f16" : "f32", e->w, e->h, e->nd, e->variant,
				      (double)e->ms, e->default_variant, (double)e->default_ms);
	}
	if (n >= sizeof(text)) {
		snprintf(err, errlen, "%s: cannot write: %d entries do not fit", path, t->n);
		return -ENOSPC;
	}
	JD_TRY(jd_out_open(&o, path, err, errlen));
	return jd_out_close(&o, jd_out_write(&o, text, n) == 0, err, errlen);
}

int jd_tuning_matches(const struct jd_tuning *t, const char *gpu, int sm_count, int driver,
		      uint64_t fatbin, char *why, size_t whylen)
{
	if (strcmp(t->gpu, gpu) || t->sm_count != sm_count) {
		snprintf(why, whylen, "it is for %s with %d SMs, this is %s with %d", t->gpu,
			 t->sm_count, gpu, sm_count);
		return 0;
	}
	if (t->driver != driver) {
		snprintf(why, whylen, "it was made with driver %d, this is %d", t->driver, driver);
		return 0;
	}
	if (t->fatbin != fatbin) {
		snprintf(why, whylen,
			 "it was made for other kernels (fatbin %016" PRIx64
			 ", this build has %016" PRIx64 ")",
			 t->fatbin, fatbin);
		return 0;
	}
	return 1;
}

const struct jd_tuning_entry *jd_tuning_find(const struct jd_tuning *t, const char *kernel,
					     int fp16, int w, int h, int nd)
{
	const struct jd_tuning_entry *best = NULL;
	double want = (double)w * h, bestd = 0;

	for (int i = 0; i < t->n; i++) {
		const struct jd_tuning_entry *e = &t->e[i];
		double d = (double)e->w * e->h - want;

		d = d < 0 ? -d : d;
		if (!strcmp(e->kernel, kernel) && e->fp16 == fp16 && e->nd == nd &&
		    (!best || d < bestd)) {
			best = e;
			bestd = d;
		}
	}
	return best;
}

int jd_tuning_put(struct jd_tuning *t, const struct jd_tuning_entry *e)
{
	for (int i = 0; i < t->n; i++) {
		struct jd_tuning_entry *o = &t->e[i];
		if (!strcmp(o->kernel, e->kernel) && o->fp16 == e->fp16 && o->w == e->w &&
		    o->h == e->h && o->nd == e->nd) {
			*o = *e;
			return 0;
		}
	}
	if (t->n == JD_TUNING_MAX) {
		return -ENOSPC;
	}
	t->e[t->n++] = *e;
	return 0;
}
