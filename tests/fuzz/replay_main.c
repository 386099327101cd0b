/*
 * A fuzz target without libFuzzer: runs every file named, or every file in every folder
 * named, through LLVMFuzzerTestOneInput() once. CI replays the committed corpora this way
 * in every build, so a crash found once stays fixed (run it under the asan preset too).
 */
#include <dirent.h>
#include <sys/stat.h>

#include "fuzz.h"

static long ran;

static void run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n = -1;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
			n = -1;
		}
	}
	if (f) {
		fclose(f);
	}
	if (n < 0) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		exit(2);
	}
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	ran++;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: no such file or folder\n", argv[i]);
			return 2;
		}
		if (!S_ISDIR(st.st_mode)) {
			run_file(argv[i]);
			continue;
		}
		DIR *d = opendir(argv[i]);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			char p[4096];
			snprintf(p, sizeof(p), "%s/%s", argv[i], e->d_name);
			if (e->d_name[0] != '.' && stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
				run_file(p);
			}
		}
		if (d) {
			closedir(d);
		}
	}
	char cmd[96];
	snprintf(cmd, sizeof(cmd), "rm -f /dev/shm/jd_fuzz_%d_* /tmp/jd_fuzz_%d_*", (int)getpid(),
		 (int)getpid());
	if (system(cmd) != 0) {
		fprintf(stderr, "replay: cleanup failed\n");
	}
	printf("replayed %ld input(s) without a crash\n", ran);
	return ran > 0 ? 0 : 1; /* an empty corpus is a broken test, not a pass */
}
