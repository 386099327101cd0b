/* What the cloud's kernels (cloud_cuda.cu) and their host side (hal/cuda/cloud_cuda.c) share. */
#ifndef JD_ALGO_CUDA_CLOUD_LAUNCH_H
#define JD_ALGO_CUDA_CLOUD_LAUNCH_H

/* threads of a row's block in jd_cloud_count_cuda and jd_cloud_write_cuda (a multiple of 32) */
#define JD_CLOUD_THREADS 256

#endif
