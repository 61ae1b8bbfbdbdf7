// SPDX-License-Identifier: GPL-2.0
/* famfs rm, mv, chmod, chown (format revision 3): declared, not
 * implemented yet -- every call fails. */
#define _GNU_SOURCE
#include <errno.h>

#include "ops/ops.h"

int famfs_remove(struct famfs_fs *fs, const char *rel, bool recursive)
{
	(void)fs, (void)rel, (void)recursive;
	return -ENOSYS;
}

int famfs_rename(struct famfs_fs *fs, const char *from, const char *to)
{
	(void)fs, (void)from, (void)to;
	return -ENOSYS;
}

int famfs_setattr(struct famfs_fs *fs, const char *rel, uint32_t valid,
		  const struct famfs_modespec *mode, uint32_t uid, uint32_t gid)
{
	(void)fs, (void)rel, (void)valid, (void)mode, (void)uid, (void)gid;
	return -ENOSYS;
}
