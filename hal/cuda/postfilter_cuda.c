#include "postfilter_cuda.h"

#include "../../algo/jd_status.h"

enum { THREADS = 128 };

int jd_cuda_post_init(struct jd_cuda_post *pp, struct jd_cuda *cu)
{
	JD_TRY(jd_cuda_function(cu, "jd_fill_cuda", &pp->fill));
	return jd_cuda_function(cu, "jd_median3x3_cuda", &pp->median);
}

int jd_cuda_post_run(const struct jd_cuda_post *pp, struct jd_cuda *cu, jd_cudeviceptr map,
		     jd_cudeviceptr spare, int w, int h, int fill, int median,
		     jd_cudeviceptr *result)
{
	*result = map;
	if (fill) {
		/* a warp per row; spare holds each run's left value until the warp comes back */
		void *a[] = {&map, &spare, &w, &h};
		unsigned rows = THREADS / 32;
		JD_TRY(JD_CU(cu, cuLaunchKernel(pp->fill, (unsigned)((h + rows - 1) / rows), 1, 1,
						THREADS, 1, 1, 0, cu->stream[0], a, NULL)));
	}
	if (median) {
		void *a[] = {&map, &spare, &w, &h};
		JD_TRY(JD_CU(cu, cuLaunchKernel(pp->median, (unsigned)((w + THREADS - 1) / THREADS),
						(unsigned)h, 1, THREADS, 1, 1, 0, cu->stream[0], a,
						NULL)));
		*result = spare;
	}
	return 0;
}
