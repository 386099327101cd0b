#include <errno.h>
#include <time.h>

#include "clock.h"

uint64_t jd_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t jd_clock_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int jd_clock_wait_until(uint64_t t_ns, uint64_t max_ns)
{
	uint64_t now = jd_clock_ns();

	if (t_ns > now + max_ns) {
		jd_clock_sleep_until(now + max_ns);
		return -EINPROGRESS;
	}
	jd_clock_sleep_until(t_ns);
	return 0;
}

void jd_clock_sleep_until(uint64_t t_ns)
{
	struct timespec ts = {(time_t)(t_ns / 1000000000ull), (long)(t_ns % 1000000000ull)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
	}
}
