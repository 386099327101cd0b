/*
 * Opening an input file (image, calibration, board, config, tuning): only a regular file is
 * read. A FIFO would block the open or the read for ever, a directory reads as garbage sizes
 * and /dev/zero never ends, so each is refused up front with what it is.
 */
#ifndef JD_HAL_IN_FILE_H
#define JD_HAL_IN_FILE_H

#include <stddef.h>
#include <stdio.h>

/**
 * Open path for reading. @return a descriptor, or -errno with err saying "PATH: reason"
 * @retval -ENOENT (and the open's other errors) cannot open
 * @retval -EISDIR a directory
 * @retval -EINVAL not a regular file (FIFO, device, socket)
 */
int jd_in_open(const char *path, char *err, size_t errlen);

/** The same as a stdio stream ("rb"); NULL with err set. */
FILE *jd_in_fopen(const char *path, char *err, size_t errlen);

#endif
