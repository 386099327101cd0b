/*
 * The daemon end to end (ctest -L e2e), through the same calls `jetdepth run` makes:
 *  - the synthetic camera for 1000 frames: every frame's objects are the scene's boxes (each
 *    box found, each object inside a box, none else), the table found, zero heap allocations
 *    after boot (the interposer of tests/harness/count_alloc.c), no growth in open files or
 *    resident memory;
 *  - the files camera looping over JPEG pairs with a truncated and a bit-flipped one: the bad
 *    frames are dropped and counted, every other frame comes through with its objects, and
 *    every frame read is accounted for (processed, or dropped with its reason); what is
 *    allocated is libjpeg's own per-decode memory, all of it freed again.
 * The soak (docs/reliability.md) is the same run longer: `test_daemon FRAMES [synthetic|files]`
 * with $JD_SOAK_THREADS workers; resident memory and open files are sampled ten times.
 */
#include <dirent.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <turbojpeg.h>

#include "count_alloc.h"
#include "camera_synth.h"
#include "daemon.h"
#include "sense_cli.h"
#include "jd_test.h"
#include "synth.h"

/*
 * The daemons here run on the CPU: the GPU driver's own threads allocate now and then, which a
 * process-wide count cannot tell from the loop's (the GPU path's rule is the gpu tests').
 */
static const struct jd_boot_choices cpu_only = {.backend = JD_BACKEND_CPU};

enum { WMAX = 320, HMAX = 240 };
static int W = 320, H = 240, ND = 32; /* $JD_SOAK_SIZE=160x120: a quarter of the work a frame */

static int threads = 2;
static enum jd_algo algo = JD_ALGO_SGM; /* $JD_SOAK_ALGO=sad: a faster soak */

static long open_fds(void)
{
	long n = 0;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		n += e->d_name[0] != '.';
	}
	if (d) {
		closedir(d);
	}
	return n - 1; /* the directory's own descriptor */
}

static long rss_kib(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f && fscanf(f, "%ld %ld", &pages, &resident) != 2) {
		resident = 0;
	}
	if (f) {
		fclose(f);
	}
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Ten samples of resident memory and open files over a run; growth after warm-up fails. */
struct samples {
	int n;
	long rss[11], fds[11];
};

static void sample(struct samples *s, int i, int frames)
{
	if (s->n < 11 && (i == 0 || (frames >= 10 && i % (frames / 10) == 0))) {
		s->rss[s->n] = rss_kib();
		s->fds[s->n] = open_fds();
		s->n++;
		if (frames >= 10000) {
			printf("  sample %d at %d of %d: resident %ld KiB, open files %ld\n",
			       s->n - 1, i, frames, s->rss[s->n - 1], s->fds[s->n - 1]);
			fflush(stdout);
		}
	}
}

static void check_samples(const struct samples *s, const char *what)
{
	long grow = 0;
	/* from the second sample on: the first 10 % warm up (first-touch pages; under
	 * qemu-user also the emulator's translated code, which counts as resident) */
	int base = s->n > 2 ? 1 : 0;

	printf("%s: resident KiB", what);
	for (int i = 0; i < s->n; i++) {
		printf(" %ld", s->rss[i]);
		grow =
		    i >= base && s->rss[i] - s->rss[base] > grow ? s->rss[i] - s->rss[base] : grow;
		JD_CHECK(s->fds[i] == s->fds[0], "%s: open files %ld -> %ld at sample %d", what,
			 s->fds[0], s->fds[i], i);
	}
	printf("; open files %ld throughout\n", s->n ? s->fds[0] : -1L);
	/* all memory was touched at boot: no growth beyond allocator and page-cache noise */
	JD_CHECK(grow < 1024, "%s: resident memory grew by %ld KiB after warm-up", what, grow);
}

/* Every object lies inside a box (its centroid), and every box holds an object. */
static int matches(const struct jd_sense_result *r, const struct jd_synth_object *b, int nb,
		   char *why, size_t len)
{
	int found[JD_SYNTH_MAX_OBJECTS] = {0};

	for (int i = 0; i < r->nobjects; i++) {
		const float *c = r->objects[i].centroid_px;
		int in = 0;
		for (int k = 0; k < nb; k++) {
			if (c[0] >= b[k].x0 && c[0] < b[k].x1 && c[1] >= b[k].y0 &&
			    c[1] < b[k].y1) {
				found[k] = in = 1;
			}
		}
		if (!in) {
			snprintf(why, len, "object %d at (%.0f, %.0f) is in no box", i,
				 (double)c[0], (double)c[1]);
			return 0;
		}
	}
	for (int k = 0; k < nb; k++) {
		if (!found[k]) {
			snprintf(why, len, "box %d (%.0f..%.0f, %.0f..%.0f) not found", k,
				 (double)b[k].x0, (double)b[k].x1, (double)b[k].y0,
				 (double)b[k].y1);
			return 0;
		}
	}
	return 1;
}

static void synthetic(int frames)
{
	struct jd_daemon *d;
	struct jd_match_params p;
	struct jd_frame_stats st;
	struct jd_synth_object boxes[JD_SYNTH_MAX_OBJECTS];
	int good = 0, seen = 0;
	char why[300] = "";

	jd_params_default(&p, algo, ND);
	struct samples smp = {0};
	struct jd_daemon_opts o = {.choices = &cpu_only};
	JD_CHECK(jd_daemon_init(&d, &p, W, H, threads, &o, NULL) == 0, "boot");
	long fds0 = open_fds(), rss0 = rss_kib();
	sample(&smp, 0, frames);
	long before = jd_allocations; /* after the probes above, which allocate */
	for (int i = 0; i < frames; i++) {
		if (i > 0) {
			long a = jd_allocations;
			sample(&smp, i,
			       frames); /* the probe's own allocations are not the loop's */
			before += jd_allocations - a;
		}
		int rc = jd_daemon_step(d, &st);
		if (rc != 1) {
			JD_CHECK(0, "frame %d: %d", i, rc);
			break;
		}
		seen++;
		int nb = jd_synth_objects(0, (int)st.frame, W, H, ND, boxes);
		char w2[200];
		if (st.sense && st.sense->plane.valid &&
		    matches(st.sense, boxes, nb, w2, sizeof(w2))) {
			good++;
		} else if (!why[0]) {
			snprintf(why, sizeof(why), "frame %lld: %s", st.frame,
				 st.sense && !st.sense->plane.valid ? "no table" : w2);
		}
	}
	long allocs = jd_allocations - before, fds1 = open_fds(), rss1 = rss_kib();
	printf("synthetic: %d frames, %d with exactly the scene's boxes; %ld allocation(s), open "
	       "files %ld -> %ld, resident %ld -> %ld KiB\n",
	       seen, good, allocs, fds0, fds1, rss0, rss1);
	JD_CHECK(fds1 == fds0, "open files grew: %ld -> %ld", fds0, fds1);
	check_samples(&smp, "synthetic");
	JD_CHECK(good == frames, "%d of %d frames match the scene (first miss: %s)", good, frames,
		 why);
	JD_CHECK(allocs == 0, "%ld heap allocation(s) in %d frames", allocs, frames);
	jd_daemon_deinit(d);
}

static void jpeg_files(int steps)
{
	char root[] = "/tmp/jd_e2e_XXXXXX", path[256];
	static uint8_t l[WMAX * HMAX], r[WMAX * HMAX];
	struct jd_daemon *d;
	struct jd_capture_config cam = {.kind = JD_CAPTURE_FILES, .files = {.loop = 1}};
	struct jd_match_params p;
	struct jd_frame_stats st;
	tjhandle tj = tjInitCompress();
	int n = 8, frames = 0, with_boxes = 0;

	JD_CHECK(mkdtemp(root) != NULL, "mkdtemp");
	for (int s = 0; s < 2; s++) {
		snprintf(path, sizeof(path), "%s/%s", root, s ? "right" : "left");
		mkdir(path, 0700);
	}
	for (int k = 0; k < n; k++) {
		struct jd_image li = {l, W, H, W}, ri = {r, W, H, W};
		jd_synth_render(k, ND, &li, &ri, NULL);
		for (int s = 0; s < 2; s++) {
			unsigned char *jpg = NULL;
			unsigned long len = 0;
			tjCompress2(tj, s ? r : l, W, W, H, TJPF_GRAY, &jpg, &len, TJSAMP_GRAY, 95,
				    0);
			if (k == 3 && s == 0) {
				len = len * 2 / 3; /* truncated */
			}
			if (k == 6 && s == 1) {
				for (unsigned long i = len / 2; i < len / 2 + 40; i++) {
					jpg[i] ^= 0x5a; /* bit-flipped */
				}
			}
			snprintf(path, sizeof(path), "%s/%s/%03d.jpg", root, s ? "right" : "left",
				 k);
			FILE *f = fopen(path, "wb");
			JD_CHECK(f && fwrite(jpg, 1, len, f) == len, "write %s", path);
			fclose(f);
			tjFree(jpg);
		}
	}
	tjDestroy(tj);
	snprintf(cam.files.dir, sizeof(cam.files.dir), "%s", root);
	/* the synthetic rig's model: these are its frames */
	struct jd_sense_options sense;
	jd_sense_cli_init(&sense);
	jd_cam_synth_model(W, H, &sense.cam);
	sense.have_focal = sense.have_baseline = 1;
	jd_params_default(&p, algo, ND);
	struct jd_daemon_opts o = {.cam = &cam, .sense = &sense, .choices = &cpu_only};
	JD_CHECK(jd_daemon_init(&d, &p, W, H, threads, &o, NULL) == 0, "boot");
	struct samples smp = {0};
	sample(&smp, 0, steps);
	long a0 = jd_allocations, f0 = jd_frees, probe = 0;
	for (int i = 0; i < steps; i++) {
		if (i > 0) {
			long a = jd_allocations, f = jd_frees;
			sample(&smp, i, steps);
			probe += (jd_allocations - a) - (jd_frees - f);
		}
		int rc = jd_daemon_step(d, &st);
		if (rc == 1) {
			frames++;
			with_boxes += st.sense && st.sense->nobjects >= 2;
		} else {
			JD_CHECK(rc == -EAGAIN || rc == 0, "step %d: %d", i, rc);
		}
	}
	long allocs = jd_allocations - a0, outstanding = allocs - (jd_frees - f0) - probe;
	const struct jd_capture *c = jd_daemon_cameras(d);
	unsigned long read = c->cam[0].stats.frames + c->cam[1].stats.frames;
	unsigned long unpaired = c->pair.drops[0] + c->pair.drops[1];
	unsigned long accounted = 2 * (unsigned long)frames + c->drop_corrupt + c->drop_short +
				  c->drop_partner + unpaired;
	printf("files: %d frames from %d steps over %d pairs (2 corrupt); %lu frames read, %lu "
	       "accounted for: 2 x %d processed + %lu corrupt + %lu short + %lu partners + %lu "
	       "unpaired; last drop: %s\n",
	       frames, steps, n, read, accounted, frames, c->drop_corrupt, c->drop_short,
	       c->drop_partner, unpaired, c->last_drop);
	printf("files: %ld allocations in the loop (%.1f a frame: libjpeg's per-decode memory), "
	       "%ld not freed\n",
	       allocs, (double)allocs / (frames ? frames : 1), outstanding);
	check_samples(&smp, "files");
	JD_CHECK(read == accounted, "frames read %lu, accounted for %lu", read, accounted);
	JD_CHECK(outstanding == 0, "%ld allocation(s) in the loop not freed", outstanding);
	JD_CHECK(c->drop_corrupt >= (unsigned long)steps / n / 3,
		 "corrupt JPEGs dropped and counted: %lu", c->drop_corrupt);
	JD_CHECK(frames >= steps * 6 / 8 - 2, "the good pairs came through: %d frames", frames);
	JD_CHECK(with_boxes == frames, "objects in every frame: %d of %d", with_boxes, frames);
	jd_daemon_deinit(d);
	snprintf(path, sizeof(path), "rm -rf %s", root);
	JD_CHECK(system(path) == 0, "cleanup");
}

int main(int argc, char **argv)
{
	const char *env = getenv("JD_E2E_FRAMES"), *th = getenv("JD_SOAK_THREADS");
	int frames = argc > 1 ? atoi(argv[1]) : env ? atoi(env) : 1000;
	const char *part = argc > 2 ? argv[2] : "both";

	threads = th && atoi(th) > 0 ? atoi(th) : 2;
	if (getenv("JD_SOAK_SIZE") && !strcmp(getenv("JD_SOAK_SIZE"), "160x120")) {
		W = 160;
		H = 120;
		ND = 16;
	}
	algo =
	    getenv("JD_SOAK_ALGO") && !strcmp(getenv("JD_SOAK_ALGO"), "sad") ? JD_ALGO_SAD : algo;
	if (strcmp(part, "files") != 0) {
		synthetic(frames);
	}
	if (strcmp(part, "synthetic") != 0) {
		/* 24 steps over the 8 pairs at least; as many steps as synthetic frames in a soak
		 */
		jpeg_files(frames > 24 ? frames : 24);
	}
	return jd_test_done("e2e.daemon");
}
