/*
 * Cyclone DDS's runtime (libddsc.so.0debian as Debian and Ubuntu ship it, else libddsc.so.0),
 * loaded at boot by --ros2 rather than linked: the binary and the .deb work on a board
 * without it (the package recommends it), and --ros2 says which package to install. The
 * calls the publisher makes, typed from Cyclone's own header. $JD_DDSC_LIB names another
 * library (tests).
 */
#ifndef JD_APP_DDSC_API_H
#define JD_APP_DDSC_API_H

#include <stddef.h>

#include <dds/dds.h>

struct jd_ddsc {
	__typeof__(&dds_create_qos) create_qos;
	__typeof__(&dds_delete_qos) delete_qos;
	__typeof__(&dds_qset_data_representation) qset_data_representation;
	__typeof__(&dds_qset_reliability) qset_reliability;
	__typeof__(&dds_qset_history) qset_history;
	__typeof__(&dds_qset_durability) qset_durability;
	__typeof__(&dds_qset_userdata) qset_userdata;
	__typeof__(&dds_qset_entity_name) qset_entity_name;
	__typeof__(&dds_strretcode) strretcode;
	__typeof__(&dds_create_domain) create_domain;
	__typeof__(&dds_create_participant) create_participant;
	__typeof__(&dds_create_topic) create_topic;
	__typeof__(&dds_create_writer) create_writer;
	__typeof__(&dds_get_publication_matched_status) get_publication_matched_status;
	__typeof__(&dds_write) write;
	__typeof__(&dds_delete) delete_entity;
	__typeof__(&dds_get_guid) get_guid;
	__typeof__(&dds_create_reader) create_reader;
	__typeof__(&dds_take) take;
	__typeof__(&dds_return_loan) return_loan;
};

/**
 * Load the library and every call (once; later calls return the first result).
 * @retval 0, or -ENOENT with err naming the library, why, and the package to install
 */
int jd_ddsc_load(const struct jd_ddsc **out, char *err, size_t errlen);

#endif
