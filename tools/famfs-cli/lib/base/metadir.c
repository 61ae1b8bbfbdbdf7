// SPDX-License-Identifier: GPL-2.0
/* Whose meta files a mount's opening takes (metadir.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"

/* root's or this user's, and nobody else may write it: 0, else -EPERM
 * and why */
static int trusted(const struct stat *st, const char *what, char *why)
{
	if (st->st_uid != 0 && st->st_uid != geteuid()) {
		snprintf(why, FAMFS_META_WHY_LEN,
			 "%s is owned by uid %u, not by root: not taken as a meta file of the mount (whoever owns it could put any file there as the log)",
			 what, (unsigned)st->st_uid);
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, FAMFS_META_WHY_LEN,
			 "%s has mode %04o: group or others may write it, so it is not taken as a meta file of the mount",
			 what, (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

static int metadir_check(int fd, char *why);

int famfs_metadir_open(const char *mpt, char *why)
{
	return metadir_check(dirset_open_under(mpt, FAMFS_META_DIR, DIRSET_DIR),
			     why);
}

int famfs_metadir_open_at(int root, char *why)
{
	return metadir_check(dirset_open_beneath(root, FAMFS_META_DIR,
						 strlen(FAMFS_META_DIR),
						 DIRSET_DIR), why);
}

static int metadir_check(int fd, char *why)
{
	struct stat st;
	int rc;

	if (fd < 0) {
		snprintf(why, FAMFS_META_WHY_LEN, "%s", dirset_beneath_why(fd));
		return fd;
	}
	if (fstat(fd, &st)) {
		rc = -errno;
		snprintf(why, FAMFS_META_WHY_LEN, "%s", strerror(errno));
		close(fd);
		return rc;
	}
	rc = trusted(&st, FAMFS_META_DIR, why);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

int famfs_meta_openat(int mfd, const char *name, int flags, mode_t mode,
		      char *why)
{
	char what[64];
	struct stat st;
	int fd = openat(mfd, name, flags | O_NOFOLLOW | O_CLOEXEC, mode), rc;

	if (fd < 0) {
		rc = -errno;
		snprintf(why, FAMFS_META_WHY_LEN, "%s",
			 errno == ELOOP ? "a symbolic link, not followed" :
			 strerror(errno));
		return rc;
	}
	if (fstat(fd, &st)) {
		rc = -errno;
		snprintf(why, FAMFS_META_WHY_LEN, "%s", strerror(errno));
		close(fd);
		return rc;
	}
	snprintf(what, sizeof(what), "%s/%s", FAMFS_META_DIR, name);
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, FAMFS_META_WHY_LEN, "%s is not a regular file",
			 what);
		close(fd);
		return -EPERM;
	}
	rc = trusted(&st, what, why);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

int famfs_meta_open(const char *mpt, const char *rel, int flags, char *why)
{
	const char *slash = strrchr(rel, '/');
	int mfd = famfs_metadir_open(mpt, why), fd;

	if (mfd < 0)
		return mfd;
	fd = famfs_meta_openat(mfd, slash ? slash + 1 : rel, flags, 0, why);
	close(mfd);
	return fd;
}
