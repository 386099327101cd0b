/*
 * The preview's front door: one thread accepts every connection and holds it until its
 * request's head has come whole, before the HTTP server sees it.
 *
 * - `GET /status` (and HEAD) is answered here, from this thread: however many clients are slow,
 *   stalled or streaming, the robot's health check gets its answer at once.
 * - A head that has not come whole in JD_DOOR_HEAD_MS (a client sending a header line every few
 *   seconds) is answered 408 and closed; one longer than JD_DOOR_HEAD_MAX, 431.
 * - A request the server has no room for is answered 503 here, not dropped without a word.
 * - Every other request goes to the server (libmicrohttpd) with its bytes still unread.
 * At most JD_DOOR_WAITING heads are awaited at once; past that the longest-waiting is answered
 * 503, so new clients always get in.
 */
#ifndef JD_APP_FRONT_DOOR_H
#define JD_APP_FRONT_DOOR_H

#include <pthread.h>
#include <stdint.h>
#include <sys/socket.h>

#define JD_DOOR_HEAD_MS 2000
#define JD_DOOR_HEAD_MAX 8192
#define JD_DOOR_WAITING 32
/* The longest /status body the door answers with (the status text and its age). */
#define JD_DOOR_REPLY_MAX (64 * 1024 + 256)

/* Writes the /status body into out (cap bytes, NUL-terminated); returns its length. */
typedef size_t (*jd_door_status_fn)(void *ctx, char *out, size_t cap);

struct jd_door_waiting {
	int fd; /* -1: free */
	uint64_t since_ns;
	struct sockaddr_storage addr;
	socklen_t addr_len;
};

struct jd_door {
	int listen_fd;
	int wake[2]; /* a byte here stops the thread */
	pthread_t thread;
	int running;
	void *mhd;	/* struct MHD_Daemon, started without a listening socket */
	unsigned limit; /* the server's connections */
	jd_door_status_fn status;
	void *ctx;
	struct jd_door_waiting wait[JD_DOOR_WAITING];
	char head[JD_DOOR_HEAD_MAX];
	char reply[JD_DOOR_REPLY_MAX];
};

/* Starts the thread on listen_fd (owned from now on). 0, or a negative errno. */
int jd_door_start(struct jd_door *d, int listen_fd, void *mhd, unsigned limit,
		  jd_door_status_fn status, void *ctx);

/* Stops the thread and closes every connection still waiting and the listening socket. */
void jd_door_stop(struct jd_door *d);

/*
 * What a complete head asks of the door (pure: tested alone). head: n bytes up to and
 * including the blank line.
 */
enum jd_door_ask { JD_DOOR_TO_SERVER, JD_DOOR_STATUS_GET, JD_DOOR_STATUS_HEAD };
enum jd_door_ask jd_door_classify(const char *head, size_t n);

/* The length of the head (through "\r\n\r\n" or "\n\n") in buf[0..n), or 0 while incomplete. */
size_t jd_door_head_length(const char *buf, size_t n);

#endif
