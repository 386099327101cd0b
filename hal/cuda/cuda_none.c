/* Built when nvcc was not available: the same interface, no GPU (cf. ArduPilot's HAL_Empty). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cuda.h"

int jd_cuda_built(void)
{
	return 0;
}

int jd_cuda_open(struct jd_cuda *cu, enum jd_gpu_memory mem)
{
	(void)mem;
	memset(cu, 0, sizeof(*cu));
	snprintf(cu->err, sizeof(cu->err), "this binary was built without CUDA kernels (no nvcc)");
	return -ENODEV;
}

int jd_cuda_count(struct jd_cuda *cu, int (*take)(struct jd_cuda *cu, void *ctx), void *ctx,
		  size_t *dev_bytes, size_t *pinned_bytes)
{
	(void)cu;
	(void)take;
	(void)ctx;
	*dev_bytes = *pinned_bytes = 0;
	return -ENODEV;
}

int jd_cuda_allocate(struct jd_cuda *cu, size_t dev_bytes, size_t pinned_bytes)
{
	(void)cu;
	(void)dev_bytes;
	(void)pinned_bytes;
	return -ENODEV;
}

int jd_cuda_boot(struct jd_cuda *cu, enum jd_gpu_memory mem,
		 int (*take)(struct jd_cuda *cu, void *ctx), void *ctx)
{
	(void)take;
	(void)ctx;
	return jd_cuda_open(cu, mem);
}

void jd_cuda_deinit(struct jd_cuda *cu)
{
	(void)cu;
}

int jd_cuda_take(struct jd_cuda *cu, size_t bytes, jd_cudeviceptr *out)
{
	(void)cu;
	(void)bytes;
	(void)out;
	return -ENODEV;
}

int jd_cuda_take_pinned(struct jd_cuda *cu, size_t bytes, void **out)
{
	(void)cu;
	(void)bytes;
	(void)out;
	return -ENODEV;
}

void jd_cuda_seal(struct jd_cuda *cu)
{
	(void)cu;
}

int jd_cuda_function(struct jd_cuda *cu, const char *name, jd_cufunction *out)
{
	(void)cu;
	(void)name;
	(void)out;
	return -ENODEV;
}

const char *jd_cuda_result_name(struct jd_cuda *cu, jd_curesult r)
{
	(void)cu;
	(void)r;
	return "no CUDA";
}

int jd__cuda_check(struct jd_cuda *cu, jd_curesult r, const char *call, const char *file, int line)
{
	(void)cu;
	(void)r;
	(void)call;
	(void)file;
	(void)line;
	return -ENODEV;
}

uint64_t jd_cuda_fatbin_hash(void)
{
	return 0;
}

int jd_cuda_take_event(struct jd_cuda *cu, void **out)
{
	(void)cu;
	*out = NULL;
	return -ENODEV;
}

int jd_cuda_wait(struct jd_cuda *cu, void *ev)
{
	(void)cu;
	(void)ev;
	return -ENODEV;
}
