#define _GNU_SOURCE /* accept4, pipe2, POLLRDHUP */
#include "front_door.h"

#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../../hal/clock.h"

/* The most a /status answer waits on a client that does not read it. */
#define SEND_WAIT_MS 200

size_t jd_door_head_length(const char *buf, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		if (buf[i] != '\n') {
			continue;
		}
		if (buf[i + 1] == '\n') {
			return i + 2;
		}
		if (buf[i + 1] == '\r' && i + 2 < n && buf[i + 2] == '\n') {
			return i + 3;
		}
	}
	return 0;
}

/* The line at *at (through its '\n'), its length without the line end; *at moves past it. */
static size_t next_line(const char *head, size_t n, size_t *at, const char **line)
{
	size_t s = *at, e = s;
	while (e < n && head[e] != '\n') {
		e++;
	}
	*line = head + s;
	*at = e < n ? e + 1 : n;
	size_t len = e - s;
	return len && head[s + len - 1] == '\r' ? len - 1 : len;
}

/*
 * Only a plain, well-formed GET or HEAD of /status is answered here; anything the server
 * would refuse or must look at more closely (a body, a bad header line, another version)
 * goes to it, which answers as it always has.
 */
enum jd_door_ask jd_door_classify(const char *head, size_t n)
{
	const char *line;
	size_t at = 0, len = next_line(head, n, &at, &line);
	enum jd_door_ask ask;
	size_t m;

	if (len > 4 && !memcmp(line, "GET ", 4)) {
		ask = JD_DOOR_STATUS_GET, m = 4;
	} else if (len > 5 && !memcmp(line, "HEAD ", 5)) {
		ask = JD_DOOR_STATUS_HEAD, m = 5;
	} else {
		return JD_DOOR_TO_SERVER;
	}
	static const char path[] = "/status";
	if (len - m < sizeof(path) - 1 || memcmp(line + m, path, sizeof(path) - 1)) {
		return JD_DOOR_TO_SERVER;
	}
	m += sizeof(path) - 1;
	if (m < len && line[m] == '?') { /* a query (a browser's cache-buster) is ignored */
		while (m < len && line[m] != ' ') {
			m++;
		}
	}
	if (len - m != 9 ||
	    (memcmp(line + m, " HTTP/1.1", 9) && memcmp(line + m, " HTTP/1.0", 9))) {
		return JD_DOOR_TO_SERVER;
	}
	while (at < n) {
		len = next_line(head, n, &at, &line);
		if (!len) {
			break; /* the blank line */
		}
		const char *colon = memchr(line, ':', len);
		if (!colon || colon == line || line[0] == ' ' || line[0] == '\t') {
			return JD_DOOR_TO_SERVER;
		}
		size_t name = (size_t)(colon - line);
		if ((name == 14 && !strncasecmp(line, "Content-Length", 14)) ||
		    (name == 17 && !strncasecmp(line, "Transfer-Encoding", 17))) {
			return JD_DOOR_TO_SERVER;
		}
	}
	return ask;
}

/* Writes all of buf, waiting at most SEND_WAIT_MS for a client that reads slowly. */
static void send_all(int fd, const char *buf, size_t n)
{
	uint64_t until = jd_clock_ns() + SEND_WAIT_MS * 1000000ull;
	while (n) {
		ssize_t k = send(fd, buf, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (k > 0) {
			buf += k, n -= (size_t)k;
			continue;
		}
		if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			return;
		}
		uint64_t now = jd_clock_ns();
		if (now >= until) {
			return;
		}
		struct pollfd p = {.fd = fd, .events = POLLOUT};
		poll(&p, 1, (int)((until - now) / 1000000u) + 1);
	}
}

/* Answers and closes: the head read so far is taken off the socket first (an unread byte at
 * close would reset the connection and lose the answer). */
static void answer(struct jd_door *d, int fd, size_t consume, int code, const char *why,
		   const char *type, const char *body, size_t body_len, int with_body)
{
	while (consume) {
		ssize_t k = recv(fd, d->head, consume, MSG_DONTWAIT);
		if (k <= 0) {
			break;
		}
		consume -= (size_t)k;
	}
	char top[256];
	int n = snprintf(top, sizeof(top),
			 "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nCache-Control: no-store\r\n"
			 "Content-Length: %zu\r\nConnection: close\r\n\r\n",
			 code, why, type, body_len);
	send_all(fd, top, (size_t)n);
	if (with_body) {
		send_all(fd, body, body_len);
	}
	shutdown(fd, SHUT_WR);
	close(fd);
}

static void answer_text(struct jd_door *d, int fd, size_t consume, int code, const char *why,
			const char *text)
{
	answer(d, fd, consume, code, why, "text/plain", text, strlen(text), 1);
}

static void forget(struct jd_door *d, int i)
{
	d->wait[i].fd = -1;
}

static void to_server(struct jd_door *d, int i, size_t hl);

/*
 * Waiting connection i has sent something (or left): answer it, pass it on, or wait more.
 * finished: the client will send nothing more (a head cut short goes to the server, which
 * answers it as it always has).
 */
static void look(struct jd_door *d, int i, int finished)
{
	int fd = d->wait[i].fd;
	ssize_t n = recv(fd, d->head, sizeof(d->head), MSG_PEEK | MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
		return;
	}
	if (n <= 0) { /* the client left before asking */
		close(fd);
		forget(d, i);
		return;
	}
	size_t hl = jd_door_head_length(d->head, (size_t)n);
	if (!hl && finished) {
		to_server(d, i, (size_t)n);
		return;
	}
	if (!hl) {
		if ((size_t)n == sizeof(d->head)) {
			answer_text(d, fd, 0, 431, "Request Header Fields Too Large",
				    "the request's head is too long\n");
			forget(d, i);
			return;
		}
		/* wake again only when more than this has come: a peek leaves it readable */
		int low = (int)n + 1;
		setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &low, sizeof(low));
		return;
	}
	enum jd_door_ask ask = jd_door_classify(d->head, hl);
	if (ask != JD_DOOR_TO_SERVER) {
		forget(d, i);
		size_t body = d->status(d->ctx, d->reply, sizeof(d->reply));
		answer(d, fd, hl, 200, "OK", "application/json", d->reply, body,
		       ask == JD_DOOR_STATUS_GET);
		return;
	}
	to_server(d, i, hl);
}

/* Hands waiting connection i to the server with its bytes unread, or answers 503 (full). */
static void to_server(struct jd_door *d, int i, size_t hl)
{
	int fd = d->wait[i].fd;

	forget(d, i);
	const union MHD_DaemonInfo *info =
	    MHD_get_daemon_info(d->mhd, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
	if (info && info->num_connections >= d->limit) {
		answer_text(d, fd, hl, 503, "Service Unavailable",
			    "the preview's connections are all taken; /status still answers\n");
		return;
	}
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &one, sizeof(one));
	/* the server owns it from here, and closes it itself if it cannot take it */
	MHD_add_connection(d->mhd, fd, (const struct sockaddr *)&d->wait[i].addr,
			   d->wait[i].addr_len);
}

/* A new connection into a free place, or the longest-waiting one's (answered 503). */
static void take(struct jd_door *d, uint64_t now)
{
	for (int round = 0; round < JD_DOOR_WAITING; round++) {
		struct sockaddr_storage addr;
		socklen_t len = sizeof(addr);
		int fd = accept4(d->listen_fd, (struct sockaddr *)&addr, &len,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			return;
		}
		int slot = 0;
		for (int i = 0; i < JD_DOOR_WAITING; i++) {
			if (d->wait[i].fd < 0) {
				slot = i;
				break;
			}
			if (d->wait[i].since_ns < d->wait[slot].since_ns) {
				slot = i;
			}
		}
		if (d->wait[slot].fd >= 0) {
			answer_text(d, d->wait[slot].fd, 0, 503, "Service Unavailable",
				    "too many connections are waiting to ask\n");
		}
		d->wait[slot] = (struct jd_door_waiting){
		    .fd = fd, .since_ns = now, .addr = addr, .addr_len = len};
	}
}

static void *door_thread(void *arg)
{
	struct jd_door *d = arg;
	struct pollfd pf[2 + JD_DOOR_WAITING];
	int at[2 + JD_DOOR_WAITING];

	for (;;) {
		uint64_t now = jd_clock_ns(), head_ns = JD_DOOR_HEAD_MS * 1000000ull;
		int n = 0, timeout = -1;
		pf[n++] = (struct pollfd){.fd = d->wake[0], .events = POLLIN};
		pf[n++] = (struct pollfd){.fd = d->listen_fd, .events = POLLIN};
		for (int i = 0; i < JD_DOOR_WAITING; i++) {
			if (d->wait[i].fd < 0) {
				continue;
			}
			uint64_t age = now - d->wait[i].since_ns;
			int left = age >= head_ns ? 0 : (int)((head_ns - age) / 1000000u) + 1;
			timeout = timeout < 0 || left < timeout ? left : timeout;
			at[n] = i;
			pf[n++] =
			    (struct pollfd){.fd = d->wait[i].fd, .events = POLLIN | POLLRDHUP};
		}
		if (poll(pf, (nfds_t)n, timeout) < 0 && errno != EINTR) {
			break;
		}
		if (pf[0].revents) {
			break;
		}
		for (int k = 2; k < n; k++) {
			if (pf[k].revents) {
				look(d, at[k], !!(pf[k].revents & (POLLRDHUP | POLLHUP | POLLERR)));
			}
		}
		now = jd_clock_ns();
		for (int i = 0; i < JD_DOOR_WAITING; i++) {
			if (d->wait[i].fd >= 0 && now - d->wait[i].since_ns >= head_ns) {
				answer_text(d, d->wait[i].fd, 0, 408, "Request Timeout",
					    "the request's head did not come in time\n");
				forget(d, i);
			}
		}
		if (pf[1].revents) {
			take(d, now);
		}
	}
	return NULL;
}

int jd_door_start(struct jd_door *d, int listen_fd, void *mhd, unsigned limit,
		  jd_door_status_fn status, void *ctx)
{
	d->listen_fd = listen_fd;
	d->mhd = mhd;
	d->limit = limit;
	d->status = status;
	d->ctx = ctx;
	for (int i = 0; i < JD_DOOR_WAITING; i++) {
		d->wait[i].fd = -1;
	}
	fcntl(listen_fd, F_SETFL, fcntl(listen_fd, F_GETFL) | O_NONBLOCK);
	if (pipe2(d->wake, O_CLOEXEC)) {
		return -errno;
	}
	int e = pthread_create(&d->thread, NULL, door_thread, d);
	if (e) {
		close(d->wake[0]);
		close(d->wake[1]);
		return -e;
	}
	d->running = 1;
	return 0;
}

void jd_door_stop(struct jd_door *d)
{
	if (!d->running) {
		return;
	}
	char b = 0;
	if (write(d->wake[1], &b, 1) != 1) {
		/* a pipe of our own with nothing in it takes one byte */
	}
	pthread_join(d->thread, NULL);
	d->running = 0;
	for (int i = 0; i < JD_DOOR_WAITING; i++) {
		if (d->wait[i].fd >= 0) {
			close(d->wait[i].fd);
			forget(d, i);
		}
	}
	close(d->wake[0]);
	close(d->wake[1]);
	close(d->listen_fd);
}
