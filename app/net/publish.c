#include "publish.h"

#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int jd_publish_init(struct jd_publisher *p, FILE *out, const char *udp)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
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

int jd_publish(struct jd_publisher *p, const char *line, size_t len)
{
	int ok = 0, tried = 0;

	if (p->out) {
		tried++;
		ok += fwrite(line, 1, len, p->out) == len;
	}
	if (p->udp >= 0) {
		tried++;
		/* the datagram without the newline: one JSON object each */
		ssize_t n = sendto(p->udp, line, len && line[len - 1] == '\n' ? len - 1 : len,
				   MSG_DONTWAIT | MSG_NOSIGNAL, (struct sockaddr *)&p->addr,
				   p->addrlen);
		if (n < 0) {
			p->send_errors++;
			snprintf(p->err, sizeof(p->err), "udp: %s", strerror(errno));
		} else {
			ok++;
		}
	}
	p->sent += ok > 0;
	return tried && !ok ? -EIO : 0;
}

void jd_publish_deinit(struct jd_publisher *p)
{
	if (p && p->udp >= 0) {
		close(p->udp);
		p->udp = -1;
	}
}
