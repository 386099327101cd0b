/* Built without Cyclone DDS: --ros2 says so at boot (CMakeLists.txt picks this file). */
#include <errno.h>
#include <stdio.h>

#include "ros2.h"

const char *jd_ros2_not_built(void)
{
	return "this jetdepth was built without Cyclone DDS (install cyclonedds-dev and "
	       "cyclonedds-tools, then rebuild)";
}

size_t jd_ros2_mem_required(int w, int h)
{
	(void)w;
	(void)h;
	return 0;
}

int jd_ros2_start(struct jd_ros2 *r, const struct jd_ros2_config *c, const struct jd_ros2_rig *rig,
		  void *mem, size_t bytes)
{
	(void)c;
	(void)rig;
	(void)mem;
	(void)bytes;
	r->impl = NULL;
	r->last = (struct jd_ros2_counters){0};
	snprintf(r->err, sizeof(r->err), "--ros2: %s", jd_ros2_not_built());
	return -ENOSYS;
}

uint64_t jd_ros2_stamp_ns(struct jd_ros2 *r, uint64_t capture_ns)
{
	(void)r;
	return capture_ns;
}

int jd_ros2_wants_made(const struct jd_ros2 *r)
{
	(void)r;
	return 0;
}

int jd_ros2_wants_read(const struct jd_ros2 *r)
{
	(void)r;
	return 0;
}

void jd_ros2_offer(struct jd_ros2 *r, const struct jd_ros2_frame *f)
{
	(void)r;
	if (f->made.release) {
		f->made.release(f->made.token); /* nothing here reads what was lent */
	}
}

void jd_ros2_counters(const struct jd_ros2 *r, struct jd_ros2_counters *out)
{
	*out = r->last;
}

void jd_ros2_stop(struct jd_ros2 *r)
{
	(void)r;
}
