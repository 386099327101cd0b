#include "sd_notify.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int jd_notify_init(struct jd_notify *n)
{
	const char *path = getenv("NOTIFY_SOCKET"), *wd = getenv("WATCHDOG_USEC");
	const char *pid = getenv("WATCHDOG_PID");

	memset(n, 0, sizeof(*n));
	n->fd = -1;
	if (wd && (!pid || strtol(pid, NULL, 10) == (long)getpid())) {
		/* a ping every quarter: the loop comes round at least every 200 ms
		 * (JD_CLOCK_SLICE_NS), so pings stay within half of WatchdogSec from 1 s up */
		char *end;
		errno = 0;
		unsigned long long us = strtoull(wd, &end, 10);
		if (!*wd || *end || errno || wd[0] == '-' || us == 0 || us > 86400000000ull) {
			n->watchdog_bad =
			    1; /* the caller says it: systemd would restart us blind */
		} else {
			n->watchdog_ns = us * 1000ull / 4;
		}
	}
	if (!path || !*path) {
		return 0;
	}
	size_t len = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || len >= sizeof(n->addr.sun_path)) {
		return -EINVAL;
	}
	n->addr.sun_family = AF_UNIX;
	memcpy(n->addr.sun_path, path, len);
	if (path[0] == '@') {
		n->addr.sun_path[0] = '\0'; /* an abstract socket */
	}
	n->addrlen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + (path[0] == '/'));
	n->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	return n->fd < 0 ? -errno : 0;
}

int jd_notify_send(struct jd_notify *n, const char *state)
{
	if (n->fd < 0) {
		return 0;
	}
	ssize_t r = sendto(n->fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&n->addr,
			   n->addrlen);
	return r < 0 ? -errno : 0;
}

void jd_notify_watchdog(struct jd_notify *n, uint64_t now_ns)
{
	if (n->watchdog_ns && now_ns - n->last_ping >= n->watchdog_ns) {
		n->last_ping = now_ns;
		(void)jd_notify_send(n, "WATCHDOG=1"); /* a lost ping is what the watchdog is for */
	}
}

void jd_notify_deinit(struct jd_notify *n)
{
	if (n && n->fd >= 0) {
		close(n->fd);
		n->fd = -1;
	}
}
