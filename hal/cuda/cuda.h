/*
 * The CUDA driver, loaded at run time (dlopen("libcuda.so.1")): the binary links no CUDA
 * library, runs on machines without a GPU, and cross-builds without aarch64 CUDA libraries.
 * One context (the device's primary), one module (the fatbin embedded at build time), one
 * device allocation, one pinned staging allocation and the streams, all made at boot.
 * Every driver call goes through JD_CU(), which records the call, its CUresult name, file
 * and line as the context's last error and gives back a status: nothing prints and carries on.
 */
#ifndef JD_HAL_CUDA_H
#define JD_HAL_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "../../algo/jd_carve.h"

/* The few driver types used, as cuda.h defines them (no cuda.h needed to build). */
typedef int jd_curesult;
typedef uint64_t jd_cudeviceptr;
typedef void *jd_cufunction;
typedef void *jd_custream;

/* Entry points, dlsym'd by the versioned names cuda.h maps to. */
struct jd_cuda_api {
	jd_curesult (*cuInit)(unsigned);
	jd_curesult (*cuDriverGetVersion)(int *);
	jd_curesult (*cuDeviceGet)(int *, int);
	jd_curesult (*cuDeviceGetCount)(int *);
	jd_curesult (*cuDeviceGetName)(char *, int, int);
	jd_curesult (*cuDeviceGetAttribute)(int *, int, int);
	jd_curesult (*cuDeviceTotalMem_v2)(size_t *, int);
	jd_curesult (*cuDevicePrimaryCtxRetain)(void **, int);
	jd_curesult (*cuDevicePrimaryCtxSetFlags_v2)(int, unsigned);
	jd_curesult (*cuDevicePrimaryCtxRelease_v2)(int);
	jd_curesult (*cuCtxSetCurrent)(void *);
	jd_curesult (*cuModuleLoadData)(void **, const void *);
	jd_curesult (*cuModuleUnload)(void *);
	jd_curesult (*cuModuleGetFunction)(jd_cufunction *, void *, const char *);
	jd_curesult (*cuFuncSetAttribute)(jd_cufunction, int, int);
	jd_curesult (*cuMemAlloc_v2)(jd_cudeviceptr *, size_t);
	jd_curesult (*cuMemFree_v2)(jd_cudeviceptr);
	jd_curesult (*cuMemHostAlloc)(void **, size_t, unsigned);
	jd_curesult (*cuMemHostGetDevicePointer_v2)(jd_cudeviceptr *, void *, unsigned);
	jd_curesult (*cuMemFreeHost)(void *);
	jd_curesult (*cuMemcpyHtoDAsync_v2)(jd_cudeviceptr, const void *, size_t, jd_custream);
	jd_curesult (*cuMemcpyDtoHAsync_v2)(void *, jd_cudeviceptr, size_t, jd_custream);
	jd_curesult (*cuMemsetD8Async)(jd_cudeviceptr, unsigned char, size_t, jd_custream);
	jd_curesult (*cuStreamCreate)(jd_custream *, unsigned);
	jd_curesult (*cuStreamDestroy_v2)(jd_custream);
	jd_curesult (*cuStreamSynchronize)(jd_custream);
	jd_curesult (*cuLaunchKernel)(jd_cufunction, unsigned, unsigned, unsigned, unsigned,
				      unsigned, unsigned, unsigned, jd_custream, void **, void **);
	jd_curesult (*cuGetErrorName)(jd_curesult, const char **);
	jd_curesult (*cuEventCreate)(void **, unsigned);
	jd_curesult (*cuEventDestroy_v2)(void *);
	jd_curesult (*cuEventRecord)(void *, jd_custream);
	jd_curesult (*cuEventSynchronize)(void *);
	jd_curesult (*cuEventQuery)(void *);
	jd_curesult (*cuEventElapsedTime_v2)(float *, void *, void *);
	jd_curesult (*cuStreamWaitEvent)(jd_custream, void *, unsigned);
};

/*
 * How frames and maps reach the GPU (--gpu-memory). copy: through device buffers, uploaded
 * and downloaded each frame. mapped: the kernels read and write the pinned staging itself
 * (mapped into the device's address space), nothing is copied: on an integrated GPU (Jetson)
 * host and device share the DRAM, so a copy only costs bandwidth. auto: mapped on an
 * integrated GPU, copy on a discrete one (there mapped memory is read over PCIe).
 */
enum jd_gpu_memory { JD_GPU_MEMORY_AUTO, JD_GPU_MEMORY_COPY, JD_GPU_MEMORY_MAPPED };

static inline const char *jd_gpu_memory_name(enum jd_gpu_memory m)
{
	return m == JD_GPU_MEMORY_COPY ? "copy" : m == JD_GPU_MEMORY_MAPPED ? "mapped" : "auto";
}

/*
 * Stream 0 runs the kernels and the download, stream 1 the next frame's upload, stream 2
 * sensing on a collected frame (hal/cuda/sense_cuda.h) while the next one's kernels run.
 */
#define JD_CUDA_STREAMS 3
/* Events made at boot, handed out by jd_cuda_take_event(): a frame staging takes 8. */
#define JD_CUDA_EVENTS 32
/* Every block carved from the device and pinned allocations starts on this boundary. */
#define JD_CUDA_ALIGN 256

/** Bytes a block of n takes in the carving (n rounded up to JD_CUDA_ALIGN). */
static inline size_t jd_cuda_round(size_t n)
{
	return (n + JD_CUDA_ALIGN - 1) / JD_CUDA_ALIGN * JD_CUDA_ALIGN;
}

struct jd_cuda {
	void *lib;
	struct jd_cuda_api api;
	int device, cc_major, cc_minor, sm_count, smem_optin, driver_version;
	double dram_gbs; /* DRAM peak, GB/s (0: the driver does not say) */
	char name[128];
	void *ctx, *module;
	jd_custream stream[JD_CUDA_STREAMS];
	jd_cudeviceptr dev_base;     /* the one device allocation, carved by jd_cuda_take() */
	struct jd_carve dev_room;    /* its carving (offsets from dev_base) */
	void *pinned;		     /* the one pinned staging allocation */
	struct jd_carve pinned_room; /* its carving */
	int integrated;		     /* the GPU shares the host's DRAM (Jetson) */
	int mapped; /* JD_GPU_MEMORY_MAPPED in effect: pinned_dev is its device view */
	/*
	 * Wait for the GPU by polling its event every 50 us (the default): the driver's blocking
	 * waits malloc and free on the calling thread, the frame loop's: 16 a frame on the H100
	 * with driver 580, none with polling, at the same frame rate ($JD_CUDA_WAIT=block uses them
	 * all the same).
	 */
	int poll;
	jd_cudeviceptr pinned_dev;
	unsigned long long copied; /* bytes copied between host and device since boot */
	/*
	 * Opened, not yet allocated (jd_cuda_open()): takes only count (the rooms' sizes are
	 * SIZE_MAX, events ev_used), so that sizing runs the carving's own code; no driver call
	 * is made. jd_cuda_seal() seals both rooms, and the events with them.
	 */
	int counting;
	void *ev[JD_CUDA_EVENTS]; /* created at boot */
	int ev_used;
	float last_kernel_ms; /* the last collected frame's kernels, by device events */
	unsigned long
	    mem_allocs; /* cuMemAlloc/cuMemHostAlloc calls: tests assert none after boot */
	char err[512];
};

/**
 * Load the driver, take the primary context of device 0, load the embedded module, make the
 * streams and events; mem says whether the pinned allocation will be mapped for the kernels.
 * Nothing is allocated: the context counts (cu->counting) until jd_cuda_allocate().
 * $JD_CUDA_LIB names another driver library than "libcuda.so.1".
 * @retval 0 success
 * @retval -ENODEV no driver, no device, or a driver that cannot load the module (cu->err
 *         says which: the dlopen error, the driver version, the CUresult name)
 * @retval -EINVAL $JD_CUDA_WAIT is neither poll nor block
 */
int jd_cuda_open(struct jd_cuda *cu, enum jd_gpu_memory mem);

/**
 * Count what take() carves (it runs on the counting context: no memory, no driver call).
 * @retval 0, or take()'s error (cu->err says why)
 */
int jd_cuda_count(struct jd_cuda *cu, int (*take)(struct jd_cuda *cu, void *ctx), void *ctx,
		  size_t *dev_bytes, size_t *pinned_bytes);

/**
 * Make the one device and the one pinned allocation and end counting: the carving starts
 * again from the first byte. @retval 0, -ENOMEM (cu->err names the failed call)
 */
int jd_cuda_allocate(struct jd_cuda *cu, size_t dev_bytes, size_t pinned_bytes);

/**
 * Boot a context that holds exactly what take() carves: open, count, allocate, then take()
 * again to carve for real. Sealing is left to the caller. @retval as the three above
 */
int jd_cuda_boot(struct jd_cuda *cu, enum jd_gpu_memory mem,
		 int (*take)(struct jd_cuda *cu, void *ctx), void *ctx);

/** The device's address of pinned memory taken from cu (mapped mode only). */
static inline jd_cudeviceptr jd_cuda_mapped(const struct jd_cuda *cu, const void *host)
{
	return cu->pinned_dev + (jd_cudeviceptr)((const char *)host - (const char *)cu->pinned);
}

/** Release everything jd_cuda_open() and jd_cuda_allocate() made; takes a zeroed or NULL one. */
void jd_cuda_deinit(struct jd_cuda *cu);

/** A hash of the embedded kernels (0 without them): tuning files name the build they fit. */
uint64_t jd_cuda_fatbin_hash(void);

/** 1 when this binary carries CUDA kernels (built with nvcc). */
int jd_cuda_built(void);

/**
 * Carve device / pinned memory at boot (256-byte aligned); while counting, *out is 0 / NULL.
 * @retval 0, -ENOMEM, -EPERM sealed
 */
int jd_cuda_take(struct jd_cuda *cu, size_t bytes, jd_cudeviceptr *out);
int jd_cuda_take_pinned(struct jd_cuda *cu, size_t bytes, void **out);
void jd_cuda_seal(struct jd_cuda *cu);

/**
 * Take one of the events made at boot (while counting: NULL).
 * @retval 0, -ENOMEM (none left), -EPERM (sealed)
 */
int jd_cuda_take_event(struct jd_cuda *cu, void **out);

/** Wait for an event to complete (cu->poll: polling, else the driver's blocking wait). */
int jd_cuda_wait(struct jd_cuda *cu, void *ev);

/** Look up a kernel of the embedded module (while counting: NULL). @retval 0 or -ENOENT */
int jd_cuda_function(struct jd_cuda *cu, const char *name, jd_cufunction *out);

/** The name of a CUresult (CUDA_ERROR_...), or "CUresult N". */
const char *jd_cuda_result_name(struct jd_cuda *cu, jd_curesult r);

/* Check a driver result: 0, or record call, CUresult name, file and line and give -EIO. */
int jd__cuda_check(struct jd_cuda *cu, jd_curesult r, const char *call, const char *file, int line);

/*
 * Call a driver entry through the table; evaluates to 0 or -EIO (use with JD_TRY). A
 * counting context calls nothing and gives 0.
 */
#define JD_CU(cu, call)                                                                            \
	((cu)->counting ? 0 : jd__cuda_check((cu), (cu)->api.call, #call, __FILE__, __LINE__))

#endif
