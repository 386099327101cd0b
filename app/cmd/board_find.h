/*
 * Where `--board` finds its file: a path as given, a name (orin-nano) in the installed board
 * folder, or `auto`: the installed board whose compatible string the device tree lists.
 */
#ifndef JD_APP_BOARD_FIND_H
#define JD_APP_BOARD_FIND_H

#include <stddef.h>

/** The board folder: $JETDEPTH_BOARD_DIR, else the one this binary was installed with. */
const char *jd_board_dir(void);

/**
 * Resolve @p arg into a readable board file path in @p out.
 * @param dt_path device-tree compatible file, for `auto`
 * @retval 0 success
 * @retval -ENOENT with @p err naming what was looked for
 */
int jd_board_find(const char *arg, const char *dt_path, char *out, size_t outlen, char *err,
		  size_t errlen);

#endif
