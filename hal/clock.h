/* Monotonic time for pacing and benchmarks. */
#ifndef JD_HAL_CLOCK_H
#define JD_HAL_CLOCK_H

#include <stdint.h>

/** Nanoseconds on CLOCK_MONOTONIC. */
uint64_t jd_clock_ns(void);

/** CPU time of the whole process, every thread, in ns (CLOCK_PROCESS_CPUTIME_ID). */
uint64_t jd_clock_cpu_ns(void);

/** Sleep until t_ns on the same clock (absolute, so pacing does not drift; EINTR retried). */
void jd_clock_sleep_until(uint64_t t_ns);

/*
 * The longest a paced camera sleeps in one call: at 0.05 fps a frame is 20 s away, and the
 * loop must still see a stop request and tell the watchdog within a second.
 */
#define JD_CLOCK_SLICE_NS 200000000ull

/**
 * Sleep until t_ns, or for at most max_ns. @retval 0 t_ns reached, -EINPROGRESS not yet
 * (the caller comes back)
 */
int jd_clock_wait_until(uint64_t t_ns, uint64_t max_ns);

#endif
