// SPDX-License-Identifier: GPL-2.0
/*
 * A new path judged by the log (issue 27 item 3), for famfs_file_create
 * and famfs_mkdir (ops.c): the master's local tree is no guide -- a file
 * removed here without famfs rm is still logged, a directory made here
 * without famfs is not -- so the create cache's path table (log/summary.c),
 * or the namespace the log builds when it has deletes or renames
 * (log/names.c), brought up to date under the log lock, says what the log
 * has at the path and above it.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "ops/ops.h"

/* What the log has at rel (the create cache's path table, up to date
 * under the lock): 1 with *idx and *type (FAMFS_LOG_FILE, _MKDIR), 0 if
 * nothing, or -errno (printed).  A page of the summary found damaged: it
 * is removed, and the cache rebuilt from the log, once. */
static int logged_as(struct famfs_fs *fs, const char *rel, uint64_t *idx,
		     int *type)
{
	int rc;

	for (int tries = 0;; tries++) {
		/* dropped since the caller's update: an append (a mkdir's)
		 * claimed a record another instance held (role/) */
		if (!fs->cache_sum && !fs->cache_names) {
			rc = famfs_fs_cache_update(fs);
			if (rc)
				return rc;
		}
		/* deletes and renames in the log: its namespace says (a
		 * directory only implied by paths beneath it is not logged) */
		if (fs->cache_names)
			return famfs_names_lookup(fs->cache_names, rel, idx, type) &&
			       *idx != FAMFS_NAMES_IMPLIED;
		rc = famfs_summary_find_type(fs->cache_sum, fs, rel, idx, type);
		if (rc >= 0)
			return rc;
		famfs_fs_cache_drop(fs);
		if (tries) {
			famfs_err("%s/%s: the path table of the create cache is damaged",
				  fs->mpt, rel);
			return rc;
		}
		rc = famfs_fs_cache_update(fs);
		if (rc)
			return rc;
	}
}

static const char *kind(int type)
{
	return type == FAMFS_LOG_FILE ? "file" :
	       type == FAMFS_LOG_MKDIR ? "directory" : "entry of another type";
}

/*
 * Issue 27 item 3: a new path rel (p: its full name) is judged by the
 * log, not by the local tree, whose files may have been removed and whose
 * directories may have been made without famfs.  0 if the log has
 * neither rel nor one of its parents as a file; 1 (*idx) if it has rel as
 * a directory and dir_ok (mkdir: the caller decides); else -EEXIST (the
 * log has rel) or -ENOTDIR (it has a parent as a file), printed with what
 * the log has there; another -errno (printed) if the table cannot say.
 *
 * The parents are looked up once per directory a batch creates in: the
 * last directory found to have no file among its prefixes is kept
 * (fs->cache_dirok), and forgotten when a file entry is read or made
 * that could be one of them.
 */
int famfs_path_check(struct famfs_fs *fs, const char *rel, const char *p,
		      bool dir_ok, uint64_t *idx)
{
	const char *slash = strrchr(rel, '/');
	char a[FAMFS_LOG_PATH_MAX];
	uint64_t own;
	size_t plen;
	int rc, type;

	if (!idx)
		idx = &own;
	rc = logged_as(fs, rel, idx, &type);
	if (rc < 0)
		return rc;
	if (rc) {
		if (dir_ok && type == FAMFS_LOG_MKDIR)
			return 1;
		famfs_err("%s: already in the log, as a %s (entry %llu)", p,
			  kind(type), (unsigned long long)*idx);
		return -EEXIST;
	}
	if (!slash)
		return 0;
	plen = (size_t)(slash - rel);
	if (plen == fs->cache_dirok_len && !memcmp(fs->cache_dirok, rel, plen))
		return 0;
	memcpy(a, rel, plen);
	a[plen] = '\0';
	for (char *s = a;;) {
		char *next = strchr(s, '/');
		uint64_t at;

		if (next)
			*next = '\0';
		rc = logged_as(fs, a, &at, &type);
		if (rc > 0 && type != FAMFS_LOG_MKDIR) {
			famfs_err("%s: not created: %s is a %s in the log (entry %llu), not a directory",
				  p, a, kind(type), (unsigned long long)at);
			return -ENOTDIR;
		}
		if (rc < 0)
			return rc;
		if (!next)
			break;
		*next = '/';
		s = next + 1;
	}
	memcpy(fs->cache_dirok, a, plen + 1);
	fs->cache_dirok_len = plen;
	return 0;
}
