/*
 * Compiler facts in one place (the only #if in algo/). JD_VECTOR_CLONES asks GCC or Clang on
 * x86-64 for an AVX2 copy of a hot loop nest next to the baseline SSE2 one, picked once at load
 * time by the CPU: the same C, the same IEEE operations in the same order (no FMA contraction,
 * -ffp-contract=off), so results stay bit-identical; wider vectors only. Elsewhere (aarch64,
 * other compilers) it is empty and NEON gets its own files. JD__HD marks a function that the
 * CUDA kernels call too (host and device under nvcc; nothing elsewhere).
 */
#ifndef JD_ALGO_JD_COMPILER_H
#define JD_ALGO_JD_COMPILER_H

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(JD_NO_CLONES)
#define JD_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define JD_VECTOR_CLONES
#endif

#ifdef __CUDACC__
#define JD__HD __host__ __device__
#else
#define JD__HD
#endif

#endif
