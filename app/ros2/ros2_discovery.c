/*
 * Discovery as ROS 2 sets it up, so that jetdepth finds (and is found by) the nodes of the
 * robot whatever their ROS 2 release:
 *  - ROS_AUTOMATIC_DISCOVERY_RANGE (Jazzy and later) and ROS_STATIC_PEERS, turned into the
 *    Cyclone configuration rmw_cyclonedds makes of them: SUBNET (multicast, plus the static
 *    peers), LOCALHOST (no multicast; this host and the static peers as unicast peers, on
 *    every interface, so a peer that advertises only its LAN address is still reached), OFF
 *    (no discovery: a domain tag nobody else has), SYSTEM_DEFAULT (Cyclone's own);
 *  - else ROS_LOCALHOST_ONLY=1, or nothing set (jetdepth's default): this host only, in a
 *    form both kinds of host-only peers accept. Humble's ROS_LOCALHOST_ONLY binds its
 *    nodes to the loopback interface and ignores a peer without a loopback address; Jazzy's
 *    LOCALHOST range keeps every interface and advertises the LAN address, which a
 *    loopback-only participant ignores. So jetdepth listens on the loopback interface and,
 *    where one is up, the LAN interface Cyclone would pick, with unicast discovery to this
 *    host: measured against subscribers configured as each release's rmw_cyclonedds does.
 * CYCLONEDDS_URI is appended, as rmw_cyclonedds does: its settings add to or override these.
 * Samples of up to 64 KiB a datagram in every case: fewer fragments for images and clouds.
 */
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ros2.h"

#define GENERAL_SIZE "<MaxMessageSize>65500B</MaxMessageSize>"

/* Append to out (cap bytes); @retval 0 or -ENOSPC */
static int add(char *out, size_t cap, const char *s)
{
	size_t n = strlen(out), k = strlen(s);

	if (n + k + 1 > cap) {
		return -ENOSPC;
	}
	memcpy(out + n, s, k + 1);
	return 0;
}

/* This host only: loopback (and the LAN interface, %s), unicast to this host's ports. */
static const char this_host[] =
    "<CycloneDDS><Domain Id=\"any\"><General><Interfaces><NetworkInterface "
    "address=\"127.0.0.1\"/>%s</Interfaces><AllowMulticast>false</AllowMulticast>" GENERAL_SIZE
    "</General><Discovery><ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>32"
    "</MaxAutoParticipantIndex><Peers><Peer address=\"127.0.0.1\"/></Peers></Discovery>"
    "</Domain></CycloneDDS>";

/* An IPv4 interface that is up and not the loopback: Cyclone's autodetermine finds one. */
static int lan_interface_up(void)
{
	struct ifaddrs *all, *i;
	int found = 0;

	if (getifaddrs(&all) != 0) {
		return 0;
	}
	for (i = all; i && !found; i = i->ifa_next) {
		found = i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
			(i->ifa_flags & IFF_UP) && !(i->ifa_flags & IFF_LOOPBACK);
	}
	freeifaddrs(all);
	return found;
}

static int add_this_host(char *xml, size_t cap)
{
	char one[1024];

	snprintf(one, sizeof(one), this_host,
		 lan_interface_up() ? "<NetworkInterface autodetermine=\"true\"/>" : "");
	return add(xml, cap, one);
}

/*
 * ROS_STATIC_PEERS: addresses separated by ';' (host names or IP addresses), each checked
 * to hold nothing that could end the XML attribute. @retval the count, or -EINVAL (said)
 */
static int static_peers(const char *list, char *xml, size_t cap, char *err, size_t errlen)
{
	int n = 0;

	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ';');
		size_t k = end ? (size_t)(end - p) : strlen(p);
		char peer[256];

		if (k >= sizeof(peer)) {
			snprintf(err, errlen, "ROS_STATIC_PEERS: an address of %zu characters", k);
			return -EINVAL;
		}
		memcpy(peer, p, k);
		peer[k] = '\0';
		for (size_t i = 0; i < k; i++) {
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				    ".-:[]_",
				    peer[i])) {
				snprintf(err, errlen,
					 "ROS_STATIC_PEERS: '%s': not a host name or IP address",
					 peer);
				return -EINVAL;
			}
		}
		if (k) {
			char one[300];
			snprintf(one, sizeof(one), "<Peer address=\"%s\"/>", peer);
			if (add(xml, cap, one)) {
				snprintf(err, errlen, "ROS_STATIC_PEERS: too many addresses");
				return -EINVAL;
			}
			n++;
		}
		p = end ? end + 1 : NULL;
	}
	return n;
}

int jd_ros2_discovery(char *xml, size_t cap, char *said, size_t saidlen, char *err, size_t errlen)
{
	const char *range = getenv("ROS_AUTOMATIC_DISCOVERY_RANGE");
	const char *peers = getenv("ROS_STATIC_PEERS");
	const char *only = getenv("ROS_LOCALHOST_ONLY");
	const char *uri = getenv("CYCLONEDDS_URI");
	char peer_xml[4096] = "";
	int rc = 0;

	xml[0] = '\0';
	int npeers = static_peers(peers, peer_xml, sizeof(peer_xml), err, errlen);
	if (npeers < 0) {
		return -EINVAL;
	}
	if (range && *range) {
		int localhost = !strcmp(range, "LOCALHOST"), off = !strcmp(range, "OFF");
		int subnet = !strcmp(range, "SUBNET"), system = !strcmp(range, "SYSTEM_DEFAULT");
		if (!localhost && !off && !subnet && !system) {
			snprintf(
			    err, errlen,
			    "ROS_AUTOMATIC_DISCOVERY_RANGE=%s: expected SUBNET, LOCALHOST, OFF or "
			    "SYSTEM_DEFAULT",
			    range);
			return -EINVAL;
		}
		snprintf(said, saidlen, "ROS_AUTOMATIC_DISCOVERY_RANGE=%s%s%s%s", range,
			 npeers && (subnet || localhost) ? ", static peers " : "",
			 npeers && (subnet || localhost) ? peers : "",
			 npeers && (off || system) ? " (ROS_STATIC_PEERS ignored, as ROS 2 does)"
						   : "");
		if (!system) {
			char tag[64];
			snprintf(tag, sizeof(tag), "<Tag>ros_discovery_off_%ld</Tag>",
				 (long)getpid());
			rc |=
			    add(xml, cap, "<CycloneDDS><Domain Id=\"any\"><General>" GENERAL_SIZE);
			rc |= add(xml, cap, subnet ? "" : "<AllowMulticast>false</AllowMulticast>");
			rc |= add(xml, cap, "</General><Discovery>");
			rc |= add(xml, cap,
				  off ? "<ParticipantIndex>none</ParticipantIndex>"
				      : "<ParticipantIndex>auto</ParticipantIndex>"
					"<MaxAutoParticipantIndex>32</MaxAutoParticipantIndex>");
			rc |= add(xml, cap, off ? tag : "");
			if (localhost || (subnet && npeers)) {
				rc |= add(xml, cap, "<Peers>");
				rc |=
				    add(xml, cap, localhost ? "<Peer address=\"localhost\"/>" : "");
				rc |= add(xml, cap, peer_xml);
				rc |= add(xml, cap, "</Peers>");
			}
			rc |= add(xml, cap, "</Discovery></Domain></CycloneDDS>");
		}
	} else if (only && !strcmp(only, "1")) {
		snprintf(said, saidlen, "ROS_LOCALHOST_ONLY=1: this host only");
		rc |= add_this_host(xml, cap);
	} else if (uri && *uri) {
		snprintf(said, saidlen, "CYCLONEDDS_URI");
	} else {
		snprintf(said, saidlen,
			 "this host only (the default; ROS_AUTOMATIC_DISCOVERY_RANGE "
			 "or CYCLONEDDS_URI to widen it)");
		rc |= add_this_host(xml, cap);
	}
	if (uri && *uri && xml[0]) {
		rc |= add(xml, cap, ",");
		rc |= add(xml, cap, uri);
		size_t n = strlen(said);
		snprintf(said + n, saidlen - n, ", then CYCLONEDDS_URI");
	}
	if (rc) {
		snprintf(err, errlen, "the DDS configuration is longer than %zu bytes", cap);
		return -EINVAL;
	}
	return 0;
}
