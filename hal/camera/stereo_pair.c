#include "stereo_pair.h"

#include <errno.h>
#include <string.h>

void jd_pair_init(struct jd_pairer *p, double fps)
{
	memset(p, 0, sizeof(*p));
	p->tol_ns = fps > 0 ? (uint64_t)(0.5e9 / fps) : 20000000ull;
}

int jd_pair_wants(const struct jd_pairer *p)
{
	return p->held[0] && !p->held[1] ? 1 : 0;
}

int jd_pair_offer(struct jd_pairer *p, int side, const struct jd_cam_frame *f,
		  struct jd_cam_frame *release)
{
	int other = !side;

	if (p->held[side]) {
		return -EINVAL; /* offer only the side jd_pair_wants() names */
	}
	p->frame[side] = *f;
	p->held[side] = 1;
	if (!p->held[other]) {
		return 0;
	}
	uint64_t a = p->frame[side].ts_ns, b = p->frame[other].ts_ns;
	if ((a > b ? a - b : b - a) <= p->tol_ns) {
		return JD_PAIR_READY;
	}
	/* Apart by more than the tolerance: the older cannot pair any more; the newer waits. */
	int older = a < b ? side : other;
	*release = p->frame[older];
	p->released = older;
	p->held[older] = 0;
	p->drops[older]++;
	return JD_PAIR_RELEASE;
}

void jd_pair_take(struct jd_pairer *p, struct jd_cam_frame *left, struct jd_cam_frame *right)
{
	*left = p->frame[0];
	*right = p->frame[1];
	p->held[0] = p->held[1] = 0;
	p->pairs++;
}

int jd_pair_flush(struct jd_pairer *p, struct jd_cam_frame out[2])
{
	int mask = 0;

	for (int s = 0; s < 2; s++) {
		if (p->held[s]) {
			out[s] = p->frame[s];
			p->held[s] = 0;
			mask |= 1 << s;
		}
	}
	return mask;
}
