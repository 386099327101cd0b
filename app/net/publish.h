/*
 * Where the per-frame JSON goes: stdout (JSON Lines) and/or one UDP datagram a frame to a
 * destination resolved at boot. A send that fails (no route, nobody listening) is counted,
 * never fatal: the robot may come and go, the frame loop goes on.
 */
#ifndef JD_APP_PUBLISH_H
#define JD_APP_PUBLISH_H

#include <stddef.h>
#include <stdio.h>
#include <sys/socket.h>

struct jd_publisher {
	FILE *out; /* JSON lines here (NULL: none) */
	int udp;   /* -1: none */
	struct sockaddr_storage addr;
	socklen_t addrlen;
	unsigned long sent, send_errors;
	char err[256];
};

/** udp: "HOST:PORT" or NULL. Resolves and opens the socket (boot). @retval 0 or -errno */
int jd_publish_init(struct jd_publisher *p, FILE *out, const char *udp);

/** Publish one JSON line. @retval 0, or -EIO when every destination failed (counted) */
int jd_publish(struct jd_publisher *p, const char *line, size_t len);

void jd_publish_deinit(struct jd_publisher *p);

#endif
