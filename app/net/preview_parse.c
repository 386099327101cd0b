/* --preview [ADDRESS:]PORT, one rule whether or not the build has the preview server. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preview.h"

int jd_preview_parse(const char *spec, struct jd_preview_config *c)
{
	const char *colon = strrchr(spec, ':');
	char *end;
	long port;

	memset(c, 0, sizeof(*c));
	snprintf(c->bind, sizeof(c->bind), "127.0.0.1");
	c->max_clients = 4;
	if (colon) {
		if ((size_t)(colon - spec) >= sizeof(c->bind) || colon == spec) {
			return -EINVAL;
		}
		snprintf(c->bind, sizeof(c->bind), "%.*s", (int)(colon - spec), spec);
		spec = colon + 1;
	}
	port = strtol(spec, &end, 10);
	if (end == spec || *end || port < 1 || port > 65535) {
		return -EINVAL;
	}
	struct in_addr a;
	if (inet_pton(AF_INET, c->bind, &a) != 1) {
		return -EINVAL;
	}
	c->port = (int)port;
	return 0;
}
