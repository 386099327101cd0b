#define _GNU_SOURCE /* F_SETPIPE_SZ, F_GETPIPE_SZ */
#include "publish.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * A stream that can stall gets a descriptor that never blocks: a socket is sent to with
 * MSG_DONTWAIT; a pipe, FIFO or terminal is opened again through /proc (a description of its
 * own, O_NONBLOCK: stdout's stays blocking for the rest of the process and for the processes
 * that share it). Where that open fails, stdout's own description is made non-blocking.
 */
static void open_nonblocking(struct jd_publisher *p, int out, const struct stat *sb)
{
	char path[64];

	if (S_ISSOCK(sb->st_mode)) {
		p->out_nb = out;
		p->out_socket = 1;
		return;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", out);
	p->out_nb = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (p->out_nb < 0) {
		int fl = fcntl(out, F_GETFL);
		p->out_nb = fl >= 0 && fcntl(out, F_SETFL, fl | O_NONBLOCK) == 0 ? out : -1;
	}
#ifdef F_SETPIPE_SZ
	if (p->out_nb >= 0 && S_ISFIFO(sb->st_mode)) {
		(void)fcntl(p->out_nb, F_SETPIPE_SZ,
			    1 << 20); /* room for bursts; the cap may refuse */
		int sz = fcntl(p->out_nb, F_GETPIPE_SZ);
		p->out_pipe_sz = sz > 0 ? (size_t)sz : 0;
	}
#endif
}

int jd_publish_init(struct jd_publisher *p, int out, const char *udp)
{
	struct stat sb;

	memset(p, 0, sizeof(*p));
	p->out = out;
	p->out_regular = out >= 0 && fstat(out, &sb) == 0 && S_ISREG(sb.st_mode);
	p->out_nb = -1;
	p->udp = -1;
	if (out >= 0 && !p->out_regular) {
		open_nonblocking(p, out, &sb);
	}
	if (!udp) {
		return 0;
	}
	char host[256];
	const char *colon = strrchr(udp, ':'), *h = udp;
	size_t hlen = colon ? (size_t)(colon - udp) : 0;
	/* [ADDRESS]:PORT for IPv6, whose address has colons of its own */
	if (udp[0] == '[' && colon && colon > udp + 1 && colon[-1] == ']') {
		h = udp + 1;
		hlen -= 2;
	}
	if (!colon || hlen == 0 || !colon[1] || hlen >= sizeof(host) ||
	    (h == udp && memchr(udp, ':', hlen))) {
		snprintf(p->err, sizeof(p->err),
			 "--udp %s: expected HOST:PORT (an IPv6 address in brackets: [::1]:5000)",
			 udp);
		return -EINVAL;
	}
	char *end;
	long port = strtol(colon + 1, &end, 10);
	if (*end || colon[1] < '0' || colon[1] > '9' || port < 1 || port > 65535) {
		snprintf(p->err, sizeof(p->err), "--udp %s: port %s: must be 1 to 65535", udp,
			 colon + 1);
		return -EINVAL;
	}
	snprintf(host, sizeof(host), "%.*s", (int)hlen, h);
	struct addrinfo hints = {.ai_family = AF_UNSPEC,
				 .ai_socktype = SOCK_DGRAM,
				 .ai_flags = AI_NUMERICSERV},
			*res;
	int rc = getaddrinfo(host, colon + 1, &hints, &res);
	if (rc) {
		snprintf(p->err, sizeof(p->err), "--udp %s: %s", udp, gai_strerror(rc));
		return -EINVAL;
	}
	p->udp = socket(res->ai_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (p->udp < 0) {
		snprintf(p->err, sizeof(p->err), "--udp %s: socket: %s", udp, strerror(errno));
		freeaddrinfo(res);
		return -errno;
	}
	memcpy(&p->addr, res->ai_addr, res->ai_addrlen);
	p->addrlen = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

/* All of line to fd, or the first error (-errno) with *wrote the bytes that went. */
static int write_all(int fd, const char *line, size_t len, size_t *wrote)
{
	*wrote = 0;
	while (*wrote < len) {
		ssize_t n = write(fd, line + *wrote, len - *wrote);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return n < 0 ? -errno : -ENOSPC;
		}
		*wrote += (size_t)n;
	}
	return 0;
}

/* One line to the stream; a line cut short is cut back off a regular file. */
static int write_line(struct jd_publisher *p, const char *line, size_t len)
{
	off_t at = p->out_regular ? lseek(p->out, 0, SEEK_CUR) : (off_t)-1;
	size_t wrote;
	int rc = write_all(p->out, line, len, &wrote);

	if (!rc) {
		p->out_sent++;
		return 0;
	}
	p->out_errors++;
	const char *undo = "";
	if (wrote && at >= 0) {
		undo = ftruncate(p->out, at) == 0 && lseek(p->out, at, SEEK_SET) == at
			   ? "; the partial line was removed"
			   : "; a partial line is left (it could not be removed)";
	} else if (wrote) {
		undo = "; the reader got a partial line";
	}
	int gone = rc == -EPIPE || rc == -EBADF || rc == -EIO || rc == -EINVAL;
	snprintf(p->err, sizeof(p->err), "stdout: %s%s%s", strerror(-rc), undo,
		 gone ? "" : "; frames go on being tried");
	if (gone) {
		p->out_gone = 1;
		return -EPIPE;
	}
	return -EIO;
}

/* Without blocking: the bytes written (0: none now), or -errno */
static ssize_t write_now(struct jd_publisher *p, const char *b, size_t n)
{
	ssize_t k;

	do {
		k = p->out_socket ? send(p->out_nb, b, n, MSG_DONTWAIT | MSG_NOSIGNAL)
				  : write(p->out_nb, b, n);
	} while (k < 0 && errno == EINTR);
	if (k < 0) {
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
	}
	return k;
}

/*
 * A pipe takes a line whole or not at all when it has room for it. It keeps bytes in pages,
 * and a write that does not fit the last page's rest starts a new one, so its pages are at
 * least half full: the room asked for is twice what the reader has not read (FIONREAD) and
 * the line, and two pages. Where this cannot be asked, the tail catches what a write leaves.
 */
static int fits_pipe(const struct jd_publisher *p, size_t len)
{
	int unread;

	if (!p->out_pipe_sz || ioctl(p->out_nb, FIONREAD, &unread) != 0 || unread < 0) {
		return 1;
	}
	return 2 * ((size_t)unread + len) + 8192 <= p->out_pipe_sz;
}

/* The waiting tail first; then the line, or what the reader does not take of it now. */
static int write_line_nb(struct jd_publisher *p, const char *line, size_t len)
{
	ssize_t k = p->tail_len ? write_now(p, p->tail + p->tail_at, p->tail_len) : 0;

	if (k > 0) {
		p->tail_at += (size_t)k;
		p->tail_len -= (size_t)k;
	}
	if (k >= 0 && (p->tail_len || !fits_pipe(p, len))) {
		p->out_dropped++;
		snprintf(p->err, sizeof(p->err),
			 "stdout: the reader is not keeping up: frames are dropped until it reads");
		return -EAGAIN;
	}
	if (k >= 0) {
		k = write_now(p, line, len);
	}
	if (k < 0) {
		p->out_errors++;
		p->out_gone = k == -EPIPE || k == -EBADF || k == -EIO || k == -EINVAL;
		snprintf(p->err, sizeof(p->err), "stdout: %s%s", strerror((int)-k),
			 p->tail_len ? "; the reader got a partial line" : "");
		return p->out_gone ? -EPIPE : -EIO;
	}
	p->out_sent++; /* whole now, or whole once its tail goes */
	if ((size_t)k < len) {
		if (len - (size_t)k > sizeof(p->tail)) {
			return -EIO; /* cannot happen: lines are at most the tail's size */
		}
		memcpy(p->tail, line + k, len - (size_t)k);
		p->tail_at = 0;
		p->tail_len = len - (size_t)k;
	}
	return 0;
}

int jd_publish_drain(struct jd_publisher *p, int wait_ms)
{
	while (p->tail_len && !p->out_gone && wait_ms > 0) {
		struct pollfd pf = {p->out_nb, POLLOUT, 0};
		if (poll(&pf, 1, wait_ms < 50 ? wait_ms : 50) > 0) {
			ssize_t k = write_now(p, p->tail + p->tail_at, p->tail_len);
			if (k < 0) {
				break;
			}
			p->tail_at += (size_t)k;
			p->tail_len -= (size_t)k;
		}
		wait_ms -= 50;
	}
	if (p->tail_len) {
		snprintf(
		    p->err, sizeof(p->err),
		    "stdout: the reader stopped reading: the last line is cut short (%zu bytes "
		    "not taken)",
		    p->tail_len);
		return -EAGAIN;
	}
	return 0;
}

int jd_publish(struct jd_publisher *p, const char *line, size_t len)
{
	int rc = 0;

	if (p->out >= 0 && !p->out_gone) {
		rc = p->out_nb >= 0 ? write_line_nb(p, line, len) : write_line(p, line, len);
	}
	if (p->udp >= 0) {
		/* the datagram without the newline: one JSON object each */
		size_t dlen = len && line[len - 1] == '\n' ? len - 1 : len;
		ssize_t n = sendto(p->udp, line, dlen, MSG_DONTWAIT | MSG_NOSIGNAL,
				   (struct sockaddr *)&p->addr, p->addrlen);
		if (n != (ssize_t)dlen) {
			p->send_errors++;
			snprintf(p->err, sizeof(p->err), "udp: %s",
				 n < 0 ? strerror(errno) : "datagram cut short");
			rc = rc ? rc : -EIO;
		} else {
			p->udp_sent++;
		}
	}
	p->sent += rc == 0;
	return rc;
}

void jd_publish_deinit(struct jd_publisher *p)
{
	if (p && p->udp >= 0) {
		close(p->udp);
		p->udp = -1;
	}
	if (p && p->out_nb >= 0 && p->out_nb != p->out) {
		close(p->out_nb);
	}
	if (p) {
		p->out_nb = -1;
	}
}
