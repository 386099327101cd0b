#include "in_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind(mode_t m)
{
	return S_ISFIFO(m)   ? "a FIFO"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISSOCK(m) ? "a socket"
			     : "not a file";
}

int jd_in_open(const char *path, char *err, size_t errlen)
{
	/* O_NONBLOCK: opening a FIFO with no writer must not wait; cleared again below */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(e));
		return -e;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s: is a directory, not a file", path);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s: is %s, not a regular file", path, kind(st.st_mode));
		return -EINVAL;
	}
	(void)fcntl(fd, F_SETFL, 0);
	return fd;
}

FILE *jd_in_fopen(const char *path, char *err, size_t errlen)
{
	int fd = jd_in_open(path, err, errlen);
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "rb");
	if (!f) {
		int e = errno;
		close(fd);
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(e));
		errno = e;
	}
	return f;
}
