// SPDX-License-Identifier: GPL-2.0
/*
 * The replay and the host table (format revision 3, HOSTS): a HOSTS entry
 * met makes .meta/.hosts over the table it names (log/hosttab.c), so that
 * every host maps it, as a log segment's .meta/.logK; and this host's
 * registration and report around a replay (log/hostreg.c).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>

#include "replay/replay.h"

int famfs_lp_hosts(struct lp_ctx *c, uint64_t idx,
		   const struct famfs_log_entry *e)
{
	(void)idx;
	if (c->dry || !c->fs->mpt[0])
		return 0;
	if (famfs_hosts_file(c->fs, le64toh(famfs_entry_hosts(e)->offset)))
		c->r->errors++;		/* printed */
	return 0;
}

int famfs_hosts_checkin(struct famfs_fs *fs, bool update, uint64_t replayed)
{
	struct famfs_hosttab t;
	unsigned slot;
	int rc;

	if (!(le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_HOSTS))
		return 0;
	rc = famfs_hosttab_open(fs, true, &t);
	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rc;
	rc = famfs_host_register(fs, &t, &slot);
	/* STUB: famfs_holds_none until famfs.ko reports held memory */
	if (!rc && update)
		rc = famfs_host_update(fs, &t, slot, replayed, famfs_holds_none,
				       NULL);
	famfs_hosttab_close(&t);
	return rc;
}
