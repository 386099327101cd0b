/* The SAD row kernels every backend provides (kernels.h has their table entries). */
#ifndef JD_ALGO_SAD_KERNELS_H
#define JD_ALGO_SAD_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/*
 * colsum[d][i] += sign * |L(i) - R(i + dmax - min_disp - d)|, i < padw, d < ndisp: lrow and
 * rrow are edge-padded rows (rrow has dmax extra on the left). uint16 wraps like the
 * reference's.
 */
void jd_sad_accumulate_ref(uint16_t *colsum, const uint8_t *lrow, const uint8_t *rrow, int padw,
			   int ndisp, int min_disp, int dmax, int sign);
void jd_sad_accumulate_neon(uint16_t *colsum, const uint8_t *lrow, const uint8_t *rrow, int padw,
			    int ndisp, int min_disp, int dmax, int sign);

/*
 * Window sums S(x) = cs[x] + ... + cs[x + win - 1] for x < w (cs has w + win - 1 entries);
 * where S(x) < best[x] the left winner becomes d, where S(x) < best_r[x - shift] the right
 * view's winner becomes d. Strict comparisons: ties keep the smaller d.
 */
void jd_sad_wta_ref(const uint16_t *cs, int w, int win, int d, int shift, uint32_t *best,
		    int *bestd, uint32_t *best_r, int *bestd_r);
void jd_sad_wta_neon(const uint16_t *cs, int w, int win, int d, int shift, uint32_t *best,
		     int *bestd, uint32_t *best_r, int *bestd_r);

#endif
