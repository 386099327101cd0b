/*
 * The preview's request handling (app/net/preview.c behind libmicrohttpd), over a real socket:
 * one server for the process, each input sent as the bytes of one connection, the reply
 * read for at most 20 ms, the connection closed (streams included). Every 256 inputs a
 * well-formed GET /status must still be answered with 200 within 12 s (half-open connections
 * hold the connection limit until the server's 10 s idle timeout): no input may take the server
 * down.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include "fuzz.h"
#include "preview.h"

enum { W = 32, H = 24 };

static struct jd_preview prev;
static int port;

static void start(void)
{
	static uint8_t img[W * H];
	static float disp[W * H];
	struct jd_image left = {img, W, H, W};
	struct jd_disp d = {disp, W, H, W};
	size_t n = jd_preview_mem_required(W, H);
	void *mem = malloc(n);
	struct jd_preview_config c = {"127.0.0.1", 0, 64};

	for (int i = 0; i < 200 && !port; i++) {
		c.port = 20000 + (int)((getpid() * 7 + i * 131) % 30000);
		port = jd_preview_start(&prev, &c, W, H, mem, n) == 0 ? c.port : 0;
	}
	if (!port) {
		abort();
	}
	prev.watchers = 1; /* so that publish encodes a frame for /stream.mjpg */
	struct jd_preview_frame pf = {&left, &d, 16.0f, NULL, NULL, NULL, 0, NULL};
	/* 0.2 s after boot: a picture is due (at most one each 0.1 s), so one is encoded */
	jd_preview_publish(&prev, &pf, "{\"state\":\"fuzz\"}", 200000000ull);
	if (prev.seq != 1) {
		abort(); /* the stream would have nothing to serve */
	}
	prev.watchers = 0;
}

/* One connection: send, half-close, read what comes within 20 ms. @return bytes read */
static long exchange(const uint8_t *data, size_t size, char *reply, size_t cap)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	long got = 0;

	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		if (fd >= 0) {
			close(fd);
		}
		return -1;
	}
	for (size_t off = 0; off < size;) {
		ssize_t k = send(fd, data + off, size - off, MSG_NOSIGNAL);
		if (k <= 0) {
			break;
		}
		off += (size_t)k;
	}
	shutdown(fd, SHUT_WR);
	struct pollfd p = {fd, POLLIN, 0};
	while (poll(&p, 1, 20) == 1 && (size_t)got < cap) {
		ssize_t k = recv(fd, reply + got, cap - (size_t)got, 0);
		if (k <= 0) {
			break;
		}
		got += k;
	}
	close(fd);
	return got;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char reply[1 << 16];
	static unsigned long count;

	if (!port) {
		start();
	}
	exchange(data, size, reply, sizeof(reply));
	if (++count % 256 == 0) {
		static const char req[] =
		    "GET /status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
		long n = exchange((const uint8_t *)req, sizeof(req) - 1, reply, sizeof(reply) - 1);
		int tries = 0;
		for (; tries < 1200 && n <= 0; tries++) {
			/* connections the fuzzer left half-open are dropped by the server's
			 * 10 s idle timeout (measured: up to 8.5 s); until then they count
			 * against the connection limit */
			usleep(10000);
			n = exchange((const uint8_t *)req, sizeof(req) - 1, reply,
				     sizeof(reply) - 1);
		}
		if (n < 12 || memcmp(reply, "HTTP/1.1 200", 12) != 0) {
			fprintf(stderr, "preview health: %ld bytes: %.60s\n", n,
				n > 0 ? reply : "");
			abort(); /* the server no longer answers */
		}
	}
	return 0;
}
