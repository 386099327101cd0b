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
 * - A stream that can stall (a pipe, a terminal, a socket: a reader that stops reading) is
 *   never waited for: it is written without blocking (a descriptor of its own, opened
 *   O_NONBLOCK, so the shared stdout keeps its mode). What the reader has not taken of a line
 *   waits in a tail that the next frames finish first; while a tail waits, new lines are
 *   dropped and counted (out_dropped). So a reader sees whole lines, some frames missing,
 *   and the frame loop never stops for it.
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
	unsigned long sent;		     /* frames that reached every destination */
	unsigned long out_sent, out_errors;  /* the stream's whole lines, and lines not written */
	unsigned long udp_sent, send_errors; /* datagrams out, and sends that failed */
	int out_gone;			     /* the stream's reader left, or it cannot be written */
	int out_regular;    /* the stream is a regular file: a cut line can be cut back (boot) */
	int out_nb;	    /* a stream that can stall: written without blocking through this fd */
	int out_socket;	    /* ... which is a socket (send(MSG_DONTWAIT)) */
	size_t out_pipe_sz; /* ... which is a pipe of this capacity (0: not a pipe) */
	unsigned long out_dropped; /* lines dropped while the reader had not taken the last */
	size_t tail_at, tail_len;  /* the part of a line the reader has not taken yet */
	char tail[65536];
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
 * @retval -EAGAIN the stream's reader has not taken the last line yet: this one was dropped
 *         (counted in out_dropped; UDP still sent)
 * @retval -EPIPE the stream is gone for good (out_gone; p->err)
 */
int jd_publish(struct jd_publisher *p, const char *line, size_t len);

/**
 * The end: a line's tail still waiting is given at most wait_ms to go. @retval 0, or -EAGAIN
 * when the reader left a line unfinished (p->err says so)
 */
int jd_publish_drain(struct jd_publisher *p, int wait_ms);

void jd_publish_deinit(struct jd_publisher *p);

#endif
