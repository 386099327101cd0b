/*
 * The document under every calibration format (internal to app/formats): one file read and
 * parsed by libyaml into a mapping of keys (OpenCV's XML turned into the same YAML first,
 * line for line: calib_xml.c), the lookups the format loaders share, and the checks every
 * format gets: a key given twice, a misspelt key, the stated unit and image size. Every
 * error names the file, the line and the key.
 */
#ifndef JD_APP_CALIB_DOC_H
#define JD_APP_CALIB_DOC_H

#include <stddef.h>
#include <stdio.h>
#include <yaml.h>

struct doc {
	const char *path;
	yaml_document_t d;
	int loaded; /* d holds a document to free */
	int xml;    /* the file was OpenCV's XML */
	char *err;
	size_t errlen;
};

#define FAIL(...)                                                                                  \
	do {                                                                                       \
		snprintf(x->err, x->errlen, __VA_ARGS__);                                          \
		return -EINVAL;                                                                    \
	} while (0)

/** Read and parse x->path. @retval 0, -ENOENT (cannot read), -EINVAL (said in x->err) */
int jd__calib_doc_load(struct doc *x);
void jd__calib_doc_free(struct doc *x);

/** The value of key in mapping map (NULL: absent, or map is not a mapping). */
yaml_node_t *jd__calib_get(struct doc *x, yaml_node_t *map, const char *key);
/** The root mapping's value of key. */
#define jd__calib_root(x, key) jd__calib_get((x), yaml_document_get_root_node(&(x)->d), (key))

/** A scalar that is a finite number. @retval 0 or -EINVAL (said) */
int jd__calib_number(struct doc *x, yaml_node_t *n, const char *key, double *out);

/** key's numbers ({rows, cols, data} or a list), at most max. @retval count, 0 absent, <0 */
int jd__calib_vector(struct doc *x, yaml_node_t *root, const char *key, double *out, int max);

/** key's numbers, exactly want of them. @retval 0, 1 (absent and optional), -EINVAL */
int jd__calib_matrix(struct doc *x, yaml_node_t *root, const char *key, double *out, int want,
		     int optional);

/** A key of map not in known[] (NULL-ended) but within two edits of one. @retval 0, -EINVAL */
int jd__calib_misspelt(struct doc *x, yaml_node_t *map, const char *const *known);

/** units: mm, cm or m into *unit_mm (absent: left as it is). @retval 0 or -EINVAL */
int jd__calib_units(struct doc *x, double *unit_mm);

/**
 * The image size where the file states it (image_width + image_height, or imageSize /
 * image_size as [w, h]); 0 where it does not. @retval 0 or -EINVAL
 */
int jd__calib_stated_size(struct doc *x, int *w, int *h);

/** The 1-based line of byte at in text. */
size_t jd__calib_line_of(const char *text, size_t at);

/* calib_xml.c: OpenCV's FileStorage XML */
int jd__calib_is_xml(const char *text, size_t n);
/**
 * The XML's top-level elements as YAML keys, each on the line its element starts on, so that
 * the loaders' messages name the XML's lines. @retval 0 or -EINVAL (err says where)
 */
int jd__calib_xml_to_yaml(const char *path, const char *text, size_t n, char *out, size_t outlen,
			  size_t *outn, char *err, size_t errlen);

#endif
