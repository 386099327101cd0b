/*
 * The system calls the V4L2 driver makes, behind a table, so that unit tests can put a fake
 * device (tests/harness/fake_v4l2.c) where the kernel would be. jd_v4l2_sys_libc is the real one.
 */
#ifndef JD_HAL_V4L2_SYS_H
#define JD_HAL_V4L2_SYS_H

#include <poll.h>
#include <stddef.h>
#include <sys/types.h>

struct jd_v4l2_sys {
	int (*open)(const char *path, int flags);
	int (*close)(int fd);
	int (*ioctl)(int fd, unsigned long req, void *arg);
	int (*poll)(struct pollfd *fds, nfds_t n, int timeout_ms);
	void *(*mmap)(void *addr, size_t len, int prot, int flags, int fd, off_t off);
	int (*munmap)(void *addr, size_t len);
};

extern const struct jd_v4l2_sys jd_v4l2_sys_libc;

/** ioctl, retried while it fails with EINTR (the kernel's capture.c xioctl). */
int jd_v4l2_xioctl(const struct jd_v4l2_sys *sys, int fd, unsigned long req, void *arg);

#endif
