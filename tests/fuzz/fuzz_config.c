/* The run config file (app/run/run_options.c: `key value` lines, --config FILE). */
#include "fuzz.h"
#include "run_options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct jd_run_options o;
	char *argv[] = {"run", "--config", (char *)fuzz_file(0, ".conf", data, size), NULL};

	jd_run_options_load(&o, 3, argv);
	return 0;
}
