/*
 * OpenCV's FileStorage XML (what cv::FileStorage writes for a ".xml" name) turned into the
 * YAML the calibration loaders read, so that one set of loaders and checks serves both:
 *   <opencv_storage>
 *   <M1 type_id="opencv-matrix"><rows>3</rows><cols>3</cols><dt>d</dt><data>...</data></M1>
 *   <imageSize>640 480</imageSize> <units>mm</units> ...
 * becomes "M1: {rows: '3', cols: '3', data: ['...', ...]}", "imageSize: ['640', '480']",
 * "units: 'mm'", each key on the line its element starts on (messages then name the XML's
 * lines). Every value is single-quoted, so nothing in the file can become YAML syntax; the
 * loaders read numbers from the text whatever its quoting. Elements nested deeper than a
 * matrix's fields become {} (no calibration key is such).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "calib_doc.h"

struct xml {
	const char *s, *end, *path;
	char *out;
	size_t outlen, n;
	size_t line; /* the line of s */
	size_t out_line;
	int failed;
	char *err;
	size_t errlen;
};

static int fail(struct xml *x, const char *what)
{
	if (!x->failed) {
		snprintf(x->err, x->errlen, "%s:%zu: not OpenCV XML: %s", x->path, x->line, what);
	}
	x->failed = 1;
	return -EINVAL;
}

static void advance(struct xml *x, size_t k)
{
	for (size_t i = 0; i < k && x->s < x->end; i++) {
		x->line += *x->s++ == '\n';
	}
}

static void emit(struct xml *x, const char *p, size_t k)
{
	if (x->n + k + 1 > x->outlen) {
		fail(x, "larger than the converter's room");
		return;
	}
	memcpy(x->out + x->n, p, k);
	x->n += k;
	x->out[x->n] = '\0';
}

static void emit_s(struct xml *x, const char *p)
{
	emit(x, p, strlen(p));
}

/* Skip white space, comments and <?...?>; @retval 0 or -EINVAL (unterminated) */
static int skip(struct xml *x)
{
	for (;;) {
		while (x->s < x->end && strchr(" \t\r\n", *x->s)) {
			advance(x, 1);
		}
		const char *close = NULL;
		size_t len = 0;
		if (x->end - x->s >= 4 && !memcmp(x->s, "<!--", 4)) {
			close = "-->", len = 3;
		} else if (x->end - x->s >= 2 && !memcmp(x->s, "<?", 2)) {
			close = "?>", len = 2;
		} else {
			return 0;
		}
		const char *e = x->s;
		while (e + len <= x->end && memcmp(e, close, len)) {
			e++;
		}
		if (e + len > x->end) {
			return fail(x, "a comment or declaration that does not end");
		}
		advance(x, (size_t)(e + len - x->s));
	}
}

/* A name after '<' or '</' into name; @retval its length or -EINVAL */
static int name_of(struct xml *x, char *name, size_t cap)
{
	size_t k = 0;

	name[0] = '\0';
	while (x->s < x->end && (strchr("_-.:", *x->s) || (*x->s >= '0' && *x->s <= '9') ||
				 ((*x->s | 32) >= 'a' && (*x->s | 32) <= 'z'))) {
		if (k + 1 >= cap) {
			name[k] = '\0';
			return fail(x, "an element name longer than 63 characters");
		}
		name[k++] = *x->s;
		advance(x, 1);
	}
	name[k] = '\0';
	return k ? (int)k : fail(x, "an element without a name");
}

/* The rest of a start tag after its name; @retval 1 for <.../>, 0 for <...>, or -EINVAL */
static int tag_end(struct xml *x)
{
	char quote = 0;

	while (x->s < x->end) {
		char c = *x->s;
		if (quote) {
			quote = c == quote ? 0 : quote;
		} else if (c == '"' || c == '\'') {
			quote = c;
		} else if (c == '>') {
			advance(x, 1);
			return 0;
		} else if (c == '/' && x->s + 1 < x->end && x->s[1] == '>') {
			advance(x, 2);
			return 1;
		} else if (c == '<') {
			break;
		}
		advance(x, 1);
	}
	return fail(x, "a tag that does not end");
}

/* The text up to the next '<' as quoted YAML items ("'a', 'b'"); @retval token count */
static int text_items(struct xml *x, int as_list)
{
	int count = 0;

	for (;;) {
		while (x->s < x->end && strchr(" \t\r\n", *x->s)) {
			advance(x, 1);
		}
		if (x->s >= x->end || *x->s == '<') {
			return count;
		}
		const char *t = x->s;
		while (x->s < x->end && !strchr(" \t\r\n<", *x->s)) {
			advance(x, 1);
		}
		size_t k = (size_t)(x->s - t);
		if (k >= 2 && t[0] == '"' && t[k - 1] == '"') {
			t++, k -= 2; /* OpenCV quotes strings */
		}
		emit_s(x, count ? ", '" : "'");
		for (size_t i = 0; i < k; i++) {
			static const char *const ent[][2] = {{"&lt;", "<"},
							     {"&gt;", ">"},
							     {"&amp;", "&"},
							     {"&quot;", "\""},
							     {"&apos;", "''"}};
			size_t e = 0;
			for (; e < 5; e++) {
				size_t el = strlen(ent[e][0]);
				if (i + el <= k && !memcmp(t + i, ent[e][0], el)) {
					emit_s(x, ent[e][1]);
					i += el - 1;
					break;
				}
			}
			if (e == 5) {
				emit(x, t[i] == '\'' ? "''" : t + i, t[i] == '\'' ? 2 : 1);
			}
		}
		emit_s(x, "'");
		count++;
		if (!as_list && count > 1) {
			return count;
		}
	}
}

static int element(struct xml *x, const char *name, int depth);

/* Children of an element: the matrix fields as a flow mapping, the rest left out. */
static int children(struct xml *x, int depth)
{
	int first = 1;

	emit_s(x, "{");
	for (;;) {
		if (skip(x)) {
			return -EINVAL;
		}
		if (x->s + 1 < x->end && x->s[0] == '<' && x->s[1] == '/') {
			emit_s(x, "}");
			return 0;
		}
		if (x->s >= x->end || *x->s != '<') {
			return fail(x, "text beside elements");
		}
		advance(x, 1);
		char name[64];
		if (name_of(x, name, sizeof(name)) < 0) {
			return -EINVAL;
		}
		int keep = depth == 1 && (!strcmp(name, "rows") || !strcmp(name, "cols") ||
					  !strcmp(name, "data"));
		if (keep) {
			emit_s(x, first ? "" : ", ");
			emit_s(x, name);
			emit_s(x, !strcmp(name, "data") ? ": [" : ": ");
			first = 0;
		}
		size_t mark = x->n;
		if (element(x, name, depth + 1)) {
			return -EINVAL;
		}
		if (!keep) {
			x->n = mark; /* a field no loader reads */
			x->out[x->n] = '\0';
		} else if (!strcmp(name, "data")) {
			emit_s(x, "]");
		}
	}
}

/* After "<name": its attributes, content and end tag, its value emitted. */
static int element(struct xml *x, const char *name, int depth)
{
	int empty = tag_end(x);

	if (empty < 0) {
		return -EINVAL;
	}
	if (depth > 8) {
		return fail(x, "elements nested deeper than 8 levels");
	}
	if (empty) {
		emit_s(x, depth == 1 ? "''" : "");
		return 0;
	}
	const char *at = x->s;
	size_t at_line = x->line;
	while (x->s < x->end && strchr(" \t\r\n", *x->s)) {
		advance(x, 1);
	}
	if (skip(x)) {
		return -EINVAL;
	}
	int nested = x->s + 1 < x->end && x->s[0] == '<' && x->s[1] != '/';
	if (nested) {
		if (children(x, depth)) {
			return -EINVAL;
		}
	} else {
		x->s = at, x->line = at_line;
		int list = !strcmp(name, "data") || depth == 1;
		size_t mark = x->n;
		if (depth == 1) {
			emit_s(x, "[");
		}
		int count = text_items(x, list);
		if (x->failed) {
			return -EINVAL; /* out of room: nothing below may trust x->n */
		}
		if (depth == 1 && count <= 1) {
			/* one token: a scalar, not a list */
			memmove(x->out + mark, x->out + mark + 1, x->n - mark - 1);
			x->n--;
			x->out[x->n] = '\0';
			if (!count) {
				emit_s(x, "''");
			}
		} else if (depth == 1) {
			emit_s(x, "]");
		}
	}
	char end[64];
	if (x->s + 1 >= x->end || x->s[0] != '<' || x->s[1] != '/') {
		return fail(x, "an element that does not end");
	}
	advance(x, 2);
	if (name_of(x, end, sizeof(end)) < 0) {
		return -EINVAL;
	}
	if (strcmp(end, name)) {
		char what[200];
		snprintf(what, sizeof(what), "</%s> closes <%s>", end, name);
		return fail(x, what);
	}
	while (x->s < x->end && strchr(" \t\r\n", *x->s)) {
		advance(x, 1);
	}
	if (x->s >= x->end || *x->s != '>') {
		return fail(x, "an end tag that does not end");
	}
	advance(x, 1);
	return x->failed ? -EINVAL : 0;
}

int jd__calib_is_xml(const char *text, size_t n)
{
	while (n && strchr(" \t\r\n", *text)) {
		text++, n--;
	}
	return (n >= 5 && !memcmp(text, "<?xml", 5)) ||
	       (n >= 15 && !memcmp(text, "<opencv_storage", 15));
}

int jd__calib_xml_to_yaml(const char *path, const char *text, size_t n, char *out, size_t outlen,
			  size_t *outn, char *err, size_t errlen)
{
	struct xml x = {text, text + n, path, out, outlen, 0, 1, 1, 0, err, errlen};
	char name[64];

	out[0] = '\0';
	if (skip(&x) || x.end - x.s < 16 || memcmp(x.s, "<opencv_storage", 15)) {
		return fail(&x, "expected <opencv_storage>");
	}
	advance(&x, 15);
	if (tag_end(&x) != 0) {
		return fail(&x, "<opencv_storage> must hold the keys");
	}
	for (;;) {
		if (skip(&x)) {
			return -EINVAL;
		}
		if (x.end - x.s >= 17 && !memcmp(x.s, "</opencv_storage>", 17)) {
			break;
		}
		if (x.s >= x.end || *x.s != '<') {
			return fail(&x, "expected an element or </opencv_storage>");
		}
		/* the key on its element's line */
		while (x.out_line < x.line) {
			emit_s(&x, "\n");
			x.out_line++;
		}
		advance(&x, 1);
		if (name_of(&x, name, sizeof(name)) < 0) {
			return -EINVAL;
		}
		emit_s(&x, name);
		emit_s(&x, ": ");
		if (element(&x, name, 1)) {
			return -EINVAL;
		}
	}
	emit_s(&x, "\n");
	*outn = x.n;
	return x.failed ? -EINVAL : 0;
}
