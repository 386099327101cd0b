/*
 * Shared by the fuzz targets: each defines LLVMFuzzerTestOneInput(), built either with
 * libFuzzer (clang -fsanitize=fuzzer, preset fuzz) or with replay_main.c as a plain program
 * that runs the committed corpus (every build: ctest fuzz.replay.*). A target must never
 * crash, hang or leak on any input; what it returns is ignored.
 */
#ifndef JD_TESTS_FUZZ_H
#define JD_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The input as a file (the parsers read paths): one per process and slot, rewritten every
 * call (left in /dev/shm or /tmp; the runners remove jd_fuzz_PID_*). suffix selects a reader where
 * the name matters (".pfm").
 */
static inline const char *fuzz_file(int slot, const char *suffix, const uint8_t *data, size_t n)
{
	static char paths[4][128];
	char *p = paths[slot];

	/* /dev/shm where there is one: a file write a call, memory speed */
	const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(p, sizeof(paths[slot]), "%s/jd_fuzz_%d_%d%s", dir, (int)getpid(), slot, suffix);
	FILE *f = fopen(p, "wb");
	if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f)) {
		abort(); /* the harness's own failure, not the target's */
	}
	return p;
}

/* Splits the input at the first occurrence of sep: [data, *n1) and the rest after sep. */
static inline const uint8_t *fuzz_split(const uint8_t *data, size_t size, const char *sep,
					size_t *n1, size_t *n2)
{
	size_t k = strlen(sep);

	for (size_t i = 0; i + k <= size; i++) {
		if (!memcmp(data + i, sep, k)) {
			*n1 = i;
			*n2 = size - i - k;
			return data + i + k;
		}
	}
	*n1 = size;
	*n2 = 0;
	return data + size;
}

#endif
