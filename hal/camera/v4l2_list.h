/*
 * What `jetdepth cameras` prints about a V4L2 device, like `v4l2-ctl --all
 * --list-formats-ext` in brief: driver, card, bus, capabilities, then each capture format
 * with its frame sizes and frame intervals.
 */
#ifndef JD_HAL_V4L2_LIST_H
#define JD_HAL_V4L2_LIST_H

#include <stdio.h>

#include "v4l2_sys.h"

/**
 * Describe one device node. @retval 1 a capture device was described, 0 it is not one (a
 * metadata or output node: one line says so), or -errno (cannot open: one line says why)
 */
int jd_v4l2_describe(const struct jd_v4l2_sys *sys, const char *path, FILE *out);

#endif
