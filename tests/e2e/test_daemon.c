/*
 * The daemon end to end (ctest -L e2e), through the same calls `jetdepth run` makes:
 *  - the synthetic camera for 1000 frames: every frame's objects are the scene's boxes (each
 *    box found, each object inside a box, none else), the table found, zero heap allocations
 *    after boot (the interposer of tests/harness/count_alloc.c), no growth in open files or
 *    resident memory;
 *  - the files camera looping over JPEG pairs with a truncated and a bit-flipped one: the bad
 *    frames are dropped and counted, every other frame comes through with its objects.
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
#include "jd_test.h"
#include "synth.h"

enum { W = 320, H = 240, ND = 32 };

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

/* Every object lies inside a box (its centroid), and every box holds an object. */
static int matches(const struct jd_sense_result *r, const struct jd_synth_object *b, int nb,
		   char *why, size_t len)
{
	int found[JD_SYNTH_MAX_OBJECTS] = {0};

	for (int i = 0; i < r->nobjects; i++) {
		const float *c = r->objects[i].centroid_px;
		int in = 0;
		for (int k = 0; k < nb; k++) {
			if (c[0] >= b[k].x0 && c[0] < b[k].x1 && c[1] >= b[k].y0 && c[1] < b[k].y1) {
				found[k] = in = 1;
			}
		}
		if (!in) {
			snprintf(why, len, "object %d at (%.0f, %.0f) is in no box", i, (double)c[0],
				 (double)c[1]);
			return 0;
		}
	}
	for (int k = 0; k < nb; k++) {
		if (!found[k]) {
			snprintf(why, len, "box %d (%.0f..%.0f, %.0f..%.0f) not found", k,
				 (double)b[k].x0, (double)b[k].x1, (double)b[k].y0, (double)b[k].y1);
			return 0;
		}
	}
	return 1;
}

static void synthetic(int frames)
{
	static struct jd_daemon d;
	struct jd_match_params p;
	struct jd_frame_stats st;
	struct jd_synth_object boxes[JD_SYNTH_MAX_OBJECTS];
	int good = 0, seen = 0;
	char why[300] = "";

	jd_params_default(&p, JD_ALGO_SGM, ND);
	JD_CHECK(jd_daemon_init(&d, &p, W, H, 2, NULL, NULL) == 0, "boot");
	long fds0 = open_fds(), rss0 = rss_kib();
	long before = jd_allocations; /* after the probes above, which allocate */
	for (int i = 0; i < frames; i++) {
		int rc = jd_daemon_step(&d, &st);
		if (rc != 1) {
			JD_CHECK(0, "frame %d: %d", i, rc);
			break;
		}
		seen++;
		int nb = jd_synth_objects(0, st.frame, W, H, ND, boxes);
		char w2[200];
		if (st.sense && st.sense->plane.valid && matches(st.sense, boxes, nb, w2, sizeof(w2))) {
			good++;
		} else if (!why[0]) {
			snprintf(why, sizeof(why), "frame %d: %s", st.frame,
				 st.sense && !st.sense->plane.valid ? "no table" : w2);
		}
	}
	long allocs = jd_allocations - before, fds1 = open_fds(), rss1 = rss_kib();
	printf("synthetic: %d frames, %d with exactly the scene's boxes; %ld allocation(s), open "
	       "files %ld -> %ld, resident %ld -> %ld KiB\n",
	       seen, good, allocs, fds0, fds1, rss0, rss1);
	JD_CHECK(fds1 == fds0, "open files grew: %ld -> %ld", fds0, fds1);
	/* all memory was touched at boot (mlock'd where allowed): no growth beyond noise */
	JD_CHECK(rss1 - rss0 < 1024, "resident memory grew by %ld KiB", rss1 - rss0);
	JD_CHECK(good == frames, "%d of %d frames match the scene (first miss: %s)", good, frames,
		 why);
	JD_CHECK(allocs == 0, "%ld heap allocation(s) in %d frames", allocs, frames);
	jd_daemon_deinit(&d);
}

static void jpeg_files(void)
{
	char root[] = "/tmp/jd_e2e_XXXXXX", path[256];
	static uint8_t l[W * H], r[W * H];
	static struct jd_daemon d;
	struct jd_capture_config cam = {.kind = JD_CAPTURE_FILES, .loop = 1};
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
			tjCompress2(tj, s ? r : l, W, W, H, TJPF_GRAY, &jpg, &len, TJSAMP_GRAY, 95, 0);
			if (k == 3 && s == 0) {
				len = len * 2 / 3; /* truncated */
			}
			if (k == 6 && s == 1) {
				for (unsigned long i = len / 2; i < len / 2 + 40; i++) {
					jpg[i] ^= 0x5a; /* bit-flipped */
				}
			}
			snprintf(path, sizeof(path), "%s/%s/%03d.jpg", root, s ? "right" : "left", k);
			FILE *f = fopen(path, "wb");
			JD_CHECK(f && fwrite(jpg, 1, len, f) == len, "write %s", path);
			fclose(f);
			tjFree(jpg);
		}
	}
	tjDestroy(tj);
	snprintf(cam.device[0], sizeof(cam.device[0]), "%s", root);
	/* the synthetic rig's model: these are its frames */
	struct jd_sense_cli sense;
	jd_sense_cli_init(&sense);
	jd_cam_synth_model(W, H, &sense.cam);
	sense.have_focal = sense.have_baseline = 1;
	jd_params_default(&p, JD_ALGO_SGM, ND);
	JD_CHECK(jd_daemon_init(&d, &p, W, H, 2, &(struct jd_daemon_opts){.cam = &cam, .sense = &sense}, NULL) == 0, "boot");
	for (int i = 0; i < 3 * n; i++) {
		int rc = jd_daemon_step(&d, &st);
		if (rc == 1) {
			frames++;
			with_boxes += st.sense && st.sense->nobjects >= 2;
		} else {
			JD_CHECK(rc == -EAGAIN || rc == 0, "step %d: %d", i, rc);
		}
	}
	printf("files: %d frames from %d steps over %d pairs (2 corrupt), %lu corrupt dropped, "
	       "%lu unpaired; last drop: %s\n",
	       frames, 3 * n, n, d.cap.drop_corrupt, d.cap.pair.drops[0] + d.cap.pair.drops[1],
	       d.cap.last_drop);
	JD_CHECK(d.cap.drop_corrupt >= 4, "corrupt JPEGs dropped and counted: %lu",
		 d.cap.drop_corrupt);
	JD_CHECK(frames >= 3 * n * 6 / 8 - 2, "the good pairs came through: %d frames", frames);
	JD_CHECK(with_boxes == frames, "objects in every frame: %d of %d", with_boxes, frames);
	jd_daemon_deinit(&d);
	snprintf(path, sizeof(path), "rm -rf %s", root);
	JD_CHECK(system(path) == 0, "cleanup");
}

int main(int argc, char **argv)
{
	const char *env = getenv("JD_E2E_FRAMES");
	int frames = argc > 1 ? atoi(argv[1]) : env ? atoi(env) : 1000;

	setenv("JD_BACKEND", "cpu", 1); /* the GPU driver's own threads allocate now and then */
	synthetic(frames);
	jpeg_files();
	return jd_test_done("e2e.daemon");
}
