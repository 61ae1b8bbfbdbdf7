/* SPDX-License-Identifier: GPL-2.0 */
/* A new path judged by the log (pathcheck.c, issue 27 item 3). */
#ifndef FAMFS_PATHCHECK_H
#define FAMFS_PATHCHECK_H

#include "libfamfs.h"

/* Under the log lock, the create cache up to date: rel (p: its full name)
 * against the log's paths.  0 if the log has neither rel nor a parent of
 * it as a file; 1 (*idx, may be NULL) if it has rel as a directory and
 * dir_ok; else -EEXIST (the log has rel), -ENOTDIR (a parent as a file),
 * or another -errno, printed. */
int famfs_path_check(struct famfs_fs *fs, const char *rel, const char *p,
		     bool dir_ok, uint64_t *idx);

#endif
