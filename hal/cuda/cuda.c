#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "../../algo/jd_status.h"
#include "cuda.h"

#include "fatbin_images.h"

/* The fatbin nvcc built from algo/cuda/ .cu files, embedded by hal/cuda/cuda_fatbin.S (.incbin). */
extern const unsigned char jd_cuda_fatbin[];
extern const unsigned char jd_cuda_fatbin_end[];

enum {
	CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
	CU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
	CU_MEMHOSTALLOC_DEVICEMAP = 0x02,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
	CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
	CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
	CU_STREAM_NON_BLOCKING = 1,
	CU_CTX_SCHED_BLOCKING_SYNC = 0x04,
	CU_EVENT_BLOCKING_SYNC = 0x01,
};

int jd_cuda_built(void)
{
	return 1;
}

const char *jd_cuda_result_name(struct jd_cuda *cu, jd_curesult r)
{
	static char buf[32]; /* only for unknown codes, error paths */
	const char *name = NULL;

	if (cu && cu->api.cuGetErrorName && cu->api.cuGetErrorName(r, &name) == 0 && name) {
		return name;
	}
	snprintf(buf, sizeof(buf), "CUresult %d", r);
	return buf;
}

int jd__cuda_check(struct jd_cuda *cu, jd_curesult r, const char *call, const char *file, int line)
{
	if (r == 0) {
		return 0;
	}
	snprintf(cu->err, sizeof(cu->err), "%s: %s (%s:%d)", call, jd_cuda_result_name(cu, r), file,
		 line);
	return -EIO;
}

/* Every entry point by its versioned name; a missing one means a driver too old for us. */
static int load_api(struct jd_cuda *cu)
{
	static const struct {
		const char *name;
		size_t offset;
	} syms[] = {
#define SYM(n) {#n, offsetof(struct jd_cuda_api, n)}
	    SYM(cuInit),
	    SYM(cuDriverGetVersion),
	    SYM(cuDeviceGet),
	    SYM(cuDeviceGetCount),
	    SYM(cuDeviceGetName),
	    SYM(cuDeviceGetAttribute),
	    SYM(cuDeviceTotalMem_v2),
	    SYM(cuDevicePrimaryCtxRetain),
	    SYM(cuDevicePrimaryCtxSetFlags_v2),
	    SYM(cuDevicePrimaryCtxRelease_v2),
	    SYM(cuCtxSetCurrent),
	    SYM(cuModuleLoadData),
	    SYM(cuModuleUnload),
	    SYM(cuModuleGetFunction),
	    SYM(cuFuncSetAttribute),
	    SYM(cuMemAlloc_v2),
	    SYM(cuMemFree_v2),
	    SYM(cuMemHostAlloc),
	    SYM(cuMemHostGetDevicePointer_v2),
	    SYM(cuMemFreeHost),
	    SYM(cuMemcpyHtoDAsync_v2),
	    SYM(cuMemcpyDtoHAsync_v2),
	    SYM(cuMemsetD8Async),
	    SYM(cuStreamCreate),
	    SYM(cuStreamDestroy_v2),
	    SYM(cuStreamSynchronize),
	    SYM(cuLaunchKernel),
	    SYM(cuGetErrorName),
	    SYM(cuEventCreate),
	    SYM(cuEventDestroy_v2),
	    SYM(cuEventRecord),
	    SYM(cuEventSynchronize),
	    SYM(cuEventQuery),
	    SYM(cuEventElapsedTime_v2),
	    SYM(cuStreamWaitEvent),
#undef SYM
	};
	const char *path = getenv("JD_CUDA_LIB");

	path = path && *path ? path : "libcuda.so.1";
	cu->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!cu->lib) {
		snprintf(cu->err, sizeof(cu->err), "no CUDA driver: %s", dlerror());
		return -ENODEV;
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		void *f = dlsym(cu->lib, syms[i].name);

		if (!f) {
			snprintf(cu->err, sizeof(cu->err), "CUDA driver %s lacks %s (too old)",
				 path, syms[i].name);
			return -ENODEV;
		}
		memcpy((char *)&cu->api + syms[i].offset, &f, sizeof(f));
	}
	return 0;
}

static int open_device(struct jd_cuda *cu)
{
	int count = 0;

	/* Load every kernel now: lazy loading (CUDA 12's default) would allocate in frame 1. */
	setenv("CUDA_MODULE_LOADING", "EAGER", 0);
	JD_TRY(JD_CU(cu, cuInit(0)));
	JD_TRY(JD_CU(cu, cuDriverGetVersion(&cu->driver_version)));
	JD_TRY(JD_CU(cu, cuDeviceGetCount(&count)));
	if (count < 1) {
		snprintf(cu->err, sizeof(cu->err), "CUDA driver %d.%d: no GPU",
			 cu->driver_version / 1000, cu->driver_version % 1000 / 10);
		return -ENODEV;
	}
	JD_TRY(JD_CU(cu, cuDeviceGet(&cu->device, 0)));
	JD_TRY(JD_CU(cu, cuDeviceGetName(cu->name, sizeof(cu->name), cu->device)));
	JD_TRY(JD_CU(cu, cuDeviceGetAttribute(&cu->cc_major,
					      CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
					      cu->device)));
	JD_TRY(JD_CU(cu, cuDeviceGetAttribute(&cu->cc_minor,
					      CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
					      cu->device)));
	JD_TRY(JD_CU(cu, cuDeviceGetAttribute(
			     &cu->sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, cu->device)));
	JD_TRY(JD_CU(
	    cu, cuDeviceGetAttribute(&cu->integrated, CU_DEVICE_ATTRIBUTE_INTEGRATED, cu->device)));
	JD_TRY(JD_CU(cu, cuDeviceGetAttribute(&cu->smem_optin,
					      CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
					      cu->device)));
	{
		/* DRAM peak for the bench (2 transfers a clock); optional: 0 when not reported. */
		int khz = 0, bits = 0;

		if (cu->api.cuDeviceGetAttribute(&khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
						 cu->device) ||
		    cu->api.cuDeviceGetAttribute(&bits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
						 cu->device)) {
			khz = bits = 0;
		}
		cu->dram_gbs = 2.0 * khz * 1e3 * (bits / 8) / 1e9;
	}
	/*
	 * The primary context: cuCtxCreate maps to a _v4 with a new signature in CUDA 13. A
	 * thread waiting for the GPU sleeps instead of spinning: on a Jetson the cores are the
	 * robot's too, and a spinning wait was most of the loop's CPU time (docs/perf_log.md). Best
	 * effort: where the context is already active with other flags, it keeps them.
	 */
	(void)cu->api.cuDevicePrimaryCtxSetFlags_v2(cu->device, CU_CTX_SCHED_BLOCKING_SYNC);
	JD_TRY(JD_CU(cu, cuDevicePrimaryCtxRetain(&cu->ctx, cu->device)));
	JD_TRY(JD_CU(cu, cuCtxSetCurrent(cu->ctx)));
	return 0;
}

int jd_cuda_open(struct jd_cuda *cu, enum jd_gpu_memory mem)
{
	int rc;

	memset(cu, 0, sizeof(*cu));
	/* counting until jd_cuda_allocate() books the sizes */
	jd_carve_init_aligned(&cu->dev_room, NULL, SIZE_MAX, JD_CUDA_ALIGN);
	jd_carve_init_aligned(&cu->pinned_room, NULL, SIZE_MAX, JD_CUDA_ALIGN);
	const char *wait = getenv("JD_CUDA_WAIT");
	if (wait && *wait && strcmp(wait, "poll") && strcmp(wait, "block")) {
		snprintf(cu->err, sizeof(cu->err), "JD_CUDA_WAIT=%s: must be poll or block", wait);
		return -EINVAL;
	}
	cu->poll = !wait || strcmp(wait, "block");
	JD_TRY(load_api(cu));
	rc = open_device(cu);
	if (rc) {
		return rc == -EIO ? -ENODEV : rc;
	}
	jd_curesult r = cu->api.cuModuleLoadData(&cu->module, jd_cuda_fatbin);
	if (r != 0) {
		/* Typically a driver older than the toolkit that built the fatbin: say which. */
		struct jd_fatbin_image im[16];
		char need[200];
		int n = jd_fatbin_images(jd_cuda_fatbin,
					 (size_t)(jd_cuda_fatbin_end - jd_cuda_fatbin), im, 16);
		if (n > 0) { /* says the driver needed, or that nothing is there for this sm */
			jd_fatbin_needs(im, n < 16 ? n : 16, cu->cc_major * 10 + cu->cc_minor, need,
					sizeof(need));
		} else {
			snprintf(need, sizeof(need), "the embedded fatbin cannot be read");
		}
		snprintf(cu->err, sizeof(cu->err),
			 "CUDA driver %d.%d cannot load the kernels for %s (sm_%d%d): %s; %s",
			 cu->driver_version / 1000, cu->driver_version % 1000 / 10, cu->name,
			 cu->cc_major, cu->cc_minor, jd_cuda_result_name(cu, r), need);
		cu->module = NULL;
		return -ENODEV;
	}
	for (int i = 0; i < JD_CUDA_STREAMS; i++) {
		JD_TRY(JD_CU(cu, cuStreamCreate(&cu->stream[i], CU_STREAM_NON_BLOCKING)));
	}
	for (int i = 0; i < JD_CUDA_EVENTS; i++) {
		JD_TRY(JD_CU(cu, cuEventCreate(&cu->ev[i], CU_EVENT_BLOCKING_SYNC)));
	}
	cu->mapped = mem == JD_GPU_MEMORY_MAPPED || (mem == JD_GPU_MEMORY_AUTO && cu->integrated);
	cu->counting = 1;
	return 0;
}

/* Back to the first byte and event (after counting, or to count again). */
static void rewind_carving(struct jd_cuda *cu)
{
	cu->dev_room.used = 0;
	cu->pinned_room.used = 0;
	cu->ev_used = 0;
}

int jd_cuda_count(struct jd_cuda *cu, int (*take)(struct jd_cuda *cu, void *ctx), void *ctx,
		  size_t *dev_bytes, size_t *pinned_bytes)
{
	if (!cu->counting) {
		snprintf(cu->err, sizeof(cu->err), "counting after the allocations were made");
		return -EPERM;
	}
	rewind_carving(cu);
	int rc = take(cu, ctx);
	*dev_bytes = jd_carve_total(&cu->dev_room);
	*pinned_bytes = jd_carve_total(&cu->pinned_room);
	rewind_carving(cu);
	return rc;
}

int jd_cuda_allocate(struct jd_cuda *cu, size_t dev_bytes, size_t pinned_bytes)
{
	rewind_carving(cu);
	cu->counting = 0;
	cu->dev_room.size = jd_cuda_round(dev_bytes);
	cu->pinned_room.size = jd_cuda_round(pinned_bytes);
	if (cu->dev_room.size) {
		cu->mem_allocs++;
		if (JD_CU(cu, cuMemAlloc_v2(&cu->dev_base, cu->dev_room.size))) {
			return -ENOMEM;
		}
	}
	if (cu->pinned_room.size) {
		cu->mem_allocs++;
		if (JD_CU(cu, cuMemHostAlloc(&cu->pinned, cu->pinned_room.size,
					     cu->mapped ? CU_MEMHOSTALLOC_DEVICEMAP : 0))) {
			return -ENOMEM;
		}
		if (cu->mapped) {
			JD_TRY(JD_CU(cu,
				     cuMemHostGetDevicePointer_v2(&cu->pinned_dev, cu->pinned, 0)));
		}
	}
	return 0;
}

int jd_cuda_boot(struct jd_cuda *cu, enum jd_gpu_memory mem,
		 int (*take)(struct jd_cuda *cu, void *ctx), void *ctx)
{
	size_t dev, pinned;

	JD_TRY(jd_cuda_open(cu, mem));
	JD_TRY(jd_cuda_count(cu, take, ctx, &dev, &pinned));
	JD_TRY(jd_cuda_allocate(cu, dev, pinned));
	return take(cu, ctx);
}

void jd_cuda_deinit(struct jd_cuda *cu)
{
	if (!cu || !cu->lib) {
		return;
	}
	if (cu->ctx) {
		/* Teardown: a failure here has nowhere to go; each call is still made. */
		for (int i = 0; i < JD_CUDA_STREAMS; i++) {
			if (cu->stream[i]) {
				cu->api.cuStreamSynchronize(cu->stream[i]);
				cu->api.cuStreamDestroy_v2(cu->stream[i]);
			}
		}
		for (int i = 0; i < JD_CUDA_EVENTS; i++) {
			if (cu->ev[i]) {
				cu->api.cuEventDestroy_v2(cu->ev[i]);
			}
		}
		if (cu->dev_base) {
			cu->api.cuMemFree_v2(cu->dev_base);
		}
		if (cu->pinned) {
			cu->api.cuMemFreeHost(cu->pinned);
		}
		if (cu->module) {
			cu->api.cuModuleUnload(cu->module);
		}
		cu->api.cuDevicePrimaryCtxRelease_v2(cu->device);
	}
	dlclose(cu->lib);
	memset(cu, 0, sizeof(*cu));
}

/*
 * The next bytes of one of boot's two regions (what: "device" or "pinned", for the errors):
 * their offset. While boot counts, only the sum grows.
 */
/* A block of room (jd_carve_offset()'s rule), with the error that names it. */
static int take_offset(struct jd_cuda *cu, const char *what, size_t bytes, struct jd_carve *room,
		       size_t *offset)
{
	size_t end = jd_carve_total(room) + jd_cuda_round(bytes);
	int rc = jd_carve_offset(room, bytes, offset);

	if (rc == -EPERM) {
		snprintf(cu->err, sizeof(cu->err), "%s memory: taken after boot (%zu bytes)", what,
			 bytes);
	} else if (rc) {
		snprintf(cu->err, sizeof(cu->err), "%s memory: %zu more bytes than the %zu booked",
			 what, end - room->size, room->size);
	}
	return rc;
}

int jd_cuda_take(struct jd_cuda *cu, size_t bytes, jd_cudeviceptr *out)
{
	size_t off;

	JD_TRY(take_offset(cu, "device", bytes, &cu->dev_room, &off));
	*out = cu->counting ? 0 : cu->dev_base + off;
	return 0;
}

int jd_cuda_take_pinned(struct jd_cuda *cu, size_t bytes, void **out)
{
	size_t off;

	JD_TRY(take_offset(cu, "pinned", bytes, &cu->pinned_room, &off));
	*out = cu->counting ? NULL : (char *)cu->pinned + off;
	return 0;
}

void jd_cuda_seal(struct jd_cuda *cu)
{
	cu->dev_room.sealed = 1;
	cu->pinned_room.sealed = 1;
}

int jd_cuda_function(struct jd_cuda *cu, const char *name, jd_cufunction *out)
{
	*out = NULL;
	if (JD_CU(cu, cuModuleGetFunction(out, cu->module, name))) {
		size_t n = strlen(cu->err);
		snprintf(cu->err + n, sizeof(cu->err) - n, ": kernel %s", name);
		return -ENOENT;
	}
	return 0;
}

uint64_t jd_cuda_fatbin_hash(void)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a over the embedded kernels */

	for (const unsigned char *p = jd_cuda_fatbin; p < jd_cuda_fatbin_end; p++) {
		h = (h ^ *p) * 0x100000001b3ull;
	}
	return h;
}

int jd_cuda_wait(struct jd_cuda *cu, void *ev)
{
	enum { NOT_READY = 600 /* CUDA_ERROR_NOT_READY */ };
	const struct timespec step = {0, 50000}; /* 50 us: no frame rate lost on the H100 */

	if (!cu->poll) {
		return JD_CU(cu, cuEventSynchronize(ev));
	}
	for (;;) {
		jd_curesult r = cu->api.cuEventQuery(ev);
		if (r != NOT_READY) {
			/* done, or failed: the blocking wait reports the failure with its name */
			return r == 0 ? 0 : JD_CU(cu, cuEventSynchronize(ev));
		}
		nanosleep(&step, NULL);
	}
}

int jd_cuda_take_event(struct jd_cuda *cu, void **out)
{
	if (cu->dev_room.sealed) { /* sealed with the memory */
		snprintf(cu->err, sizeof(cu->err), "event taken after boot sealed the GPU");
		return -EPERM;
	}
	if (cu->ev_used >= JD_CUDA_EVENTS) {
		snprintf(cu->err, sizeof(cu->err), "all %d boot-time events are taken",
			 JD_CUDA_EVENTS);
		return -ENOMEM;
	}
	*out = cu->counting ? NULL : cu->ev[cu->ev_used];
	cu->ev_used++;
	return 0;
}
