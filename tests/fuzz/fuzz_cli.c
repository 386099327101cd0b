/*
 * The command line of `jetdepth run` (app/run/run_options.c with the shared matcher, sensing and
 * camera options): the input split at NUL bytes into at most 32 arguments.
 */
#include "fuzz.h"
#include "run_options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct jd_run_options o;
	static char buf[4096];
	char *argv[34] = {"run"};
	int argc = 1;

	if (size >= sizeof(buf)) {
		return 0;
	}
	memcpy(buf, data, size);
	buf[size] = 0;
	for (size_t i = 0; i <= size && argc < 33;) {
		argv[argc++] = buf + i;
		i += strlen(buf + i) + 1;
	}
	argv[argc] = NULL;
	jd_run_options_load(&o, argc, argv);
	return 0;
}
