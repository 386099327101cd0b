/*
 * The kernel table, filled once at boot (libjpeg-turbo's jsimd.c). The only file of algo/
 * with #ifdef: which NEON files this build has is a build-time fact (CMake: JD_HAVE_NEON,
 * JD_HAVE_NEON_FP16), whether the CPU runs them is a run-time one (getauxval).
 */
#include "kernels.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_ASIMDHP
#define HWCAP_ASIMDHP (1 << 10) /* Linux arch/arm64 uapi hwcap.h */
#endif
#endif

#include "bp_kernels.h"
#include "convert.h"
#include "rectify.h"
#include "sad_kernels.h"
#include "sgm.h"

/* Every kernel of a table on one backend (designated: the order of the ids does not matter). */
#define ALL_KERNELS(b)                                                                             \
	{                                                                                          \
		[JD_K_GRAY_RGB] = b, [JD_K_GRAY_YUYV] = b, [JD_K_GRAY_UYVY] = b, [JD_K_REMAP] = b, \
		[JD_K_CENSUS] = b, [JD_K_SGM_COST] = b, [JD_K_SGM_AGGREGATE] = b,                  \
		[JD_K_SGM_SELECT] = b, [JD_K_SAD_ACCUMULATE] = b, [JD_K_SAD_WTA] = b,              \
		[JD_K_BP_MESSAGES] = b, [JD_K_GRAY_MONO16] = b, [JD_K_GRAY_BAYER] = b              \
	}

static const char *const kernel_names[JD_K_COUNT] = {
    [JD_K_GRAY_RGB] = "gray_rgb",
    [JD_K_GRAY_YUYV] = "gray_yuyv",
    [JD_K_GRAY_UYVY] = "gray_uyvy",
    [JD_K_GRAY_MONO16] = "gray_mono16",
    [JD_K_GRAY_BAYER] = "gray_bayer",
    [JD_K_REMAP] = "remap",
    [JD_K_CENSUS] = "census",
    [JD_K_SGM_COST] = "sgm_cost",
    [JD_K_SGM_AGGREGATE] = "sgm_aggregate",
    [JD_K_SGM_SELECT] = "sgm_select",
    [JD_K_SAD_ACCUMULATE] = "sad_accumulate",
    [JD_K_SAD_WTA] = "sad_wta",
    [JD_K_BP_MESSAGES] = "bp_messages",
};

const struct jd_kernels jd_kernels_ref = {
    .gray_from_rgb = jd_gray_from_rgb_ref,
    .gray_from_yuyv = jd_gray_from_yuyv_ref,
    .gray_from_uyvy = jd_gray_from_uyvy_ref,
    .gray_from_mono16 = jd_gray_from_mono16_ref,
    .gray_from_bayer = jd_gray_from_bayer_ref,
    .remap = jd_remap_ref,
    .census = jd_census_ref,
    .sgm_cost = jd_sgm_cost_ref,
    .sgm_aggregate = jd_sgm_aggregate_ref,
    .sgm_select = jd_sgm_select_ref,
    .sad_accumulate = jd_sad_accumulate_ref,
    .sad_wta = jd_sad_wta_ref,
    .bp_send = jd_bp_send_ref,
    .bp_send_fp16 = jd_bp_send_ref,
    .backend_of = ALL_KERNELS("ref"),
};

#ifdef JD_HAVE_NEON
static const struct jd_kernels kernels_neon = {
    .gray_from_rgb = jd_gray_from_rgb_neon,
    .gray_from_yuyv = jd_gray_from_yuyv_neon,
    .gray_from_uyvy = jd_gray_from_uyvy_neon,
    .gray_from_mono16 = jd_gray_from_mono16_neon,
    .gray_from_bayer = jd_gray_from_bayer_neon,
    .remap = jd_remap_neon,
    .census = jd_census_neon,
    .sgm_cost = jd_sgm_cost_neon,
    .sgm_aggregate = jd_sgm_aggregate_neon,
    .sgm_select = jd_sgm_select_neon,
    .sad_accumulate = jd_sad_accumulate_neon,
    .sad_wta = jd_sad_wta_neon,
    .bp_send = jd_bp_send_neon,
    .bp_send_fp16 = jd_bp_send_neon,
    .backend_of = ALL_KERNELS("neon"),
};
#endif

int jd_cpu_neon_native(void)
{
#if defined(JD_HAVE_NEON) && defined(__aarch64__)
	return 1; /* Advanced SIMD is mandatory in ARMv8-A */
#else
	return 0;
#endif
}

int jd_cpu_has_fp16(void)
{
#if defined(__aarch64__) && defined(__linux__)
	return (getauxval(AT_HWCAP) & HWCAP_ASIMDHP) != 0;
#else
	return 0;
#endif
}

int jd_kernels_select(enum jd_backend want, int allow_fp16, struct jd_kernels *k, char *err,
		      size_t errlen)
{
	(void)err; /* used only where NEON is not built */
	(void)errlen;
	(void)allow_fp16; /* used only where the FP16 kernel is built */
	*k = jd_kernels_ref;
	/* CPU kernels: cuda and cpu take what auto takes (the GPU is decided by the caller). */
	if (want == JD_BACKEND_CUDA || want == JD_BACKEND_CPU) {
		want = JD_BACKEND_AUTO;
	}
	if (want == JD_BACKEND_REF || (want == JD_BACKEND_AUTO && !jd_cpu_neon_native())) {
		return 0;
	}
#ifdef JD_HAVE_NEON
	*k = kernels_neon;
#ifdef JD_HAVE_NEON_FP16
	if (allow_fp16 && jd_cpu_has_fp16()) {
		k->bp_send_fp16 = jd_bp_send_neon_fp16;
		k->backend_of[JD_K_BP_MESSAGES] = "neon+fp16";
	}
#endif
	return 0;
#else
	snprintf(err, errlen, "backend neon: not built into this binary (%s)",
		 "build for aarch64, or on x86 with SIMDe (libsimde-dev) installed");
	return -ENODEV;
#endif
}

int jd_backend_parse(const char *name, enum jd_backend *out)
{
	if (strcmp(name, "auto") == 0) {
		*out = JD_BACKEND_AUTO;
	} else if (strcmp(name, "cpu") == 0) {
		*out = JD_BACKEND_CPU;
	} else if (strcmp(name, "ref") == 0) {
		*out = JD_BACKEND_REF;
	} else if (strcmp(name, "neon") == 0) {
		*out = JD_BACKEND_NEON;
	} else if (strcmp(name, "cuda") == 0) {
		*out = JD_BACKEND_CUDA;
	} else {
		return -EINVAL;
	}
	return 0;
}

const char *jd_backend_name(enum jd_backend b)
{
	switch (b) {
	case JD_BACKEND_AUTO:
		return "auto";
	case JD_BACKEND_REF:
		return "ref";
	case JD_BACKEND_NEON:
		return "neon";
	case JD_BACKEND_CUDA:
		return "cuda";
	case JD_BACKEND_CPU:
		return "cpu";
	}
	return "?";
}

void jd_kernels_describe(const struct jd_kernels *k, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < JD_K_COUNT && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s=%s", i ? " " : "", kernel_names[i],
				 k->backend_of[i]);
		if (n < 0) {
			break;
		}
		used += (size_t)n;
	}
}
