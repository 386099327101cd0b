/* Status codes shared by every layer: 0 or a negative errno (Zephyr style). */
#ifndef JD_ALGO_JD_STATUS_H
#define JD_ALGO_JD_STATUS_H

#include <errno.h>

/** Short text for a status code; never NULL. */
const char *jd_strerror(int status);

#endif
