/*
 * The kernel table (libjpeg-turbo's jsimd.c pattern): every hot kernel of the matchers and the
 * frame path behind one function pointer, filled once at boot by jd_kernels_select() from the
 * CPU's features and the user's --backend / JD_BACKEND choice. The matchers call through the
 * table and never branch on the backend. Every _neon entry takes the same arguments as its
 * _ref twin and gives the same result bit for bit, except bp_send_fp16 (documented bound).
 */
#ifndef JD_ALGO_KERNELS_H
#define JD_ALGO_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "jd_exec.h"
#include "jd_image.h"
#include "match/jd_params.h"

struct jd_bp_chunk;
struct jd_bp_scratch;
struct jd_remap;

enum jd_kernel_id {
	JD_K_GRAY_RGB,
	JD_K_GRAY_YUYV,
	JD_K_GRAY_UYVY,
	JD_K_GRAY_MONO16,
	JD_K_GRAY_BAYER,
	JD_K_REMAP,
	JD_K_CENSUS,
	JD_K_SGM_COST,
	JD_K_SGM_AGGREGATE,
	JD_K_SGM_SELECT,
	JD_K_SAD_ACCUMULATE,
	JD_K_SAD_WTA,
	JD_K_BP_MESSAGES,
	JD_K_COUNT
};

enum jd_backend {
	JD_BACKEND_AUTO, /* the fastest this CPU runs: NEON on aarch64, the reference elsewhere */
	JD_BACKEND_REF,	 /* portable C, the truth every backend is tested against */
	JD_BACKEND_NEON, /* NEON (on x86 through SIMDe when built with it: tests and benchmarks) */
	JD_BACKEND_CPU,	 /* auto, but never the GPU */
	JD_BACKEND_CUDA, /* the GPU for the stages that have CUDA kernels; CPU kernels as auto */
};

typedef void (*jd_gray_rgb_fn)(const uint8_t *rgb, int n, uint8_t *out);
typedef void (*jd_gray_yuyv_fn)(const uint8_t *yuyv, int n, uint8_t *out);
typedef void (*jd_gray_mono16_fn)(const uint8_t *row, int n, int bits, uint8_t *out);
typedef void (*jd_gray_bayer_fn)(const uint8_t *up, const uint8_t *row, const uint8_t *down, int n,
				 int bits, int r_col, int r_row, uint8_t *out);
typedef void (*jd_remap_fn)(const struct jd_remap *map, const struct jd_image *src,
			    struct jd_image *dst, const struct jd_exec *ex);
typedef void (*jd_census_fn)(const struct jd_image *im, uint64_t *out, const struct jd_exec *ex);
typedef void (*jd_sgm_cost_fn)(const struct jd_match_params *p, const struct jd_image *left,
			       const struct jd_image *right, const uint64_t *census_l,
			       const uint64_t *census_r, uint8_t *cost, const struct jd_exec *ex);
typedef void (*jd_sgm_aggregate_fn)(const struct jd_match_params *p, const struct jd_image *guide,
				    const uint8_t *cost, uint16_t *s_fwd, uint16_t *s_bwd,
				    void *sweep_ws, const struct jd_exec *ex);
typedef void (*jd_sgm_select_fn)(const struct jd_match_params *p, uint16_t *s_fwd,
				 const uint16_t *s_bwd, struct jd_disp *out, void *scratch,
				 const struct jd_exec *ex);
/* colsum[d][i] += sign * |L(i) - R(i + dmax - min_disp - d)| over padded rows (sad_kernels.h). */
typedef void (*jd_sad_accumulate_fn)(uint16_t *colsum, const uint8_t *lrow, const uint8_t *rrow,
				     int padw, int ndisp, int min_disp, int dmax, int sign);
/* Sliding window sums of one disparity's column sums, winners for both views (sad_kernels.h). */
typedef void (*jd_sad_wta_fn)(const uint16_t *cs, int w, int win, int d, int shift, uint32_t *best,
			      int *bestd, uint32_t *best_r, int *bestd_r);
/* Four outgoing messages of a run of same-colour pixels (bp_priv.h). */
typedef void (*jd_bp_send_fn)(const struct jd_bp_chunk *c, const struct jd_bp_scratch *sc);

struct jd_kernels {
	jd_gray_rgb_fn gray_from_rgb;
	jd_gray_yuyv_fn gray_from_yuyv;
	jd_gray_yuyv_fn gray_from_uyvy;	    /* the same shape: 4:2:2, luma at odd bytes */
	jd_gray_mono16_fn gray_from_mono16; /* Y10, Y12, Y16 */
	jd_gray_bayer_fn gray_from_bayer;   /* raw Bayer, every order, 8 to 12 bits */
	jd_remap_fn remap;
	jd_census_fn census;
	jd_sgm_cost_fn sgm_cost;
	jd_sgm_aggregate_fn sgm_aggregate;
	jd_sgm_select_fn sgm_select;
	jd_sad_accumulate_fn sad_accumulate;
	jd_sad_wta_fn sad_wta;
	jd_bp_send_fn bp_send;	    /* float storage, and fp16 storage with float arithmetic */
	jd_bp_send_fn bp_send_fp16; /* fp16 storage: the variant used (may compute in fp16) */
	const char *backend_of[JD_K_COUNT];
};

/** The reference table: portable C everywhere. */
extern const struct jd_kernels jd_kernels_ref;

/** 1 when the NEON kernels run on this CPU at native speed (aarch64, not SIMDe). */
int jd_cpu_neon_native(void);
/** 1 when this CPU has ARMv8.2 FP16 vector arithmetic (aarch64 HWCAP_ASIMDHP). */
int jd_cpu_has_fp16(void);

/**
 * Fill @p k for @p want. AUTO takes NEON where it is native, with the FP16 variants only when
 * the CPU has FP16 and @p allow_fp16 is set (the board's neon_fp16 key).
 * @retval 0 success
 * @retval -ENODEV NEON asked for but not built in; @p err says so
 */
int jd_kernels_select(enum jd_backend want, int allow_fp16, struct jd_kernels *k, char *err,
		      size_t errlen);

/** "auto", "cpu" (auto without the GPU), "ref", "neon", "cuda". @retval 0 or -EINVAL */
int jd_backend_parse(const char *name, enum jd_backend *out);
const char *jd_backend_name(enum jd_backend b);

/** One line: kernel=backend for every kernel. */
void jd_kernels_describe(const struct jd_kernels *k, char *buf, size_t len);

#endif
