/*
 * The preview's front door reads a request's head and answers only a plain GET or HEAD of
 * /status itself: a head is found through its blank line (CRLF or bare LF), not before it;
 * a query is ignored; a bad header line, a body, another method, path or version go to the
 * server, which answers them as it always has.
 */
#include <string.h>

#include "front_door.h"
#include "jd_test.h"

static enum jd_door_ask ask(const char *head)
{
	size_t n = jd_door_head_length(head, strlen(head));
	JD_CHECK(n == strlen(head), "the head of \"%s\" is %zu bytes, not %zu", head, n,
		 strlen(head));
	return jd_door_classify(head, n);
}

int main(void)
{
	JD_CHECK(jd_door_head_length("GET / HTTP/1.1\r\nHost: x\r\n", 25) == 0,
		 "a head without its blank line is not complete");
	JD_CHECK(jd_door_head_length("GET / HTTP/1.1\r\n\r\nbody", 22) == 18,
		 "the head ends at its blank line, before a body");
	JD_CHECK(jd_door_head_length("GET / HTTP/1.0\n\n", 16) == 16, "bare LF line ends");
	JD_CHECK(jd_door_head_length("GET / HTTP/1.0\r\n\r", 17) == 0, "half a blank line");

	JD_CHECK(ask("GET /status HTTP/1.1\r\nHost: x\r\n\r\n") == JD_DOOR_STATUS_GET, "GET");
	JD_CHECK(ask("GET /status HTTP/1.0\r\n\r\n") == JD_DOOR_STATUS_GET, "GET, HTTP/1.0");
	JD_CHECK(ask("HEAD /status HTTP/1.1\r\n\r\n") == JD_DOOR_STATUS_HEAD, "HEAD");
	JD_CHECK(ask("GET /status?t=17 HTTP/1.1\n\n") == JD_DOOR_STATUS_GET, "a query");

	static const char *const server[] = {
	    "GET /status HTTP/1.0\r\nA header without a colon\r\n\r\n",
	    "GET /status HTTP/1.0\r\nHost: x\r\n folded: y\r\n\r\n",
	    "GET /status HTTP/9.9\r\n\r\n",
	    "GET /status  HTTP/1.1\r\n\r\n",
	    "GET /statusx HTTP/1.1\r\n\r\n",
	    "GET /stat HTTP/1.1\r\n\r\n",
	    "GET / HTTP/1.1\r\n\r\n",
	    "GET /stream.mjpg HTTP/1.1\r\n\r\n",
	    "POST /status HTTP/1.0\r\nContent-Length: 0\r\n\r\n",
	    "GET /status HTTP/1.1\r\ncontent-length: 5\r\n\r\n",
	    "GET /status HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
	    "get /status HTTP/1.1\r\n\r\n",
	    "\r\n\r\n",
	};
	for (size_t i = 0; i < sizeof(server) / sizeof(server[0]); i++) {
		JD_CHECK(jd_door_classify(server[i], strlen(server[i])) == JD_DOOR_TO_SERVER,
			 "\"%s\" goes to the server", server[i]);
	}
	return 0;
}
