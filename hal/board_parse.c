#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "camera/pixfmt.h"
#include "in_file.h"

enum kind { K_STR, K_BOOL, K_LONG, K_CAMERA, K_ALGO, K_NDISP, K_SIZE, K_BACKEND };

struct key {
	const char *name;
	enum kind kind;
	size_t offset; /* into struct jd_board */
	size_t size;   /* for strings */
	int required;
};

#define STR(k, field, req)                                                                         \
	{                                                                                          \
		k, K_STR, offsetof(struct jd_board, field), sizeof(((struct jd_board *)0)->field), \
		    req                                                                            \
	}
#define VAL(k, kind, field, req)                                                                   \
	{                                                                                          \
		k, kind, offsetof(struct jd_board, field), 0, req                                  \
	}

static const struct key keys[] = {
    STR("name", name, 1),
    STR("full_name", full_name, 0),
    STR("soc", soc, 1),
    STR("compatible", compatible, 1),
    STR("build.toolchain", toolchain, 0),
    STR("build.cuda_arch", cuda_arch, 0),
    STR("build.cpu_flags", cpu_flags, 0),
    VAL("gpu", K_BOOL, gpu, 1),
    VAL("unified_memory", K_BOOL, unified_memory, 0),
    VAL("neon_fp16", K_BOOL, neon_fp16, 0),
    VAL("memory.ceiling_mb", K_LONG, memory_ceiling_mb, 1),
    VAL("camera left", K_CAMERA, left, 1),
    VAL("camera right", K_CAMERA, right, 1),
    STR("power.mode", power_mode, 0),
    STR("clock.source", clock_source, 0),
    VAL("default.algo", K_ALGO, algo, 0),
    VAL("default.ndisp", K_NDISP, ndisp, 0),
    VAL("default.size", K_SIZE, width, 0),
    VAL("default.backend", K_BACKEND, backend, 0),
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

struct parse {
	struct jd_board *b;
	int set[NKEYS];
	struct jd_board_origin where[NKEYS];
	char *err;
	size_t errlen;
};

#define FAIL(file, line, ...)                                                                      \
	do {                                                                                       \
		int n_ = snprintf(ps->err, ps->errlen, "%s:%d: ", file, line);                     \
		if (n_ > 0 && (size_t)n_ < ps->errlen) {                                           \
			snprintf(ps->err + n_, ps->errlen - (size_t)n_, __VA_ARGS__);              \
		}                                                                                  \
		return -EINVAL;                                                                    \
	} while (0)

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s)) {
		s++;
	}
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1])) {
		*--e = '\0';
	}
	return s;
}

static int find_key(const char *name)
{
	for (size_t i = 0; i < NKEYS; i++) {
		if (strcmp(keys[i].name, name) == 0) {
			return (int)i;
		}
	}
	return -1;
}

static int parse_value(struct parse *ps, const struct key *k, const char *v, const char *file,
		       int line)
{
	void *dst = (char *)ps->b + k->offset;
	struct jd_match_params def;
	char extra;

	jd_params_default(&def, JD_ALGO_SGM, 64);
	switch (k->kind) {
	case K_STR:
		if (strlen(v) >= k->size) {
			FAIL(file, line, "%s: value longer than %zu characters", k->name,
			     k->size - 1);
		}
		strcpy(dst, v);
		return 0;
	case K_BOOL:
		if (strcmp(v, "yes") && strcmp(v, "no")) {
			FAIL(file, line, "%s: '%s': expected yes or no", k->name, v);
		}
		*(int *)dst = strcmp(v, "yes") == 0;
		return 0;
	case K_LONG: {
		char *end;
		long n = strtol(v, &end, 10);
		if (end == v || *end || n <= 0 || n > 10L * 1024 * 1024) {
			FAIL(file, line, "%s: '%s': expected a positive whole number", k->name, v);
		}
		*(long *)dst = n;
		return 0;
	}
	case K_CAMERA: {
		struct jd_board_camera *c = dst;
		char src[JD_BOARD_STR], fmt[16];
		if (sscanf(v, "%127s %15s %dx%d@%d %c", src, fmt, &c->width, &c->height, &c->fps,
			   &extra) != 5 ||
		    c->width < 8 || c->height < 8 || c->width > 16384 || c->height > 16384 ||
		    c->fps < 1 || c->fps > 1000) {
			FAIL(file, line, "%s: '%s': expected SOURCE FORMAT WIDTHxHEIGHT@FPS",
			     k->name, v);
		}
		enum jd_pixfmt pf;
		if (strcmp(fmt, "-") && jd_pixfmt_parse(fmt, &pf)) {
			FAIL(file, line, "%s: format '%s': expected - or one of %s", k->name, fmt,
			     jd_pixfmt_names());
		}
		strcpy(c->source, src);
		strcpy(c->format, fmt);
		return 0;
	}
	case K_ALGO:
		if (jd_algo_parse(v, &ps->b->algo)) {
			FAIL(file, line, "%s: '%s': expected bp, sgm or sad", k->name, v);
		}
		if (ps->b->algo == def.algo) {
			FAIL(file, line, "%s: '%s' restates the built-in default; remove the line",
			     k->name, v);
		}
		ps->b->has_algo = 1;
		return 0;
	case K_NDISP: {
		char *end;
		long n = strtol(v, &end, 10);
		if (end == v || *end || n < 2 || n > JD_NDISP_MAX) {
			FAIL(file, line, "%s: '%s': expected 2..%d", k->name, v, JD_NDISP_MAX);
		}
		if (n == def.ndisp) {
			FAIL(file, line, "%s: '%s' restates the built-in default; remove the line",
			     k->name, v);
		}
		ps->b->ndisp = (int)n;
		ps->b->has_ndisp = 1;
		return 0;
	}
	case K_BACKEND:
		if (jd_backend_parse(v, &ps->b->backend)) {
			FAIL(file, line, "%s: '%s': expected auto, cpu, ref, neon or cuda", k->name,
			     v);
		}
		if (ps->b->backend == JD_BACKEND_AUTO) {
			FAIL(file, line, "%s: '%s' restates the built-in default; remove the line",
			     k->name, v);
		}
		ps->b->has_backend = 1;
		return 0;
	case K_SIZE:
		if (sscanf(v, "%dx%d %c", &ps->b->width, &ps->b->height, &extra) != 2 ||
		    ps->b->width < 8 || ps->b->height < 8 || ps->b->width > 16384 ||
		    ps->b->height > 16384) {
			FAIL(file, line, "%s: '%s': expected WIDTHxHEIGHT", k->name, v);
		}
		ps->b->has_size = 1;
		return 0;
	}
	return -EINVAL;
}

static int parse_file(struct parse *ps, const char *path, int depth);

/* The include path is relative to the including file. */
static int do_include(struct parse *ps, const char *from, int line, const char *name, int depth)
{
	char path[512];
	const char *slash = strrchr(from, '/');

	if (depth >= JD_BOARD_INCLUDE_DEPTH) {
		FAIL(from, line, "include %s: nested more than %d deep", name,
		     JD_BOARD_INCLUDE_DEPTH);
	}
	if (name[0] == '/' || !slash) {
		snprintf(path, sizeof(path), "%s", name);
	} else {
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - from), from, name);
	}
	return parse_file(ps, path, depth + 1);
}

static int parse_line(struct parse *ps, const char *path, int line, char *s, int depth)
{
	char *hash = strchr(s, '#');
	char *key, *val;
	int k;

	if (hash) {
		*hash = '\0';
	}
	s = trim(s);
	if (!*s) {
		return 0;
	}
	key = s;
	val = s + strcspn(s, " \t");
	if (*val) {
		*val++ = '\0';
	}
	val = trim(val);
	if (strcmp(key, "include") == 0) {
		return do_include(ps, path, line, val, depth);
	}
	if (strcmp(key, "camera") == 0) {
		/* "camera ROLE ..." : the role is part of the key. */
		char *rest = val + strcspn(val, " \t");
		char full[64];
		if (*rest) {
			*rest++ = '\0';
		}
		snprintf(full, sizeof(full), "camera %.40s", val);
		k = find_key(full);
		if (k < 0) {
			FAIL(path, line, "camera %s: unknown role (expected left or right)", val);
		}
		val = trim(rest);
	} else if (strcmp(key, "undef") == 0) {
		k = find_key(val);
		if (k < 0) {
			FAIL(path, line, "undef %s: unknown key", val);
		}
		ps->set[k] = 0;
		return 0;
	} else {
		k = find_key(key);
		if (k < 0) {
			FAIL(path, line, "%s: unknown key", key);
		}
	}
	if (!*val) {
		FAIL(path, line, "%s: missing value", keys[k].name);
	}
	if (ps->set[k]) {
		FAIL(path, line, "%s: already set at %s:%d (undef it first to override)",
		     keys[k].name, ps->where[k].file, ps->where[k].line);
	}
	if (parse_value(ps, &keys[k], val, path, line)) {
		return -EINVAL;
	}
	ps->set[k] = 1;
	snprintf(ps->where[k].file, sizeof(ps->where[k].file), "%s", path);
	ps->where[k].line = line;
	return 0;
}

static int parse_file(struct parse *ps, const char *path, int depth)
{
	FILE *f = jd_in_fopen(path, ps->err, ps->errlen);
	char buf[1024];
	int line = 0, rc = 0;

	if (!f) {
		return errno == ENOENT ? -ENOENT : -EIO;
	}
	while (!rc && fgets(buf, sizeof(buf), f)) {
		line++;
		if (!strchr(buf, '\n') && !feof(f)) {
			snprintf(ps->err, ps->errlen, "%s:%d: line longer than %zu characters",
				 path, line, sizeof(buf) - 2);
			rc = -EINVAL;
			break;
		}
		rc = parse_line(ps, path, line, buf, depth);
	}
	fclose(f);
	return rc;
}

int jd_board_load(const char *path, struct jd_board *b, char *err, size_t errlen)
{
	struct parse ps;
	int rc;

	memset(b, 0, sizeof(*b));
	memset(&ps, 0, sizeof(ps));
	ps.b = b;
	ps.err = err;
	ps.errlen = errlen;
	rc = parse_file(&ps, path, 0);
	if (rc) {
		return rc;
	}
	for (size_t i = 0; i < NKEYS; i++) {
		if (keys[i].required && !ps.set[i]) {
			snprintf(err, errlen, "%s: %s: required key missing", path, keys[i].name);
			return -EINVAL;
		}
	}
	b->origin_compatible = ps.where[find_key("compatible")];
	b->origin_ceiling = ps.where[find_key("memory.ceiling_mb")];
	return 0;
}

int jd_board_validate(const struct jd_board *b, const char *dt_path, char *err, size_t errlen)
{
	char dt[4096];
	size_t n;
	FILE *f;

	if (strcmp(b->compatible, "-") == 0) {
		return 0;
	}
	f = fopen(dt_path, "rb");
	if (!f) {
		snprintf(err, errlen,
			 "%s:%d: compatible %s: this machine has no %s (not a device-tree board); "
			 "use the host board",
			 b->origin_compatible.file, b->origin_compatible.line, b->compatible,
			 dt_path);
		return -ENODEV;
	}
	n = fread(dt, 1, sizeof(dt) - 1, f);
	fclose(f);
	dt[n] = '\0';
	/* The file is a list of NUL-terminated strings, most specific first. */
	for (size_t i = 0; i < n; i += strlen(dt + i) + 1) {
		if (strcmp(dt + i, b->compatible) == 0) {
			return 0;
		}
	}
	snprintf(err, errlen, "%s:%d: compatible %s: not in %s (%s)", b->origin_compatible.file,
		 b->origin_compatible.line, b->compatible, dt_path, n ? dt : "empty");
	return -ENODEV;
}

void jd_board_apply_defaults(const struct jd_board *b, struct jd_match_params *p, int *width,
			     int *height)
{
	if (b->has_algo) {
		p->algo = b->algo;
	}
	if (b->has_ndisp) {
		p->ndisp = b->ndisp;
	}
	if (b->has_size) {
		*width = b->width;
		*height = b->height;
	}
}
