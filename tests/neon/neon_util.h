/* Shared by the NEON equivalence tests: the NEON table (or a skip); images in jd_test_images.h. */
#ifndef JD_TESTS_NEON_UTIL_H
#define JD_TESTS_NEON_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jd_image.h"
#include "jd_test.h"
#include "jd_test_images.h"
#include "kernels.h"

/* The NEON table, FP16 variants off: everything in it must match the reference exactly. */
static inline void neon_table_exact(struct jd_kernels *k)
{
	char err[200];

	if (jd_kernels_select(JD_BACKEND_NEON, 0, k, err, sizeof(err))) {
		JD_SKIP("%s", err);
	}
	printf("NEON kernels: %s\n", jd_cpu_neon_native() ? "native" : "SIMDe on this CPU");
}

#endif
