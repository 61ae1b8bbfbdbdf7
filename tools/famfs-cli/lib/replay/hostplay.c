// SPDX-License-Identifier: GPL-2.0
/*
 * The replay and the host table (format revision 3, HOSTS): a HOSTS entry
 * met makes .meta/.hosts over the table it names (log/hosttab.c), so that
 * every host maps it, as a log segment's .meta/.logK.
 */
#define _GNU_SOURCE
#include <endian.h>

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
