/* The board-file parser and its validation (hal/board_parse.c). */
#include "board.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jd_board b;
	char err[512];

	if (jd_board_load(fuzz_file(0, ".board", data, size), &b, err, sizeof(err)) == 0) {
		jd_board_validate(&b, "/nonexistent", err, sizeof(err));
	}
	return 0;
}
