/* `jetdepth bench --kernels`: each kernel of the table, reference against NEON, one thread. */
#ifndef JD_APP_BENCH_KERNELS_H
#define JD_APP_BENCH_KERNELS_H

/** Print the per-kernel table. @retval 0, or -ENOMEM */
int jd_bench_kernels(int runs);

#endif
