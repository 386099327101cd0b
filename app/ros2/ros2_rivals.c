#include <stdio.h>
#include <string.h>

#include "ros2_rivals.h"

int jd__ros2_rivals_start(struct jd_ros2_rivals *w, const struct jd_ddsc *dds,
			  dds_entity_t participant, const char *ns)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->prefix, sizeof(w->prefix), "rt/%s%s", ns, ns[0] ? "/" : "");
	if (dds->get_guid(participant, &w->self) != DDS_RETCODE_OK) {
		return -1;
	}
	w->reader = dds->create_reader(participant, DDS_BUILTIN_TOPIC_DCPSPUBLICATION, NULL, NULL);
	return w->reader > 0 ? 0 : -1;
}

/* A topic under our namespace's prefix (rt/<ns>/...): one of ours, or one beside them. */
static int ours(const struct jd_ros2_rivals *w, const char *topic)
{
	return topic && !strncmp(topic, w->prefix, strlen(w->prefix));
}

unsigned long jd__ros2_rivals_poll(struct jd_ros2_rivals *w, const struct jd_ddsc *dds, FILE *log)
{
	enum { BATCH = 16 };
	void *buf[BATCH] = {NULL};
	dds_sample_info_t info[BATCH];

	if (w->reader <= 0) {
		return 0;
	}
	for (;;) {
		int n = dds->take(w->reader, buf, info, BATCH, BATCH);
		if (n <= 0) {
			break;
		}
		for (int i = 0; i < n; i++) {
			const dds_builtintopic_endpoint_t *e = buf[i];
			if (!info[i].valid_data || info[i].instance_state != DDS_IST_ALIVE ||
			    !ours(w, e->topic_name) ||
			    !memcmp(&e->participant_key, &w->self, sizeof(w->self))) {
				continue;
			}
			if (!w->seen++ && log) {
				fprintf(log,
					"jetdepth: ros2: warning: another participant also writes "
					"%s: two "
					"publishers in one namespace mix their frames; give each "
					"daemon "
					"its own --ros-namespace\n",
					e->topic_name + 2);
			}
		}
		dds->return_loan(w->reader, buf, n);
		if (n < BATCH) {
			break;
		}
	}
	return w->seen;
}
