/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A mount's meta files (.meta/.superblock, .meta/.log, .meta/.logK) are what
 * every replay and every create of the master trusts, so they are taken
 * only from a .meta that nobody but root (or this user) can put a name in:
 * opened beneath the mount root without following a link, .meta a
 * directory owned by root or by this process's effective uid that group
 * and others may not write, each file a regular file of the same owners
 * that group and others may not write.  famfs has renames and hard links,
 * and its root may be writable by others (mode=1777): a .meta made by a
 * user, or one others may write, would let her famfs file be the log.
 */
#ifndef FAMFS_METADIR_H
#define FAMFS_METADIR_H
#include <stddef.h>
#include <sys/types.h>

#define FAMFS_META_WHY_LEN 320

/* .meta of the mount at mpt: fd, or -errno and why (-EPERM: there, but
 * not trusted: whose it is, or its mode) */
int famfs_metadir_open(const char *mpt, char *why);
/* name (one component) in mfd, a .meta from famfs_metadir_open, opened
 * with flags | O_NOFOLLOW | O_CLOEXEC (mode for O_CREAT) and judged as
 * above: fd, or -errno and why (-ENOENT: not there) */
int famfs_meta_openat(int mfd, const char *name, int flags, mode_t mode,
		      char *why);
/* both at once, rel being ".meta/NAME" */
int famfs_meta_open(const char *mpt, const char *rel, int flags, char *why);
#endif
