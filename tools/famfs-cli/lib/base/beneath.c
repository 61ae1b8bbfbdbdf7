// SPDX-License-Identifier: GPL-2.0
/* Opening a path beneath a directory (a mount root) without following a
 * symbolic link on the way, and a directory just made (base.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "base/base.h"

bool dirset_no_openat2;
unsigned long dirset_opens;

/* the fallback: component by component, none a symlink, none "..";
 * the last one opened with flags */
static int walk_nofollow(int rootfd, const char *d, int flags)
{
	char buf[4096], *save = NULL, *c, *after;
	int fd = openat(rootfd, ".", DIRSET_DIR), next;

	if (fd < 0)
		return -errno;
	snprintf(buf, sizeof(buf), "%s", d);
	for (c = strtok_r(buf, "/", &save); c; c = after) {
		struct stat st;

		after = strtok_r(NULL, "/", &save);
		if (!strcmp(c, "."))
			continue;
		next = !strcmp(c, "..") ? (errno = EXDEV, -1) :
		       openat(fd, c, (after ? DIRSET_DIR : flags) | O_NOFOLLOW);
		/* (a symlink with O_DIRECTORY may say ENOTDIR) */
		if (next < 0 && errno == ENOTDIR &&
		    !fstatat(fd, c, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
			errno = ELOOP;
		if (next < 0) {
			int rc = -errno;

			close(fd);
			return rc;
		}
		close(fd);
		fd = next;
	}
	return fd;
}

int dirset_open_beneath(int rootfd, const char *rel, size_t len, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(len ? flags : DIRSET_DIR),
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH,
	};
	char d[4096];
	long fd;

	dirset_opens++;
	if (len >= sizeof(d))
		return -ENAMETOOLONG;
	memcpy(d, rel, len);
	d[len] = '\0';
	if (!len)
		strcpy(d, ".");
	if (!dirset_no_openat2) {
		fd = syscall(SYS_openat2, rootfd, d, &how, sizeof(how));
		if (fd >= 0)
			return (int)fd;
		/* ENOSYS: a kernel without it; EPERM: a seccomp profile
		 * that does not know it (a directory open refused for
		 * real says EACCES, and the walk below says it again) */
		if (errno != ENOSYS && errno != EPERM)
			return -errno;
	}
	return walk_nofollow(rootfd, d, flags);
}

const char *dirset_beneath_why(int err)
{
	return err == -ELOOP ? "a symbolic link on its path, not followed" :
	       err == -EXDEV ? "its path leads out of the mount" :
	       strerror(-err);
}

int dirset_open_under(const char *mpt, const char *rel, int flags)
{
	int root = open(mpt, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;

	if (root < 0)
		return -errno;
	fd = dirset_open_beneath(root, rel, strlen(rel), flags);
	close(root);
	return fd;
}

int dirset_parent_at(int root, const char *rel, const char **name)
{
	const char *slash = strrchr(rel, '/');

	*name = slash ? slash + 1 : rel;
	return dirset_open_beneath(root, rel, slash ? (size_t)(slash - rel) : 0,
				   DIRSET_DIR);
}

int dirset_parent_beneath(const char *mpt, const char *rel, const char **name)
{
	int root = open(mpt, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;

	if (root < 0) {
		const char *slash = strrchr(rel, '/');

		*name = slash ? slash + 1 : rel;
		return -errno;
	}
	fd = dirset_parent_at(root, rel, name);
	close(root);
	return fd;
}

/* fd's directory has no name but . and .. */
static bool dir_empty(int fd)
{
	char buf[1024];
	ssize_t n = getdents64(fd, buf, sizeof(buf));

	for (ssize_t off = 0; n > 0 && off < n;) {
		struct dirent64 *de = (struct dirent64 *)(buf + off);
		const char *nm = de->d_name;

		off += de->d_reclen;
		if (!(nm[0] == '.' && (!nm[1] || (nm[1] == '.' && !nm[2]))))
			return false;
	}
	return n >= 0;
}

int dirset_open_made_dir(int pfd, const char *name)
{
	struct stat st, pst;
	int fd = openat(pfd, name, DIRSET_DIR | O_NOFOLLOW), rc;

	if (fd < 0) {
		rc = -errno;
		/* (a symlink with O_DIRECTORY may say ENOTDIR) */
		if ((rc == -ENOTDIR || rc == -ELOOP) &&
		    !fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW))
			rc = S_ISLNK(st.st_mode) ? -ELOOP : -ENOTDIR;
		return rc;
	}
	if (fstat(fd, &st) || fstat(pfd, &pst)) {
		rc = -errno;
		close(fd);
		return rc;
	}
	/* someone else's, or one with names in it: not the one made (a
	 * directory of the mount renamed to its name meanwhile) */
	if (st.st_dev != pst.st_dev || st.st_uid != geteuid() || !dir_empty(fd)) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

const char *dirset_made_why(int err)
{
	return err == -ELOOP ? "replaced by a symbolic link meanwhile (not followed)" :
	       err == -ENOTDIR ? "replaced by a file that is not a directory meanwhile" :
	       err == -ESTALE ? "replaced by another directory meanwhile (not the one made: another owner or file system, or not empty)" :
	       strerror(-err);
}
