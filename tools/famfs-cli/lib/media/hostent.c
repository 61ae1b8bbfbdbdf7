// SPDX-License-Identifier: GPL-2.0
/* The HOSTS entry (stub: failing test first) */
#include <errno.h>
#include <string.h>

#include "media/media.h"

void famfs_entry_build_hosts(struct famfs_log_entry *e, uint64_t off)
{
	(void)off;
	memset(e, 0, sizeof(*e));
}
int famfs_hosts_entry_owned(const struct famfs_log_entry *e,
			    const struct famfs_superblock *sb, char *reason)
{
	(void)e; (void)sb; (void)reason;
	return -ENOSYS;
}
int famfs_hosts_entry_check(const struct famfs_log_entry *e,
			    const struct famfs_superblock *sb, char *reason)
{
	(void)e; (void)sb; (void)reason;
	return -ENOSYS;
}
int famfs_hosts_clog_encode(const struct famfs_log_entry *e, uint64_t slot,
			    const uint8_t fs_uuid[16],
			    uint8_t out[FAMFS_CLOG_MAX_ENTRY])
{
	(void)e; (void)slot; (void)fs_uuid; (void)out;
	return -EINVAL;
}
int famfs_hosts_clog_decode(const uint8_t *b, struct famfs_log_entry *e,
			    char *reason)
{
	(void)b; (void)e; (void)reason;
	return -EINVAL;
}
