/*
 * The tuning file: written and read back the same; entries replaced, found by nearest size;
 * a file from another GPU, driver or build is recognised as such (boot ignores it and says
 * why); malformed files are errors naming the file and the line; nothing half-written.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jd_test.h"
#include "tuning.h"

static char dir[] = "/tmp/jd_tuning_XXXXXX";

static const char *path(const char *name)
{
	static char p[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static void write_text(const char *p, const char *text)
{
	FILE *f = fopen(p, "w");

	JD_CHECK(f && fputs(text, f) >= 0, "write %s", p);
	fclose(f);
}

static void expect_error(const char *text, const char *needle)
{
	struct jd_tuning t;
	char err[600];

	write_text(path("bad.txt"), text);
	int rc = jd_tuning_load(path("bad.txt"), &t, err, sizeof(err));
	JD_CHECK(rc == -EINVAL && strstr(err, needle) && strstr(err, "bad.txt"),
		 "'%s': rc %d, error '%s' lacks '%s'", text, rc, err, needle);
}

int main(void)
{
	struct jd_tuning t = {0}, back;
	char err[600], why[300];

	JD_CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(t.gpu, sizeof(t.gpu), "NVIDIA H100 80GB HBM3");
	t.sm_count = 132;
	t.driver = 13000;
	t.fatbin = 0x9c1f0e2b7a44d310ull;
	struct jd_tuning_entry a = {"bp", 1, 450, 375, 128, "r128_b1", 2.049f, "r96_b3", 2.154f};
	struct jd_tuning_entry b = {"bp", 1, 900, 750, 128, "r96_b3", 7.01f, "r96_b3", 7.01f};
	JD_CHECK(jd_tuning_put(&t, &a) == 0 && jd_tuning_put(&t, &b) == 0 && t.n == 2, "put");
	a.ms = 2.0f;
	JD_CHECK(jd_tuning_put(&t, &a) == 0 && t.n == 2 && t.e[0].ms == 2.0f, "same case replaced");
	JD_CHECK(jd_tuning_save(path("t.txt"), &t, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(jd_tuning_load(path("t.txt"), &back, err, sizeof(err)) == 0, "%s", err);
	JD_CHECK(!strcmp(back.gpu, t.gpu) && back.sm_count == 132 && back.driver == 13000 &&
		     back.fatbin == t.fatbin && back.n == 2,
		 "header round trip: %s %d %d %d", back.gpu, back.sm_count, back.driver, back.n);
	JD_CHECK(!strcmp(back.e[0].variant, "r128_b1") && back.e[0].ms == 2.0f &&
		     !strcmp(back.e[1].default_variant, "r96_b3") && back.e[1].w == 900,
		 "entries round trip");
	/* Lookup: same storage and ndisp, nearest pixel count. */
	const struct jd_tuning_entry *e = jd_tuning_find(&back, "bp", 1, 640, 480, 128);
	JD_CHECK(e && e->w == 450, "640x480 is nearest 450x375");
	e = jd_tuning_find(&back, "bp", 1, 1280, 720, 128);
	JD_CHECK(e && e->w == 900, "1280x720 is nearest 900x750");
	JD_CHECK(!jd_tuning_find(&back, "bp", 0, 450, 375, 128), "no float entry");
	JD_CHECK(!jd_tuning_find(&back, "bp", 1, 450, 375, 64), "no ndisp 64 entry");
	/* Whose file is it? */
	JD_CHECK(jd_tuning_matches(&back, t.gpu, 132, 13000, t.fatbin, why, sizeof(why)) == 1,
		 "this GPU");
	JD_CHECK(!jd_tuning_matches(&back, "Orin", 8, 13000, t.fatbin, why, sizeof(why)) &&
		     strstr(why, "NVIDIA H100 80GB HBM3 with 132 SMs, this is Orin with 8"),
		 "foreign GPU: %s", why);
	JD_CHECK(!jd_tuning_matches(&back, t.gpu, 132, 12080, t.fatbin, why, sizeof(why)) &&
		     strstr(why, "driver 13000, this is 12080"),
		 "other driver: %s", why);
	JD_CHECK(!jd_tuning_matches(&back, t.gpu, 132, 13000, 1, why, sizeof(why)) &&
		     strstr(why, "other kernels"),
		 "other build: %s", why);
	/* Malformed files: file and line named. */
	expect_error("gpu X\nsm_count many\n", "bad.txt:2: sm_count");
	expect_error("gpu X\nsm_count 1\ndriver 1\nfatbin 12\nbp f16 450x375 128 r96_b3\n",
		     "bad.txt:5: expected 'bp f16|f32");
	expect_error("gpu X\nsm_count 1\ndriver 1\nfatbin 12\nbp f8 450x375 128 a 1 default b 1\n",
		     "bad.txt:5");
	expect_error("gpu X\nspeed fast\n", "bad.txt:2: unknown line 'speed fast'");
	expect_error("gpu X\nsm_count 1\ndriver 1\n", "missing fatbin");
	expect_error("gpu X\nsm_count 1\ndriver 1\nfatbin zz\n", "bad.txt:4: fatbin");
	JD_CHECK(jd_tuning_load(path("absent.txt"), &back, err, sizeof(err)) == -ENOENT,
		 "absent file: -ENOENT");
	/* A file that cannot be written leaves nothing behind. */
	JD_CHECK(jd_tuning_save("/nonexistent-dir/t.txt", &t, err, sizeof(err)) < 0 &&
		     strstr(err, "/nonexistent-dir/t.txt"),
		 "unwritable: %s", err);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	JD_CHECK(system(cmd) == 0, "cleanup");
	return jd_test_done("unit.tuning");
}
