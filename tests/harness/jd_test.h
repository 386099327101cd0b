/*
 * A small ztest-like harness: checks that report file:line and a message, and a skip that
 * exits 77 (CTest SKIP_RETURN_CODE) after saying why.
 */
#ifndef JD_TESTS_JD_TEST_H
#define JD_TESTS_JD_TEST_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static int jd_test_failures;

#define JD_CHECK(cond, ...)                                                                        \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);   \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
			jd_test_failures++;                                                        \
		}                                                                                  \
	} while (0)

#define JD_SKIP(...)                                                                               \
	do {                                                                                       \
		printf("SKIP: ");                                                                  \
		printf(__VA_ARGS__);                                                               \
		printf("\n");                                                                      \
		exit(77);                                                                          \
	} while (0)

/* Print a summary and turn the failure count into the exit code. */
static inline int jd_test_done(const char *name)
{
	if (jd_test_failures) {
		fprintf(stderr, "%s: %d check(s) failed\n", name, jd_test_failures);
		return 1;
	}
	printf("%s: all checks passed\n", name);
	return 0;
}

/* ndisp from a dataset pair's meta.txt ("ndisp: N"), 0 when absent. */
static inline int jd_test_read_ndisp(const char *meta)
{
	FILE *f = fopen(meta, "r");
	char line[256];
	int nd = 0;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "ndisp: %d", &nd) == 1) {
			break;
		}
	}
	if (f) {
		fclose(f);
	}
	return nd;
}

/*
 * Overwrite the 10 bytes around a JPEG's start-of-frame marker (FF C0) with 0x55, the damage
 * that left libjpeg-turbo's handle failing every later frame. @return 1, or 0 with no marker
 */
static inline int jd_test_damage_jpeg_header(unsigned char *jpg, unsigned long len)
{
	unsigned long sof = 2;

	while (sof + 1 < len && !(jpg[sof] == 0xff && jpg[sof + 1] == 0xc0)) {
		sof++;
	}
	if (sof <= 10 || sof + 5 >= len) {
		return 0;
	}
	for (int i = 0; i < 10; i++) {
		jpg[sof - 5 + i] = 0x55;
	}
	return 1;
}

/* Deterministic pseudo-random bytes for test images (xorshift32). */
static inline unsigned jd_test_rand(unsigned *state)
{
	unsigned x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

#endif
