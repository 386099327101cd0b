#include "ddsc_api.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Debian's and Ubuntu's packages (libddsc0debian, libddsc0t64) name it libddsc.so.0debian;
 * upstream's builds (and ROS 2's vendored one) libddsc.so.0 */
static const char *const sonames[] = {"libddsc.so.0debian", "libddsc.so.0"};

int jd_ddsc_load(const struct jd_ddsc **out, char *err, size_t errlen)
{
	static struct jd_ddsc api;
	static int state; /* 0 not tried, 1 loaded, -1 failed */
	static char why[512];
	static const struct {
		const char *name;
		size_t offset;
	} syms[] = {
#define SYM(f, n) {#n, offsetof(struct jd_ddsc, f)}
	    SYM(create_qos, dds_create_qos),
	    SYM(delete_qos, dds_delete_qos),
	    SYM(qset_data_representation, dds_qset_data_representation),
	    SYM(qset_reliability, dds_qset_reliability),
	    SYM(qset_history, dds_qset_history),
	    SYM(qset_durability, dds_qset_durability),
	    SYM(qset_userdata, dds_qset_userdata),
	    SYM(qset_entity_name, dds_qset_entity_name),
	    SYM(strretcode, dds_strretcode),
	    SYM(create_domain, dds_create_domain),
	    SYM(create_participant, dds_create_participant),
	    SYM(create_topic, dds_create_topic),
	    SYM(create_writer, dds_create_writer),
	    SYM(get_publication_matched_status, dds_get_publication_matched_status),
	    SYM(write, dds_write),
	    SYM(delete_entity, dds_delete),
	    SYM(get_guid, dds_get_guid),
	    SYM(create_reader, dds_create_reader),
	    SYM(take, dds_take),
	    SYM(return_loan, dds_return_loan),
#undef SYM
	};

	if (state == 0) {
		const char *path = getenv("JD_DDSC_LIB");
		void *lib = NULL;
		/* never closed: Cyclone's exit handlers live in it */
		if (path && *path) {
			lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		}
		for (size_t i = 0; !lib && !(path && *path) && i < 2; i++) {
			path = sonames[i];
			lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		}
		state = lib ? 1 : -1;
		if (!lib) {
			snprintf(
			    why, sizeof(why),
			    "--ros2: Cyclone DDS's runtime: %s; install libddsc0debian (Debian) "
			    "or libddsc0t64 (Ubuntu 24.04, JetPack 7)",
			    dlerror());
		}
		for (size_t i = 0; lib && i < sizeof(syms) / sizeof(syms[0]); i++) {
			void *f = dlsym(lib, syms[i].name);
			if (!f) {
				snprintf(why, sizeof(why),
					 "--ros2: %s lacks %s: Cyclone DDS 0.10 or newer is needed",
					 path, syms[i].name);
				state = -1;
				break;
			}
			memcpy((char *)&api + syms[i].offset, &f, sizeof(f));
		}
	}
	if (state < 0) {
		snprintf(err, errlen, "%s", why);
		return -ENOENT;
	}
	*out = &api;
	return 0;
}
