/* Monotonic time for pacing and benchmarks. */
#ifndef JD_HAL_CLOCK_H
#define JD_HAL_CLOCK_H

#include <stdint.h>

/** Nanoseconds on CLOCK_MONOTONIC. */
uint64_t jd_clock_ns(void);

/** Sleep until t_ns on the same clock (absolute, so pacing does not drift; EINTR retried). */
void jd_clock_sleep_until(uint64_t t_ns);

#endif
