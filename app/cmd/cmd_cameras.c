#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../algo/jd_status.h"
#include "../../hal/camera/v4l2_list.h"
#include "cli.h"
#include "commands.h"

static int by_name(const void *a, const void *b)
{
	/* /dev/video2 before /dev/video10 */
	const char *x = a, *y = b;
	size_t lx = strlen(x), ly = strlen(y);

	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y);
}

int jd_cmd_cameras(int argc, char **argv)
{
	static char names[64][280];
	int n = 0, capture = 0;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf(
		    "usage: jetdepth cameras [DEVICE...]\n\n"
		    "Lists V4L2 devices (all /dev/video* by default): driver, card, bus, and each "
		    "capture\nformat with its frame sizes and rates. Formats jetdepth can use "
		    "are marked.\nUse two of them with: jetdepth run --camera "
		    "v4l2:/dev/videoL,/dev/videoR\n");
		return JD_EXIT_OK;
	}
	if (argc > 1) {
		for (int i = 1; i < argc && n < 64; i++) {
			snprintf(names[n++], sizeof(names[0]), "%s", argv[i]);
		}
	} else {
		const char *dir = getenv("JD_DEV_DIR") ? getenv("JD_DEV_DIR") : "/dev";
		DIR *d = opendir(dir);
		struct dirent *e;

		while (d && (e = readdir(d)) && n < 64) {
			if (strncmp(e->d_name, "video", 5) == 0) {
				snprintf(names[n++], sizeof(names[0]), "%s/%s", dir, e->d_name);
			}
		}
		if (d) {
			closedir(d);
		}
		qsort(names, (size_t)n, sizeof(names[0]), by_name);
	}
	for (int i = 0; i < n; i++) {
		capture += jd_v4l2_describe(&jd_v4l2_sys_libc, names[i], stdout) == 1;
	}
	if (n == 0) {
		printf("no V4L2 devices (/dev/video*): `jetdepth run` uses the synthetic camera\n");
	}
	/* Named devices that are not capture devices are a usage problem worth an exit code. */
	return argc > 1 && capture < n ? JD_EXIT_RUNTIME : JD_EXIT_OK;
}
