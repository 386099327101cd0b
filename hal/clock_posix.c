#include <errno.h>
#include <time.h>

#include "clock.h"

uint64_t jd_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void jd_clock_sleep_until(uint64_t t_ns)
{
	struct timespec ts = {(time_t)(t_ns / 1000000000ull), (long)(t_ns % 1000000000ull)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
	}
}
