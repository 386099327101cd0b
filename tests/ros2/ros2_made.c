/*
 * What the frame loop lends the ROS 2 publisher (jd_ros2_frame.made: depth and the cloud
 * the GPU made, hal/cuda/cloud_cuda.h) comes back exactly once, and the publisher never holds
 * more than two frames' worth, the bound the GPU's sets are counted for
 * (JD_CUDA_CLOUD_SETS = the frames in flight + 2). Checked with every topic composed (as
 * `bench --pipeline --ros2`), with nothing subscribed (given back at once), and without a
 * publisher. No GPU needed: the lent buffers are plain memory here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jd_test.h"
#include "ros2/ros2.h"

enum { W = 32, H = 24, FRAMES = 300, TOKENS = 8 };

static int lent[TOKENS]; /* per token: lent and not given back yet */
static long given_back, twice;

static void give_back(void *token)
{
	int *t = token;
	twice += *t == 0; /* given back without being lent */
	*t = 0;
	__atomic_add_fetch(&given_back, 1, __ATOMIC_RELAXED);
}

static long outstanding(void)
{
	long n = 0;
	for (int k = 0; k < TOKENS; k++) {
		n += __atomic_load_n(&lent[k], __ATOMIC_RELAXED);
	}
	return n;
}

/* Offer FRAMES frames, each lending a token; the most held at once. */
static long offer_all(struct jd_ros2 *r, const struct jd_ros2_frame *base)
{
	long most = 0;
	for (int i = 0; i < FRAMES; i++) {
		struct jd_ros2_frame f = *base;
		int k = -1;
		for (int j = 0; j < TOKENS && k < 0; j++) {
			k = __atomic_load_n(&lent[j], __ATOMIC_RELAXED) ? -1 : j;
		}
		JD_CHECK(k >= 0, "frame %d: all %d tokens held", i, TOKENS);
		if (k < 0) {
			break;
		}
		lent[k] = 1;
		f.frame = i;
		f.capture_ns = (uint64_t)(i + 1) * 33000000u;
		f.made.release = give_back;
		f.made.token = &lent[k];
		jd_ros2_offer(r, &f);
		long held = outstanding();
		most = held > most ? held : most;
	}
	return most;
}

static struct jd_ros2 *start(int always, void *mem, size_t bytes)
{
	static struct jd_ros2 r;
	struct jd_ros2_config c;
	struct jd_ros2_rig rig = {W, H, 1, {40.0f, 15.5f, 11.5f, 60.0f}, 0.0f, 15.0f};

	jd_ros2_default(&c);
	snprintf(c.ns, sizeof(c.ns), "made_%d", (int)getpid());
	c.enabled = 1;
	c.compose_always = always;
	int rc = jd_ros2_start(&r, &c, &rig, mem, bytes);
	if (rc == -ENOSYS) {
		JD_SKIP("%s", r.err);
	}
	JD_CHECK(rc == 0, "start: %s", r.err);
	return rc ? NULL : &r;
}

int main(void)
{
	static uint8_t left[W * H];
	static float disp[W * H], depth[W * H], points[4 * W * H];
	struct jd_image l = {left, W, H, W};
	struct jd_disp d = {disp, W, H, W};
	struct jd_ros2_frame base = {.left = &l, .disp = &d};
	size_t bytes = jd_ros2_mem_required(W, H);
	void *mem = malloc(bytes);

	for (int i = 0; i < W * H; i++) {
		disp[i] = (float)(i % 15 + 1);
		depth[i] = 2.4f / disp[i];
		left[i] = (uint8_t)i;
	}
	base.made = (struct jd_ros2_made){depth, points, 0, NULL, NULL};
	memcpy(points, (float[4]){0.0f, 0.0f, 1.0f, 0.0f}, sizeof(float) * 4);
	base.made.npoints = 1;

	/* every topic composed: held until published or replaced, never more than two */
	struct jd_ros2 *r = start(1, mem, bytes);
	if (r) {
		JD_CHECK(jd_ros2_wants_made(r) == (JD_ROS2_MAKE_DEPTH | JD_ROS2_MAKE_POINTS),
			 "composing every topic wants depth and points made: %d",
			 jd_ros2_wants_made(r));
		long most = offer_all(r, &base);
		JD_CHECK(most <= 2, "the publisher held %ld frames' lendings at once", most);
		jd_ros2_stop(r);
		struct jd_ros2_counters cnt;
		jd_ros2_counters(r, &cnt);
		JD_CHECK(cnt.published > 0, "nothing published");
		printf("composing: %lu of %lu published, %ld held at most\n", cnt.published,
		       cnt.offered, most);
	}
	JD_CHECK(given_back == FRAMES && outstanding() == 0 && !twice,
		 "composing: %ld of %d given back, %ld still lent, %ld twice", given_back, FRAMES,
		 outstanding(), twice);

	/* nothing subscribed: given back at once */
	given_back = 0;
	r = start(0, mem, bytes);
	if (r) {
		JD_CHECK(jd_ros2_wants_made(r) == 0, "unsubscribed, yet wants %d",
			 jd_ros2_wants_made(r));
		long most = offer_all(r, &base);
		JD_CHECK(most == 0, "unsubscribed: %ld lendings held", most);
		jd_ros2_stop(r);
	}
	JD_CHECK(given_back == FRAMES && !twice, "unsubscribed: %ld of %d given back", given_back,
		 FRAMES);

	/* no publisher (stopped): given back at once */
	given_back = 0;
	struct jd_ros2 none = {0};
	JD_CHECK(offer_all(&none, &base) == 0 && given_back == FRAMES,
		 "no publisher: %ld of %d given back", given_back, FRAMES);
	free(mem);
	return jd_test_done("ros2.made");
}
