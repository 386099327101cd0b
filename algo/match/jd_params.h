/* Matcher parameters, their defaults and validation at the boundary. */
#ifndef JD_ALGO_JD_PARAMS_H
#define JD_ALGO_JD_PARAMS_H

#include <stddef.h>

enum jd_algo {
	JD_ALGO_SAD,
	JD_ALGO_SGM,
	JD_ALGO_BP,
};

enum jd_sgm_cost {
	JD_SGM_COST_CENSUS, /* 9x7 census, Hamming distance 0..62 */
	JD_SGM_COST_AD,	    /* absolute intensity difference 0..255 */
};

/* What the matcher's images go through first (algo/match/prefilter.h). */
enum jd_prefilter {
	JD_PREFILTER_AUTO,   /* census for BP, rank for SAD, none for SGM (census needs none) */
	JD_PREFILTER_NONE,   /* the raw intensities: the seeds' absolute-difference costs */
	JD_PREFILTER_RANK,   /* rank transform: robust to brightness differences */
	JD_PREFILTER_CENSUS, /* BP only: Hamming distance of 5x5 census codes (bp.h) */
};

/* Largest disparity count any matcher accepts; users ask for 512, we allow headroom. */
#define JD_NDISP_MAX 1024
#define JD_SAD_WINDOW_MAX 31
#define JD_RANK_WINDOW_MAX 15
#define JD_BP_LEVELS_MAX 8
/* SGM path costs are bytes: P2 up to this keeps their recurrence exact (sgm_priv.h). */
#define JD_SGM_P2_MAX 255

struct jd_sad_params {
	int window;   /* odd, 1..JD_SAD_WINDOW_MAX */
	int lr_check; /* left-right check (winners more than 1 apart are invalid) */
	int fill;     /* fill those from the farther valid neighbour on the row */
	int median;   /* 3x3 median on the result */
	int subpixel; /* equiangular fit through the three window sums around the minimum */
};

struct jd_sgm_params {
	enum jd_sgm_cost cost;
	int paths;	 /* 4 or 8 */
	int p1;		 /* small-change penalty */
	int p2;		 /* large-change penalty, > p1 */
	int p2_adapt;	 /* intensity step that halves P2 (0 = constant P2) */
	int subpixel;	 /* equiangular fit through the three costs around the minimum */
	int lr_check;	 /* left-right consistency */
	int lr_max_diff; /* allowed |dL - dR| in pixels */
	int uniqueness;	 /* percent margin the best cost must beat the others by; 0 = off */
	int fill;	 /* fill invalid pixels from the farther valid neighbour on the row */
	int median;	 /* 3x3 median on the result */
};

struct jd_bp_params {
	int levels;
	int iters;
	float lambda;
	float data_k;
	float disc_k; /* 0: ndisp / 7.5 as in the seed */
	float sigma;  /* Gaussian pre-smoothing; 0 = off */
	int fp16;     /* store data costs and messages as IEEE half */
	int subpixel; /* equiangular fit through the three beliefs around the minimum */
};

struct jd_match_params {
	enum jd_algo algo;
	int ndisp;    /* disparities min_disp .. min_disp + ndisp - 1 */
	int min_disp; /* >= 0 */
	enum jd_prefilter prefilter;
	int rank_window; /* odd side of the rank transform; 0: the matcher's default */
	struct jd_sad_params sad;
	struct jd_sgm_params sgm;
	struct jd_bp_params bp;
	/* How it runs, not what it computes: strips (0: as the memory ceiling needs,
	 * algo/match/tiling.h) */
	int tiles;
	int tile_overlap; /* rows of context each side of a strip (0: the matcher's default) */
};

/** Fill @p p with the reference defaults for @p algo. */
void jd_params_default(struct jd_match_params *p, enum jd_algo algo, int ndisp);

/**
 * Check every parameter against an image size.
 * @retval 0 valid
 * @retval -EINVAL invalid; @p err names the option and the value
 */
int jd_params_validate(const struct jd_match_params *p, int width, int height, char *err,
		       size_t errlen);

const char *jd_algo_name(enum jd_algo algo);
/** @retval 0 and *out set, or -EINVAL for an unknown name */
int jd_algo_parse(const char *name, enum jd_algo *out);

const char *jd_prefilter_name(enum jd_prefilter f);
/** @retval 0 and *out set, or -EINVAL for an unknown name */
int jd_prefilter_parse(const char *name, enum jd_prefilter *out);

#endif
