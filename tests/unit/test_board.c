/* Board files: every shipped board parses; a catalogue of broken files, each with FILE:LINE. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "jd_test.h"

static char dir[] = "/tmp/jd_board_XXXXXX";

static const char *write_file(const char *name, const char *text)
{
	static char path[4][512];
	static int k;
	FILE *f;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", dir, name);
	f = fopen(path[k], "w");
	fputs(text, f);
	fclose(f);
	return path[k];
}

#define BASE                                                                                       \
	"name t\nsoc -\ncompatible -\ngpu no\nmemory.ceiling_mb 100\n"                             \
	"camera left synth - 64x48@10\ncamera right synth - 64x48@10\n"

/* The file must fail and the message must contain both the location and the reason. */
static void expect_bad(const char *text, const char *where, const char *reason)
{
	struct jd_board b;
	char err[512] = "";
	const char *p = write_file("bad.board", text);

	JD_CHECK(jd_board_load(p, &b, err, sizeof(err)) != 0 && strstr(err, where) &&
		     strstr(err, reason),
		 "expected '%s' and '%s', got '%s'", where, reason, err);
}

int main(void)
{
	static const char *const shipped[] = {"host", "orin-nano", "orin-nx", "agx-orin", "thor"};
	struct jd_board b;
	char err[512], path[512];

	JD_CHECK(mkdtemp(dir) != NULL, "temp dir");
	for (size_t i = 0; i < sizeof(shipped) / sizeof(shipped[0]); i++) {
		snprintf(path, sizeof(path), "%s/boards/%s.board", JD_SOURCE_DIR, shipped[i]);
		JD_CHECK(jd_board_load(path, &b, err, sizeof(err)) == 0, "%s", err);
		JD_CHECK(strcmp(b.name, shipped[i]) == 0, "name %s", b.name);
	}
	/* Includes and undef: the SoC base sets soc; the board overrides one key. */
	write_file("base.inc", "soc base\ngpu yes\n");
	const char *ok =
	    write_file("ok.board", "include base.inc\nundef gpu\ngpu no   # override\nname ok\n"
				   "compatible -\nmemory.ceiling_mb 64\n"
				   "camera left synth - 64x48@10\ncamera right synth - 64x48@10\n"
				   "default.algo bp\ndefault.ndisp 32\ndefault.size 320x240\n"
				   "default.backend ref\n");
	JD_CHECK(jd_board_load(ok, &b, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(strcmp(b.soc, "base") == 0 && b.gpu == 0, "include + undef: soc %s gpu %d", b.soc,
		 b.gpu);
	struct jd_match_params p;
	int w = 450, h = 375;
	jd_params_default(&p, JD_ALGO_SGM, 64);
	jd_board_apply_defaults(&b, &p, &w, &h);
	JD_CHECK(p.algo == JD_ALGO_BP && p.ndisp == 32 && w == 320 && h == 240, "defaults applied");
	JD_CHECK(b.has_backend && b.backend == JD_BACKEND_REF, "default.backend");

	/* The catalogue. */
	expect_bad(BASE "colour blue\n", "bad.board:8", "colour: unknown key");
	expect_bad(BASE "gpu yes\n", "bad.board:8", "gpu: already set at");
	expect_bad(BASE "undef nothing\n", "bad.board:8", "undef nothing: unknown key");
	expect_bad("name t\n", "bad.board", "soc: required key missing");
	expect_bad(BASE "default.ndisp 64\n", "bad.board:8", "restates the built-in default");
	expect_bad(BASE "default.algo sgm\n", "bad.board:8", "restates the built-in default");
	expect_bad(BASE "default.algo fast\n", "bad.board:8", "expected bp, sgm or sad");
	expect_bad(BASE "default.ndisp 5000\n", "bad.board:8", "expected 2..1024");
	expect_bad(BASE "default.size big\n", "bad.board:8", "expected WIDTHxHEIGHT");
	expect_bad(BASE "default.backend gpu9000\n", "bad.board:8",
		   "expected auto, cpu, ref, neon or cuda");
	expect_bad(BASE "default.backend auto\n", "bad.board:8", "restates the built-in default");
	expect_bad(BASE "unified_memory maybe\n", "bad.board:8", "expected yes or no");
	expect_bad("name t\nsoc -\ncompatible -\ngpu no\nmemory.ceiling_mb -4\n", "bad.board:5",
		   "expected a positive whole number");
	expect_bad("camera middle synth - 64x48@10\n", "bad.board:1", "unknown role");
	expect_bad("camera left /dev/video0 RGB3 640x480@30\n", "bad.board:1", "format 'RGB3'");
	expect_bad("camera left /dev/video0 YUYV 640x480\n", "bad.board:1",
		   "expected SOURCE FORMAT WIDTHxHEIGHT@FPS");
	expect_bad("name\n", "bad.board:1", "name: missing value");
	expect_bad("include missing.inc\n", "missing.inc", "cannot open");
	write_file("loop.inc", "include loop.inc\n");
	expect_bad("include loop.inc\n", "loop.inc:1", "nested more than");
	expect_bad(BASE "build.cuda_arch sm_87_and_a_very_long_value_that_does_not_fit_in_32\n",
		   "bad.board:8", "longer than");

	/* Device-tree check: NUL-separated list, most specific first. */
	const char dt[] = "nvidia,p3768-0000+p3767-0005\0nvidia,p3767-0005\0nvidia,tegra234";
	snprintf(path, sizeof(path), "%s/compatible", dir);
	FILE *f = fopen(path, "wb");
	fwrite(dt, 1, sizeof(dt), f);
	fclose(f);
	snprintf(err, sizeof(err), "%s/boards/orin-nano.board", JD_SOURCE_DIR);
	char bp[512];
	snprintf(bp, sizeof(bp), "%s", err);
	JD_CHECK(jd_board_load(bp, &b, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(jd_board_validate(&b, path, err, sizeof(err)) == 0, "orin nano matches: %s", err);
	snprintf(bp, sizeof(bp), "%s/boards/agx-orin.board", JD_SOURCE_DIR);
	JD_CHECK(jd_board_load(bp, &b, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(jd_board_validate(&b, path, err, sizeof(err)) != 0 &&
		     strstr(err, "agx-orin.board:5") && strstr(err, "p3701-0005"),
		 "mismatch names file:line and the string: %s", err);
	JD_CHECK(jd_board_validate(&b, "/nonexistent/compatible", err, sizeof(err)) != 0 &&
		     strstr(err, "not a device-tree board"),
		 "%s", err);

	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	JD_CHECK(system(cmd) == 0, "cleanup");
	return jd_test_done("unit.board");
}
