// SPDX-License-Identifier: GPL-2.0
/*
 * The append of famfs rm, mv, chmod and chown (format revision 3): the
 * entry judged by the create cache's namespace as every replay will judge
 * it, its feature bit set, the entry appended (growing a full log), and
 * the cache brought past it.  Above cache.c and grow.c, which it calls.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>

#include "log/log.h"

int famfs_fs_append_judged(struct famfs_fs *fs, struct famfs_log_entry *e,
			   uint32_t bit, char *why)
{
	struct famfs_log_entry le;
	uint64_t idx = famfs_log_next(fs->log);
	int rc, n;

	why[0] = '\0';
	if (!fs->cache_names || !fs->cache_alloc || fs->cache_next != idx) {
		fs->cache_names_want = true;
		rc = famfs_fs_cache_update(fs);
		if (rc)
			return rc;
		idx = famfs_log_next(fs->log);
		if (!fs->cache_names || fs->cache_next != idx) {
			famfs_err("%s: the log's namespace cannot be read to its end; nothing was written",
				  fs->name);
			return -EIO;
		}
	}
	/* judged where the replay judges it: refused, nothing changes */
	rc = famfs_names_apply(fs->cache_names, idx, e, NULL, why);
	if (rc < 0) {
		famfs_fs_cache_drop(fs);
		famfs_err("%s: out of memory", fs->name);
		return rc;
	}
	if (rc)
		return -EINVAL;
	/* its feature bit before the first entry that needs it (R2), and
	 * only for one that is appended */
	rc = famfs_fs_change_feature(fs, FAMFS_FEAT_INCOMPAT, bit, 0);
	if (!rc)
		rc = famfs_log_append(fs, e);
	/* not there (or not that entry): the namespace is read again */
	if (rc || fs->last_append != idx ||
	    (n = famfs_log_entry_span(fs, idx, &le)) <= 0) {
		famfs_fs_cache_drop(fs);
		return rc ? rc : 0;
	}
	fs->cache_last_idx = idx;
	fs->cache_last_crc = le32toh(le.crc);
	fs->cache_next = idx + (unsigned)n;
	fs->cache_dirok_len = 0;
	return 0;
}
