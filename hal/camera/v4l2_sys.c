#include "v4l2_sys.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static int sys_open(const char *path, int flags)
{
	return open(path, flags);
}

static int sys_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg);
}

const struct jd_v4l2_sys jd_v4l2_sys_libc = {
    .open = sys_open,
    .close = close,
    .ioctl = sys_ioctl,
    .poll = poll,
    .mmap = mmap,
    .munmap = munmap,
};

int jd_v4l2_xioctl(const struct jd_v4l2_sys *sys, int fd, unsigned long req, void *arg)
{
	int r;

	do {
		r = sys->ioctl(fd, req, arg);
	} while (r == -1 && errno == EINTR);
	return r;
}
