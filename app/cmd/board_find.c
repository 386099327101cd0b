#include "board_find.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../hal/board.h"

const char *jd_board_dir(void)
{
	const char *env = getenv("JETDEPTH_BOARD_DIR");

	return env && *env ? env : JD_BOARD_DIR;
}

/* The device tree's compatible strings, ", "-separated. @return their length, 0 when none */
static size_t read_compatible(const char *dt_path, char *out, size_t outlen)
{
	FILE *f = fopen(dt_path, "rb");
	size_t n = 0;

	out[0] = '\0';
	if (!f) {
		return 0;
	}
	for (int c; (c = fgetc(f)) != EOF && n + 3 < outlen;) {
		if (c == '\0') {
			out[n++] = ',';
			out[n++] = ' ';
		} else if (c >= ' ' && c < 127) {
			out[n++] = (char)c;
		}
	}
	fclose(f);
	while (n > 0 && (out[n - 1] == ' ' || out[n - 1] == ',')) {
		n--;
	}
	out[n] = '\0';
	return n;
}

/* auto: the first installed board (in name order) that validates against the device tree. */
static int find_auto(const char *dir, const char *dt_path, char *out, size_t outlen, char *err,
		     size_t errlen)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), rc = -ENOENT;

	if (n < 0) {
		snprintf(err, errlen, "--board auto: cannot read the board folder %s", dir);
		return -ENOENT;
	}
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		size_t len = strlen(nm);
		struct jd_board b;
		char path[1024], e[512];

		if (rc == 0 || len < 7 || strcmp(nm + len - 6, ".board") != 0 ||
		    strcmp(nm, "host.board") == 0) {
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, nm);
		if (jd_board_load(path, &b, e, sizeof(e)) == 0 && strcmp(b.compatible, "-") != 0 &&
		    jd_board_validate(&b, dt_path, e, sizeof(e)) == 0) {
			snprintf(out, outlen, "%s", path);
			rc = 0;
		}
	}
	for (int i = 0; i < n; i++) {
		free(names[i]);
	}
	free(names);
	char compat[512];
	if (rc && read_compatible(dt_path, compat, sizeof(compat)) > 0 &&
	    strstr(compat, "nvidia,")) {
		/* a Jetson this build has no board for: its cameras and GPU are unknown, and a
		 * host board's synthetic scene would publish made-up objects */
		snprintf(
		    err, errlen,
		    "--board auto: this Jetson's device tree (compatible: %s) matches no board in "
		    "%s: add a board file for it (boards/README.md) or name one with --board",
		    compat, dir);
		return -ENODEV;
	}
	if (rc) {
		/* No device tree at all (a PC): the generic host board. */
		snprintf(out, outlen, "%s/host.board", dir);
		if (access(out, R_OK) != 0) {
			snprintf(err, errlen,
				 "--board auto: no board in %s matches %s, and %s is missing", dir,
				 dt_path, out);
			return -ENOENT;
		}
	}
	return 0;
}

int jd_board_find(const char *arg, const char *dt_path, char *out, size_t outlen, char *err,
		  size_t errlen)
{
	const char *dir = jd_board_dir();

	if (strcmp(arg, "auto") == 0) {
		return find_auto(dir, dt_path, out, outlen, err, errlen);
	}
	if (strchr(arg, '/') || access(arg, F_OK) == 0) {
		snprintf(out, outlen, "%s", arg);
		return 0;
	}
	snprintf(out, outlen, "%s/%s.board", dir, arg);
	if (access(out, R_OK) != 0) {
		snprintf(err, errlen, "--board %s: no such file, and no %s", arg, out);
		return -ENOENT;
	}
	return 0;
}
