/*
 * The dataset for the tests that read it (../shared/data/stereo: MANIFEST.md there): where it
 * is, and one pair with what the test needs of it. One rule for every test.
 */
#ifndef JD_TESTS_JD_TEST_DATA_H
#define JD_TESTS_JD_TEST_DATA_H

#include <stdio.h>
#include <stdlib.h>

#include "image_io.h"
#include "jd_test.h"

/* $JETDEPTH_DATA, else the data beside the tree (JD_DEFAULT_DATA, set by tests/CMakeLists). */
static inline const char *jd_test_data_dir(void)
{
	const char *d = getenv("JETDEPTH_DATA");

	return d && *d ? d : JD_DEFAULT_DATA;
}

struct jd_test_pair {
	struct jd_image l, r;
	struct jd_disp gt;    /* with truth only */
	struct jd_image mask; /* the non-occluded pixels, with truth only */
	int ndisp;	      /* meta.txt's, 0 when absent */
};

/*
 * Read stereo/name: the pair and its ndisp, and with truth the ground truth and the
 * non-occluded mask. @retval 0, or -1 (after a line saying why) when the pair is not there;
 * a pair with its left but not the rest is a failed check
 */
static inline int jd_test_load_pair(const char *name, int truth, struct jd_test_pair *p)
{
	const char *data = jd_test_data_dir();
	char path[1024], err[512];

	*p = (struct jd_test_pair){0};
	snprintf(path, sizeof(path), "%s/stereo/%s/left.pgm", data, name);
	if (jd_image_read(path, &p->l, err, sizeof(err))) {
		printf("pair %s not checked: %s\n", name, err);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/stereo/%s/right.pgm", data, name);
	JD_CHECK(jd_image_read(path, &p->r, err, sizeof(err)) == 0, "%s", err);
	if (truth) {
		snprintf(path, sizeof(path), "%s/stereo/%s/gt.pfm", data, name);
		JD_CHECK(jd_pfm_read(path, &p->gt, err, sizeof(err)) == 0, "%s", err);
		snprintf(path, sizeof(path), "%s/stereo/%s/mask_nonocc.pgm", data, name);
		JD_CHECK(jd_image_read(path, &p->mask, err, sizeof(err)) == 0, "%s", err);
	}
	snprintf(path, sizeof(path), "%s/stereo/%s/meta.txt", data, name);
	p->ndisp = jd_test_read_ndisp(path);
	return 0;
}

static inline void jd_test_free_pair(struct jd_test_pair *p)
{
	free(p->l.data);
	free(p->r.data);
	free(p->gt.data);
	free(p->mask.data);
	*p = (struct jd_test_pair){0};
}

#endif
