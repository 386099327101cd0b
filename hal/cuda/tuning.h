/*
 * The GPU tuning file `jetdepth tune` writes and boot reads: which kernel configuration ran
 * fastest on this GPU, with this driver and this build of the kernels, for each size. Text,
 * one fact a line:
 *
 *   # jetdepth tuning file
 *   gpu NVIDIA H100 80GB HBM3
 *   sm_count 132
 *   driver 13000
 *   fatbin 9c1f0e2b7a44d310
 *   bp f16 900x750 128 r96_b3 7.012 default r96_b3 7.012
 *
 * A file for another GPU, driver or build is ignored (boot says why); a malformed one is an
 * error naming the file and line.
 */
#ifndef JD_HAL_TUNING_H
#define JD_HAL_TUNING_H

#include <stddef.h>
#include <stdint.h>

#define JD_TUNING_MAX 64

struct jd_tuning_entry {
	char kernel[8]; /* "bp" */
	int fp16, w, h, nd;
	char variant[24]; /* the chosen configuration */
	float ms;	  /* its kernel time when tuned */
	char default_variant[24];
	float default_ms;
};

struct jd_tuning {
	char gpu[128];
	int sm_count, driver;
	uint64_t fatbin;
	int n;
	struct jd_tuning_entry e[JD_TUNING_MAX];
};

/** @retval 0, -ENOENT (no such file), -EINVAL (malformed: err has file:line: reason) */
int jd_tuning_load(const char *path, struct jd_tuning *t, char *err, size_t errlen);

/** Write atomically (a temporary file renamed). @retval 0 or -errno (err says why) */
int jd_tuning_save(const char *path, const struct jd_tuning *t, char *err, size_t errlen);

/** 1 when t was made on this GPU, driver and build; else 0 and why says what differs. */
int jd_tuning_matches(const struct jd_tuning *t, const char *gpu, int sm_count, int driver,
		      uint64_t fatbin, char *why, size_t whylen);

/** The entry for this kernel, storage and ndisp nearest in pixel count, or NULL. */
const struct jd_tuning_entry *jd_tuning_find(const struct jd_tuning *t, const char *kernel,
					     int fp16, int w, int h, int nd);

/** Add or replace the entry for the same kernel, storage, size and ndisp. @retval 0, -ENOSPC */
int jd_tuning_put(struct jd_tuning *t, const struct jd_tuning_entry *e);

#endif
