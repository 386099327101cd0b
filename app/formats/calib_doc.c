/* The YAML document under every calibration format: loading, lookups and shared checks. */
#include "calib_doc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "../../hal/in_file.h"

/*
 * A calibration nests two levels (key: {rows, cols, data: [...]}); libyaml's time grows with
 * the square of the nesting (400 KB of it took 114 s). A first pass over the events stops at
 * MAX_DEPTH, before the scanner gets far. @retval 1 too deep or not YAML (said), 0 fine
 */
#define MAX_DEPTH 16
/* a camera_info has 12 keys; bounding them keeps the duplicate check cheap */
#define MAX_KEYS 256

static int too_deep(struct doc *x, const unsigned char *buf, size_t n)
{
	yaml_parser_t p;
	yaml_event_t e;
	int depth = 0, rc = 0;

	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, buf, n);
	for (;;) {
		if (!yaml_parser_parse(&p, &e)) {
			break; /* the loader says what is wrong with it */
		}
		yaml_event_type_t t = e.type;
		size_t line = e.start_mark.line + 1;
		yaml_event_delete(&e);
		if (t == YAML_STREAM_END_EVENT) {
			break;
		}
		depth += t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT;
		depth -= t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT;
		if (depth > MAX_DEPTH) {
			snprintf(x->err, x->errlen,
				 "%s:%zu: nested deeper than %d levels: not a calibration file",
				 x->path, line, MAX_DEPTH);
			rc = 1;
			break;
		}
	}
	yaml_parser_delete(&p);
	return rc;
}

/* A key given twice in one mapping: which one was meant is unknowable. @retval 1 (said) */
static int duplicate_key(struct doc *x, yaml_node_t *map)
{
	yaml_node_pair_t *a, *b, *start = map->data.mapping.pairs.start;

	if (map->data.mapping.pairs.top - start > MAX_KEYS) {
		snprintf(x->err, x->errlen,
			 "%s:%zu: more than %d keys in one mapping: not a "
			 "calibration file",
			 x->path, map->start_mark.line + 1, MAX_KEYS);
		return 1;
	}
	for (a = start; a < map->data.mapping.pairs.top; a++) {
		yaml_node_t *ka = yaml_document_get_node(&x->d, a->key);
		yaml_node_t *va = yaml_document_get_node(&x->d, a->value);
		if (!ka || ka->type != YAML_SCALAR_NODE) {
			continue;
		}
		for (b = start; b < a; b++) {
			yaml_node_t *kb = yaml_document_get_node(&x->d, b->key);
			if (kb && kb->type == YAML_SCALAR_NODE &&
			    !strcmp((const char *)ka->data.scalar.value,
				    (const char *)kb->data.scalar.value)) {
				snprintf(x->err, x->errlen,
					 "%s:%zu: %s: given twice (first at line %zu)", x->path,
					 ka->start_mark.line + 1,
					 (const char *)ka->data.scalar.value,
					 kb->start_mark.line + 1);
				return 1;
			}
		}
		if (va && va->type == YAML_MAPPING_NODE && duplicate_key(x, va)) {
			return 1;
		}
	}
	return 0;
}

/* Parse YAML text (n bytes) into x->d: a mapping of keys, none given twice. */
static int parse(struct doc *x, const char *text, size_t n)
{
	yaml_parser_t p;

	if (too_deep(x, (const unsigned char *)text, n)) {
		return -EINVAL;
	}
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)text, n);
	if (!yaml_parser_load(&p, &x->d)) {
		snprintf(x->err, x->errlen, "%s:%zu: not valid %s: %s", x->path,
			 p.problem_mark.line + 1, x->xml ? "OpenCV XML" : "YAML",
			 p.problem ? p.problem : "parse error");
		yaml_parser_delete(&p);
		return -EINVAL;
	}
	yaml_parser_delete(&p);
	x->loaded = 1;
	if (!yaml_document_get_root_node(&x->d) ||
	    yaml_document_get_root_node(&x->d)->type != YAML_MAPPING_NODE) {
		snprintf(x->err, x->errlen, "%s: not a YAML mapping of keys", x->path);
		return -EINVAL;
	}
	return duplicate_key(x, yaml_document_get_root_node(&x->d)) ? -EINVAL : 0;
}

int jd__calib_doc_load(struct doc *x)
{
	FILE *f = jd_in_fopen(x->path, x->err, x->errlen);
	static char buf[1 << 20], yaml[2 << 20];

	x->loaded = x->xml = 0;
	if (!f) {
		return -ENOENT;
	}
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	int big = !feof(f);
	fclose(f);
	if (big) {
		snprintf(x->err, x->errlen, "%s: larger than %zu bytes: not a calibration file",
			 x->path, sizeof(buf) - 1);
		return -EINVAL;
	}
	buf[n] = '\0';
	char *text = buf;
	if (n >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		text += 3; /* a UTF-8 byte-order mark: some editors write one */
		n -= 3;
	} else if (n >= 2 && (!memcmp(text, "\xff\xfe", 2) || !memcmp(text, "\xfe\xff", 2))) {
		snprintf(x->err, x->errlen,
			 "%s: UTF-16 text (it starts with a byte-order mark): "
			 "save it as UTF-8",
			 x->path);
		return -EINVAL;
	}
	if (memchr(text, '\0', n)) {
		snprintf(x->err, x->errlen, "%s:%zu: a NUL byte: not a text file", x->path,
			 jd__calib_line_of(text, (size_t)((char *)memchr(text, '\0', n) - text)));
		return -EINVAL;
	}
	if (jd__calib_is_xml(text, n)) {
		x->xml = 1;
		size_t m;
		if (jd__calib_xml_to_yaml(x->path, text, n, yaml, sizeof(yaml), &m, x->err,
					  x->errlen)) {
			return -EINVAL;
		}
		return parse(x, yaml, m);
	}
	if (strncmp(text, "%YAML:", 6) == 0) {
		text[0] = '#'; /* OpenCV's "%YAML:1.0" first line is not YAML 1.1: blank it */
	}
	return parse(x, text, n);
}

void jd__calib_doc_free(struct doc *x)
{
	if (x->loaded) {
		yaml_document_delete(&x->d);
		x->loaded = 0;
	}
}

size_t jd__calib_line_of(const char *text, size_t at)
{
	size_t line = 1;

	for (size_t i = 0; i < at; i++) {
		line += text[i] == '\n';
	}
	return line;
}

yaml_node_t *jd__calib_get(struct doc *x, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE) {
		return NULL;
	}
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(&x->d, p->key);
		if (k && k->type == YAML_SCALAR_NODE &&
		    !strcmp((const char *)k->data.scalar.value, key)) {
			return yaml_document_get_node(&x->d, p->value);
		}
	}
	return NULL;
}

int jd__calib_number(struct doc *x, yaml_node_t *n, const char *key, double *out)
{
	char *end;

	if (!n || n->type != YAML_SCALAR_NODE) {
		FAIL("%s:%zu: %s: expected a number", x->path, n ? n->start_mark.line + 1 : 0, key);
	}
	*out = strtod((const char *)n->data.scalar.value, &end);
	if (end == (char *)n->data.scalar.value || *end || !isfinite(*out)) {
		FAIL("%s:%zu: %s: '%s' is not a finite number", x->path, n->start_mark.line + 1,
		     key, (const char *)n->data.scalar.value);
	}
	return 0;
}

/*
 * key: a list of numbers, as {rows, cols, data: [...]} (ROS and OpenCV) or a plain list, into
 * out (at most max). @retval its length, 0 when absent, -EINVAL (said)
 */
int jd__calib_vector(struct doc *x, yaml_node_t *root, const char *key, double *out, int max)
{
	yaml_node_t *m = jd__calib_get(x, root, key), *data;

	if (!m) {
		return 0;
	}
	data = m->type == YAML_MAPPING_NODE ? jd__calib_get(x, m, "data") : m;
	if (!data || data->type != YAML_SEQUENCE_NODE) {
		FAIL("%s:%zu: %s: expected rows, cols and a data list", x->path,
		     m->start_mark.line + 1, key);
	}
	long n = data->data.sequence.items.top - data->data.sequence.items.start;
	if (n < 1 || n > max) {
		FAIL("%s:%zu: %s: %ld values, expected 1 to %d", x->path, data->start_mark.line + 1,
		     key, n, max);
	}
	for (long i = 0; i < n; i++) {
		yaml_node_t *v = yaml_document_get_node(&x->d, data->data.sequence.items.start[i]);
		char what[64];
		snprintf(what, sizeof(what), "%s[%ld]", key, i);
		if (jd__calib_number(x, v, what, &out[i])) {
			return -EINVAL;
		}
	}
	return (int)n;
}

int jd__calib_matrix(struct doc *x, yaml_node_t *root, const char *key, double *out, int want,
		     int optional)
{
	double v[64];
	int n = jd__calib_vector(x, root, key, v, 64);

	if (n < 0) {
		return n;
	}
	if (n == 0) {
		if (optional && !jd__calib_get(x, root, key)) {
			return 1;
		}
		FAIL("%s: %s: missing", x->path, key);
	}
	if (n != want) {
		yaml_node_t *m = jd__calib_get(x, root, key);
		FAIL("%s:%zu: %s: %d values, expected %d", x->path, m->start_mark.line + 1, key, n,
		     want);
	}
	memcpy(out, v, sizeof(double) * (size_t)want);
	return 0;
}

/* Edit distance of a and b, letters compared without case; capped at 9 (long keys). */
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int row[64];

	if (la >= 63 || lb >= 63) {
		return 9;
	}
	for (size_t j = 0; j <= lb; j++) {
		row[j] = (int)j;
	}
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int up = row[j];
			int same =
			    tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
			int best = diag + !same;
			best = up + 1 < best ? up + 1 : best;
			best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/*
 * A top-level key that is not one of known[] but within two edits of one is a misspelling
 * (public files have "distortion_coefficents"): reading on would quietly use a default.
 * Keys far from every known one (a tool's own notes) are left alone.
 */
int jd__calib_misspelt(struct doc *x, yaml_node_t *root, const char *const *known)
{
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(&x->d, p->key);
		if (!k || k->type != YAML_SCALAR_NODE) {
			continue;
		}
		const char *key = (const char *)k->data.scalar.value;
		const char *near = NULL;
		int best = 3;
		for (int i = 0; known[i]; i++) {
			int d = strcmp(key, known[i]) ? distance(key, known[i]) : -1;
			if (d < 0) {
				near = NULL;
				break;
			}
			if (d < best && strlen(known[i]) >= 4) {
				best = d;
				near = known[i];
			}
		}
		if (near) {
			FAIL("%s:%zu: %s: unknown key; did you mean %s?", x->path,
			     k->start_mark.line + 1, key, near);
		}
	}
	return 0;
}

/* units: mm, cm or m (the file's length unit) into *unit_mm; absent leaves it. */
int jd__calib_units(struct doc *x, double *unit_mm)
{
	static const struct {
		const char *name;
		double mm;
	} table[] = {{"mm", 1},	  {"millimetres", 1},  {"millimeters", 1},
		     {"cm", 10},  {"centimetres", 10}, {"centimeters", 10},
		     {"m", 1000}, {"metres", 1000},    {"meters", 1000}};
	yaml_node_t *root = yaml_document_get_root_node(&x->d),
		    *n = jd__calib_get(x, root, "units");

	n = n ? n : jd__calib_get(x, root, "unit");
	if (!n) {
		return 0;
	}
	const char *v = n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : "";
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (!strcmp(v, table[i].name)) {
			if (*unit_mm > 0 && *unit_mm != table[i].mm) {
				FAIL("%s:%zu: units: %s, but the other file says otherwise",
				     x->path, n->start_mark.line + 1, v);
			}
			*unit_mm = table[i].mm;
			return 0;
		}
	}
	FAIL("%s:%zu: units: '%s': expected mm, cm or m", x->path, n->start_mark.line + 1, v);
}

/* One size key: a whole number of pixels, 1 to 65536. */
static int size_value(struct doc *x, yaml_node_t *n, const char *key, int *out)
{
	double v;

	if (jd__calib_number(x, n, key, &v)) {
		return -EINVAL;
	}
	if (!(v >= 1 && v <= 65536 && v == floor(v))) {
		FAIL("%s:%zu: %s: %g: expected a whole number of pixels, 1 to 65536", x->path,
		     n->start_mark.line + 1, key, v);
	}
	*out = (int)v;
	return 0;
}

/*
 * The image size where the file states it: image_width and image_height (ROS, OpenCV's
 * calibration sample), or imageSize / image_size as [width, height] (OpenCV's stereo tools).
 */
int jd__calib_stated_size(struct doc *x, int *w, int *h)
{
	yaml_node_t *root = yaml_document_get_root_node(&x->d), *n;
	static const char *const pairs[] = {"imageSize", "image_size"};

	if ((n = jd__calib_get(x, root, "image_width")) && size_value(x, n, "image_width", w)) {
		return -EINVAL;
	}
	if ((n = jd__calib_get(x, root, "image_height")) && size_value(x, n, "image_height", h)) {
		return -EINVAL;
	}
	for (int i = 0; i < 2; i++) {
		double v[2];
		n = jd__calib_get(x, root, pairs[i]);
		if (!n) {
			continue;
		}
		if (jd__calib_matrix(x, root, pairs[i], v, 2, 0)) {
			FAIL("%s:%zu: %s: expected [width, height]", x->path,
			     n->start_mark.line + 1, pairs[i]);
		}
		int sw, sh;
		if (!(v[0] >= 1 && v[0] <= 65536 && v[1] >= 1 && v[1] <= 65536)) {
			FAIL("%s:%zu: %s: %g x %g: expected [width, height] in pixels", x->path,
			     n->start_mark.line + 1, pairs[i], v[0], v[1]);
		}
		sw = (int)v[0];
		sh = (int)v[1];
		if ((*w && *w != sw) || (*h && *h != sh)) {
			FAIL("%s:%zu: %s says %dx%d but image_width and image_height say %dx%d",
			     x->path, n->start_mark.line + 1, pairs[i], sw, sh, *w, *h);
		}
		*w = sw;
		*h = sh;
	}
	if ((*w == 0) != (*h == 0)) {
		FAIL("%s: %s given without %s", x->path, *w ? "image_width" : "image_height",
		     *w ? "image_height" : "image_width");
	}
	return 0;
}
