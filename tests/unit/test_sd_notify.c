/*
 * The systemd notification protocol against a socket standing in for systemd: READY=1 and a
 * status arrive as datagrams; the watchdog pings at half of WATCHDOG_USEC and not more often;
 * WATCHDOG_PID of another process turns the watchdog off; no NOTIFY_SOCKET is a no-op.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "jd_test.h"
#include "sd_notify.h"

static int recv_text(int fd, char *buf, size_t len)
{
	ssize_t n = recv(fd, buf, len - 1, MSG_DONTWAIT);

	buf[n > 0 ? n : 0] = '\0';
	return (int)n;
}

int main(void)
{
	char path[] = "/tmp/jd_notify_XXXXXX", sock[64], buf[256];
	struct jd_notify n;

	JD_CHECK(mkdtemp(path) != NULL, "mkdtemp");
	snprintf(sock, sizeof(sock), "%s/notify", path);
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", sock);
	JD_CHECK(bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0, "bind");

	unsetenv("NOTIFY_SOCKET");
	JD_CHECK(jd_notify_init(&n) == 0 && n.fd == -1 && jd_notify_send(&n, "READY=1") == 0,
		 "not under systemd: nothing to do");

	setenv("NOTIFY_SOCKET", sock, 1);
	setenv("WATCHDOG_USEC", "200000", 1);
	unsetenv("WATCHDOG_PID");
	JD_CHECK(jd_notify_init(&n) == 0 && n.fd >= 0, "init");
	JD_CHECK(n.watchdog_ns == 50000000ull, "a quarter of the watchdog: %llu ns",
		 (unsigned long long)n.watchdog_ns);
	JD_CHECK(jd_notify_send(&n, "READY=1") == 0, "send");
	JD_CHECK(recv_text(fd, buf, sizeof(buf)) > 0 && !strcmp(buf, "READY=1"), "got '%s'", buf);
	jd_notify_send(&n, "STATUS=3 objects, 30.0 fps");
	JD_CHECK(recv_text(fd, buf, sizeof(buf)) > 0 && !strcmp(buf, "STATUS=3 objects, 30.0 fps"),
		 "status '%s'", buf);
	jd_notify_watchdog(&n, 1000000000ull);
	JD_CHECK(recv_text(fd, buf, sizeof(buf)) > 0 && !strcmp(buf, "WATCHDOG=1"), "first ping");
	jd_notify_watchdog(&n, 1040000000ull);
	JD_CHECK(recv_text(fd, buf, sizeof(buf)) < 0, "no second ping within a quarter");
	jd_notify_watchdog(&n, 1050000000ull);
	JD_CHECK(recv_text(fd, buf, sizeof(buf)) > 0, "a ping after a quarter of the interval");
	jd_notify_deinit(&n);

	setenv("WATCHDOG_PID", "1", 1); /* another process's watchdog */
	JD_CHECK(jd_notify_init(&n) == 0 && n.watchdog_ns == 0, "WATCHDOG_PID of another process");
	jd_notify_deinit(&n);
	setenv("NOTIFY_SOCKET", "relative/path", 1);
	JD_CHECK(jd_notify_init(&n) == -EINVAL, "a relative NOTIFY_SOCKET is refused");
	close(fd);
	unlink(sock);
	rmdir(path);
	return jd_test_done("unit.sd_notify");
}
