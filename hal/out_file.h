/*
 * Writing an output file (disparity maps, pictures, objects, dumps, the tuning file) so that
 * nothing the user did not mean is destroyed:
 * - a regular file (or a new name) is written whole or not at all: into a temporary file
 *   beside it, renamed over it only when complete;
 * - a symbolic link is followed: the temporary goes beside the file it points to and the
 *   rename happens there, so the link stays a link;
 * - a FIFO or a character device (/dev/null, /dev/stdout, a pipe) is written in place: it has
 *   no "whole" to keep, and replacing it with a file would break the system;
 * - a directory, a block device or a socket is refused.
 * A new file gets mode 0666 & ~umask; a replaced file keeps its mode. No allocation: the
 * frame loop's dumps use it.
 */
#ifndef JD_HAL_OUT_FILE_H
#define JD_HAL_OUT_FILE_H

#include <stddef.h>

#define JD_OUT_PATH_MAX 1024

struct jd_out {
	char path[JD_OUT_PATH_MAX]; /* the file written: a link's target */
	char tmp[JD_OUT_PATH_MAX + 32];
	int fd;
	int direct;   /* a FIFO or a character device: written in place, no rename */
	int finished; /* the temporary is complete and waits for jd_out_commit() */
};

/**
 * Start writing path. @retval 0 ready for jd_out_write()
 * @retval -ENAMETOOLONG, -EISDIR, -EINVAL (a block device, a socket, a FIFO without reader),
 * or the open's errno: err says "PATH: reason"
 */
int jd_out_open(struct jd_out *o, const char *path, char *err, size_t errlen);

/** Write all of n bytes (EINTR and short writes retried). @retval 0 or -errno */
int jd_out_write(struct jd_out *o, const void *p, size_t n);

/**
 * Finish: with ok, flush to disk and rename into place; else (or when that fails) remove the
 * temporary and leave the old file as it was. @retval 0 or -errno with err set
 */
int jd_out_close(struct jd_out *o, int ok, char *err, size_t errlen);

/**
 * A set of files that lands together (a dump): finish each (flushed and closed, the
 * temporary kept), then commit them all (the renames), or abandon them all (the temporaries
 * removed) when one could not be finished. @retval 0 or -errno with err set
 */
int jd_out_finish(struct jd_out *o, int ok, char *err, size_t errlen);
int jd_out_commit(struct jd_out *o, char *err, size_t errlen);
/** Drop what o holds: an open or finished temporary is removed; the old file stays. */
void jd_out_abandon(struct jd_out *o);

/**
 * 1 when a and b name the same file (through links, "." and "..", or hard links); a
 * character device is never "the same" (both writes reach it).
 */
int jd_out_same(const char *a, const char *b);

#endif
