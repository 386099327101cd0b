#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Follow symbolic links to the file they name (which may not exist yet). @retval 0 or -errno */
static int follow(const char *path, char *out, size_t outlen)
{
	char link[JD_OUT_PATH_MAX];
	struct stat st;

	if ((size_t)snprintf(out, outlen, "%s", path) >= outlen) {
		return -ENAMETOOLONG;
	}
	for (int hops = 0; lstat(out, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
		ssize_t n = readlink(out, link, sizeof(link) - 1);
		if (hops == 40) {
			return -ELOOP;
		}
		if (n < 0) {
			return -errno;
		}
		link[n] = '\0';
		if (link[0] == '/') {
			if ((size_t)n >= outlen) {
				return -ENAMETOOLONG;
			}
			memcpy(out, link, (size_t)n + 1);
			continue;
		}
		/* relative to the link's own folder */
		char *slash = strrchr(out, '/');
		size_t dir = slash ? (size_t)(slash - out) + 1 : 0;
		if (dir + (size_t)n >= outlen) {
			return -ENAMETOOLONG;
		}
		memmove(out + dir, link, (size_t)n + 1);
	}
	return 0;
}

static const char *refusal(mode_t m)
{
	return S_ISDIR(m)    ? "is a directory"
	       : S_ISBLK(m)  ? "is a block device: refused (it would be overwritten)"
	       : S_ISSOCK(m) ? "is a socket: refused"
			     : NULL;
}

int jd_out_open(struct jd_out *o, const char *path, char *err, size_t errlen)
{
	struct stat st;
	int rc = follow(path, o->path, sizeof(o->path));

	o->fd = -1;
	o->direct = 0;
	o->finished = 0;
	o->tmp[0] = '\0';
	if (rc) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(-rc));
		return rc;
	}
	int exists = stat(o->path, &st) == 0;
	if (exists && refusal(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, refusal(st.st_mode));
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	if (exists && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
		/* non-blocking open: a FIFO nobody reads is an error, not a hang */
		o->fd = open(o->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
		if (o->fd < 0) {
			int e = errno;
			snprintf(err, errlen, "%s: cannot write: %s", path,
				 e == ENXIO && S_ISFIFO(st.st_mode) ? "a FIFO that nobody reads"
								    : strerror(e));
			return e == ENXIO ? -EINVAL : -e;
		}
		(void)fcntl(o->fd, F_SETFL, 0);
		o->direct = 1;
		return 0;
	}
	if (exists && access(o->path, W_OK) != 0) {
		int e = errno;
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(e));
		return -e;
	}
	static unsigned serial; /* distinct names for outputs opened at the same time */
	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.%ld.%u", o->path, (long)getpid(),
			     serial++) >= sizeof(o->tmp)) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (o->fd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(e));
		return -e;
	}
	if (exists) {
		(void)fchmod(o->fd, st.st_mode & 07777); /* a replaced file keeps its mode */
	}
	return 0;
}

int jd_out_write(struct jd_out *o, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t k = write(o->fd, c, n);
		if (k < 0 && errno == EINTR) {
			continue;
		}
		if (k <= 0) {
			return k < 0 ? -errno : -EIO;
		}
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

int jd_out_finish(struct jd_out *o, int ok, char *err, size_t errlen)
{
	int e = ok ? 0 : (errno ? errno : EIO);

	if (o->fd < 0) {
		return 0;
	}
	if (ok && !o->direct && fsync(o->fd) != 0) {
		ok = 0;
		e = errno;
	}
	if (close(o->fd) != 0 && ok) {
		ok = 0;
		e = errno;
	}
	o->fd = -1;
	o->finished = ok && !o->direct;
	if (!ok) {
		if (!o->direct) {
			unlink(o->tmp);
		}
		e = e ? e : EIO;
		snprintf(err, errlen, "%s: write failed: %s", o->path, strerror(e));
		return -e;
	}
	return 0;
}

int jd_out_commit(struct jd_out *o, char *err, size_t errlen)
{
	if (!o->finished) {
		return 0;
	}
	o->finished = 0;
	if (rename(o->tmp, o->path) != 0) {
		int e = errno;
		unlink(o->tmp);
		snprintf(err, errlen, "%s: write failed: %s", o->path, strerror(e));
		return -e;
	}
	return 0;
}

void jd_out_abandon(struct jd_out *o)
{
	if (o->fd >= 0) {
		close(o->fd);
		o->fd = -1;
		o->finished = !o->direct;
	}
	if (o->finished) {
		unlink(o->tmp);
		o->finished = 0;
	}
}

int jd_out_close(struct jd_out *o, int ok, char *err, size_t errlen)
{
	int rc = jd_out_finish(o, ok, err, errlen);
	return rc ? rc : jd_out_commit(o, err, errlen);
}

/* A name for the file path would write: its real folder and its own name. */
static int canonical(const char *path, char *out, size_t outlen)
{
	char target[JD_OUT_PATH_MAX], dir[PATH_MAX];

	if (follow(path, target, sizeof(target))) {
		return -1;
	}
	char *slash = strrchr(target, '/');
	const char *base = slash ? slash + 1 : target;
	if (slash == target) {
		snprintf(dir, sizeof(dir), "/");
	} else if (slash) {
		*slash = '\0';
		if (!realpath(target, dir)) {
			return -1;
		}
	} else if (!realpath(".", dir)) {
		return -1;
	}
	return (size_t)snprintf(out, outlen, "%s/%s", dir, base) >= outlen ? -1 : 0;
}

int jd_out_same(const char *a, const char *b)
{
	struct stat sa, sb;
	char ca[PATH_MAX + 256], cb[PATH_MAX + 256];

	if (stat(a, &sa) == 0 && stat(b, &sb) == 0) {
		/* a character device (/dev/null) keeps nothing that a second write could lose */
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && !S_ISCHR(sa.st_mode);
	}
	if (canonical(a, ca, sizeof(ca)) || canonical(b, cb, sizeof(cb))) {
		return strcmp(a, b) == 0;
	}
	return strcmp(ca, cb) == 0;
}
