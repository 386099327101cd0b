#include "publish.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int jd_publish_init(struct jd_publisher *p, int out, const char *udp)
{
	struct stat sb;

	memset(p, 0, sizeof(*p));
	p->out = out;
	p->out_regular = out >= 0 && fstat(out, &sb) == 0 && S_ISREG(sb.st_mode);
	p->udp = -1;
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
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_DGRAM,
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

int jd_publish(struct jd_publisher *p, const char *line, size_t len)
{
	int rc = 0;

	if (p->out >= 0 && !p->out_gone) {
		rc = write_line(p, line, len);
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
}
