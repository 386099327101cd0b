/* Monotonic time for pacing and benchmarks. */
#ifndef JD_HAL_CLOCK_H
#define JD_HAL_CLOCK_H

#include <stdint.h>

/** Nanoseconds on CLOCK_MONOTONIC. */
uint64_t jd_clock_ns(void);

#endif
