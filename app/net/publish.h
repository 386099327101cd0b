/*
 * Where the per-frame JSON goes: stdout (JSON Lines) and/or one UDP datagram a frame to a
 * destination resolved at boot. Every write is checked, and a frame counts as sent to a
 * destination only once all of it is out.
 *
 * - UDP: a send that fails (no route, nobody listening) is counted, never fatal: the robot may
 *   come and go, the frame loop goes on.
 * - The stream (stdout): written with write(2), not stdio, so that an error is seen on the
 *   frame that met it, not at a flush frames later. A line is whole or absent: a line cut
 *   by a full disk is cut back off a regular file. A full disk (ENOSPC, EDQUOT, EFBIG) is
 *   counted and the loop runs on (the disk may be freed); a reader that left (EPIPE) or a
 *   descriptor that cannot be written (EBADF, EIO) ends the stream for good: out_gone, and
 *   the daemon stops, as a filter in a pipeline does.
 */
#ifndef JD_APP_PUBLISH_H
#define JD_APP_PUBLISH_H

#include <stddef.h>
#include <sys/socket.h>

struct jd_publisher {
	int out; /* JSON lines to this descriptor (-1: none) */
	int udp; /* -1: none */
	struct sockaddr_storage addr;
	socklen_t addrlen;
	unsigned long sent;	       /* frames that reached every destination */
	unsigned long out_sent, out_errors; /* the stream's whole lines, and lines not written */
	unsigned long udp_sent, send_errors; /* datagrams out, and sends that failed */
	int out_gone;			     /* the stream's reader left, or it cannot be written */
	int out_regular; /* the stream is a regular file: a cut line can be cut back (boot) */
	char err[256];
};

/**
 * out: the stream's descriptor (-1: none); udp: "HOST:PORT" or NULL. Resolves and opens the
 * socket (boot). @retval 0 or -errno
 */
int jd_publish_init(struct jd_publisher *p, int out, const char *udp);

/**
 * Publish one JSON line (len bytes, ending in a newline).
 * @retval 0 every destination has it
 * @retval -EIO a destination failed (counted; p->err says which and why)
 * @retval -EPIPE the stream is gone for good (out_gone; p->err)
 */
int jd_publish(struct jd_publisher *p, const char *line, size_t len);

void jd_publish_deinit(struct jd_publisher *p);

#endif
