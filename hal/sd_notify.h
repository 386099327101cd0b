/*
 * systemd's notification protocol without libsystemd: READY=1 when boot is done, WATCHDOG=1
 * from the frame loop at half the unit's WatchdogSec (so a stuck pipeline gets restarted),
 * STOPPING=1 at a clean stop, STATUS= lines for `systemctl status`. One datagram socket to
 * $NOTIFY_SOCKET made at boot; without that variable (not under systemd) everything is a no-op.
 */
#ifndef JD_HAL_SD_NOTIFY_H
#define JD_HAL_SD_NOTIFY_H

#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

struct jd_notify {
	int fd; /* -1: not under systemd */
	struct sockaddr_un addr;
	socklen_t addrlen;
	uint64_t watchdog_ns; /* a quarter of $WATCHDOG_USEC; 0: no watchdog */
	int watchdog_bad;     /* $WATCHDOG_USEC is not a number of microseconds (1 to a day's) */
	uint64_t last_ping;
};

/** Read $NOTIFY_SOCKET and $WATCHDOG_USEC (for this process: $WATCHDOG_PID). @retval 0, -errno */
int jd_notify_init(struct jd_notify *n);

/** Send a state line ("READY=1", "STATUS=..."). @retval 0, -errno; 0 when not under systemd */
int jd_notify_send(struct jd_notify *n, const char *state);

/** From the frame loop: WATCHDOG=1 when a quarter of the watchdog interval has passed since the
 * last. */
void jd_notify_watchdog(struct jd_notify *n, uint64_t now_ns);

void jd_notify_deinit(struct jd_notify *n);

#endif
