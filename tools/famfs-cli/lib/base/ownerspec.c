// SPDX-License-Identifier: GPL-2.0
/* chown's OWNER[:GROUP] (famfs chown): names (looked up on this host) or
 * numbers. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"

#define REASON(...) do { if (reason) snprintf(reason, FAMFS_REASON_LEN, __VA_ARGS__); } while (0)

/* a user or group name, or a number: 0, or -EINVAL (reason) */
static int id_of(const char *s, bool group, uint32_t *id, char *reason)
{
	if (!famfs_parse_u32(s, 10, id) && *id != UINT32_MAX)
		return 0;
	if (group) {
		struct group *g = getgrnam(s);

		if (g) {
			*id = g->gr_gid;
			return 0;
		}
	} else {
		struct passwd *p = getpwnam(s);

		if (p) {
			*id = p->pw_uid;
			return 0;
		}
	}
	REASON("%.100s: no such %s on this host", s, group ? "group" : "user");
	return -EINVAL;
}

int famfs_owner_parse(const char *spec, uint32_t *valid, uint32_t *uid,
		      uint32_t *gid, char *reason)
{
	char s[512], *colon;

	*valid = *uid = *gid = 0;
	if (strlen(spec) >= sizeof(s)) {
		REASON("%.40s...: too long", spec);
		return -EINVAL;
	}
	strcpy(s, spec);
	colon = strchr(s, ':');
	if (colon)
		*colon = '\0';
	if (*s) {
		if (id_of(s, false, uid, reason))
			return -EINVAL;
		*valid |= FAMFS_SETATTR_UID;
	}
	if (colon && colon[1]) {
		if (id_of(colon + 1, true, gid, reason))
			return -EINVAL;
		*valid |= FAMFS_SETATTR_GID;
	} else if (colon && *s) {		/* OWNER: its login group */
		struct passwd *p = getpwuid(*uid);

		/* a number too (chown(1)); none here: no group, never 0 */
		if (!p) {
			REASON("%.100s: user %u has no login group on this host",
			       spec, *uid);
			return -EINVAL;
		}
		*gid = p->pw_gid;
		*valid |= FAMFS_SETATTR_GID;
	}
	if (!*valid) {
		REASON("%.100s: neither an owner nor a group", spec);
		return -EINVAL;
	}
	return 0;
}
