/*
 * Boards as data: one text file per board (boards/README.md has the format). The parser
 * reports every problem as FILE:LINE: KEY: reason, and nothing else reads board files.
 */
#ifndef JD_HAL_BOARD_H
#define JD_HAL_BOARD_H

#include <stddef.h>

#include "../algo/match/jd_params.h"
#include "../algo/kernels/kernels.h"

#define JD_BOARD_STR 128
#define JD_BOARD_MAX_KEYS 64
#define JD_BOARD_INCLUDE_DEPTH 4

/* Where a key was set, for error messages that point at the line to edit. */
struct jd_board_origin {
	char file[256];
	int line;
};

struct jd_board_camera {
	char source[JD_BOARD_STR]; /* /dev/videoN, sbs:/dev/videoN, tb:/dev/videoN, synth, file:GLOB
				    */
	char format[16];	   /* a camera layout (jd_pixfmt_parse), or - for synth/file */
	int width, height, fps;
};

struct jd_board {
	char name[JD_BOARD_STR];
	char full_name[JD_BOARD_STR];
	char soc[JD_BOARD_STR];
	char compatible[JD_BOARD_STR]; /* device-tree compatible string, "-" = no check */
	char toolchain[JD_BOARD_STR];  /* build.toolchain */
	char cuda_arch[32];	       /* build.cuda_arch, e.g. sm_87, "-" = none */
	char cpu_flags[JD_BOARD_STR];  /* build.cpu_flags */
	int gpu, unified_memory, neon_fp16;
	long memory_ceiling_mb; /* the boot budget must fit under this */
	struct jd_board_camera left, right;
	char power_mode[JD_BOARD_STR];
	char clock_source[JD_BOARD_STR];
	/* default.* keys, applied over jd_params_default() */
	int has_algo, has_ndisp, has_size, has_backend;
	enum jd_algo algo;
	enum jd_backend backend; /* default.backend: the CPU kernels unless --backend says */
	int ndisp, width, height;
	struct jd_board_origin origin_compatible, origin_ceiling;
};

/**
 * Parse a board file (with its includes).
 * @retval 0 success
 * @retval -ENOENT / -EINVAL with err = "FILE:LINE: KEY: reason"
 */
int jd_board_load(const char *path, struct jd_board *b, char *err, size_t errlen);

/**
 * Boot check: the board's compatible string must appear in the device tree's list
 * (dt_path, normally /proc/device-tree/compatible; absent file = not a device-tree machine,
 * accepted only when the board says compatible -).
 */
int jd_board_validate(const struct jd_board *b, const char *dt_path, char *err, size_t errlen);

/** The default.* keys over a parameter set and frame size. */
void jd_board_apply_defaults(const struct jd_board *b, struct jd_match_params *p, int *width,
			     int *height);

#endif
