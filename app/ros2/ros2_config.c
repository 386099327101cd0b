/* The ROS 2 options' defaults and checks: the same with or without Cyclone DDS built in. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ros2.h"

void jd_ros2_default(struct jd_ros2_config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->ns, sizeof(c->ns), "jetdepth");
	snprintf(c->frame_id, sizeof(c->frame_id), "jetdepth_left_optical");
}

/* ROS 2's name rules: tokens of [A-Za-z0-9_] split by '/', none starting with a digit, no
 * empty token (so no "//"). slashes: '/' allowed between tokens. */
static const char *bad_name(const char *s, int slashes)
{
	int start = 1;

	for (const char *p = s; *p; p++) {
		if (*p == '/' && slashes) {
			if (start) {
				return "an empty part ('//')";
			}
			start = 1;
			continue;
		}
		if (!isalnum((unsigned char)*p) && *p != '_') {
			return slashes ? "a character other than letters, digits, '_' and '/'"
				       : "a character other than letters, digits and '_'";
		}
		if (start && isdigit((unsigned char)*p)) {
			return "a part starting with a digit";
		}
		start = 0;
	}
	return NULL;
}

int jd_ros2_check(struct jd_ros2_config *c, char *err, size_t errlen)
{
	/* the namespace: "/robot/cell1/" -> "robot/cell1" */
	size_t n = strlen(c->ns), s = 0;
	while (s < n && c->ns[s] == '/') {
		s++;
	}
	while (n > s && c->ns[n - 1] == '/') {
		n--;
	}
	memmove(c->ns, c->ns + s, n - s);
	c->ns[n - s] = '\0';
	const char *why = bad_name(c->ns, 1);
	if (why) {
		snprintf(err, errlen, "--ros-namespace %s: not a ROS 2 namespace: %s", c->ns, why);
		return -EINVAL;
	}
	why = c->frame_id[0] ? bad_name(c->frame_id, 1) : "empty";
	if (why || c->frame_id[0] == '/') {
		snprintf(err, errlen, "--ros-frame-id '%s': not a frame id: %s", c->frame_id,
			 why ? why : "a leading '/' (tf2 frame ids have none)");
		return -EINVAL;
	}
	return 0;
}
