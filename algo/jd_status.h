/* Status codes shared by every layer: 0 or a negative errno (Zephyr style). */
#ifndef JD_ALGO_JD_STATUS_H
#define JD_ALGO_JD_STATUS_H

#include <errno.h>

/* The one macro that hides a return: evaluate a status expression, return it if non-zero. */
#define JD_TRY(expr)                                                                               \
	do {                                                                                       \
		int jd_try_rc_ = (expr);                                                           \
		if (jd_try_rc_) {                                                                  \
			return jd_try_rc_;                                                         \
		}                                                                                  \
	} while (0)

/** Short text for a status code; never NULL. */
const char *jd_strerror(int status);

#endif
