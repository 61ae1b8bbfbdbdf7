// SPDX-License-Identifier: GPL-2.0
/* The namespace calls on a famfs mount (issue 29): FAMFSIOC_NS, which a
 * mount with the option "protect" leaves as the only way to create,
 * remove, rename, chmod or chown there, or the plain system call when
 * famfs.ko has no FAMFSIOC_NS (ENOTTY: an older module, or not a famfs
 * file) or refuses this process (EPERM: no CAP_SYS_ADMIN; an unprotected
 * mount then still takes the plain call, a protected one refuses it as
 * well).  Every place the tool changes a mount's namespace calls these. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev/dev.h"

/* -1 and errno, or what the ioctl returned; *fallback when the plain call
 * is to be made instead */
static int ns_call(int fd, struct famfs_ioc_ns *a, bool *fallback)
{
	int rc;

	*fallback = false;
	if (!famfs_kernel->ns) {
		*fallback = true;
		return -1;
	}
	rc = famfs_kernel->ns(fd, a);
	if (rc >= 0)
		return rc;
	if (rc == -ENOTTY || rc == -EPERM)
		*fallback = true;
	errno = -rc;
	return -1;
}

/* a single path component in a directory descriptor: what FAMFSIOC_NS
 * takes (anything else, e.g. AT_FDCWD or "a/b": the plain call) */
static bool one_name(int dfd, const char *name, struct famfs_ioc_ns *a,
		     bool second)
{
	size_t n = strlen(name);

	if (dfd < 0 || !n || n > FAMFS_NS_NAME_MAX || strchr(name, '/') ||
	    !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	if (second) {
		a->new_name = (uint64_t)(uintptr_t)name;
		a->new_name_len = (uint32_t)n;
	} else {
		a->name = (uint64_t)(uintptr_t)name;
		a->name_len = (uint32_t)n;
	}
	return true;
}

int famfs_mnt_creat(int dfd, const char *name, mode_t mode)
{
	struct famfs_ioc_ns a = { .op = FAMFS_NS_CREATE, .valid = FAMFS_NS_MODE,
				  .mode = mode & 07777 };
	bool fb = true;
	int rc = -1;

	if (one_name(dfd, name, &a, false))
		rc = ns_call(dfd, &a, &fb);
	if (!fb)
		return rc;
	return openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC |
		      O_NOFOLLOW, mode);
}

int famfs_mnt_mkdirat(int dfd, const char *name, mode_t mode)
{
	struct famfs_ioc_ns a = { .op = FAMFS_NS_MKDIR, .valid = FAMFS_NS_MODE,
				  .mode = mode & 07777 };
	bool fb = true;
	int rc = -1;

	if (one_name(dfd, name, &a, false))
		rc = ns_call(dfd, &a, &fb);
	return fb ? mkdirat(dfd, name, mode) : rc;
}

int famfs_mnt_unlinkat(int dfd, const char *name, int flags)
{
	struct famfs_ioc_ns a = {
		.op = flags & AT_REMOVEDIR ? FAMFS_NS_RMDIR : FAMFS_NS_UNLINK,
	};
	bool fb = true;
	int rc = -1;

	if (!(flags & ~AT_REMOVEDIR) && one_name(dfd, name, &a, false))
		rc = ns_call(dfd, &a, &fb);
	return fb ? unlinkat(dfd, name, flags) : rc;
}

int famfs_mnt_renameat2(int ofd, const char *oname, int nfd, const char *nname,
		       unsigned int flags)
{
	struct famfs_ioc_ns a = { .op = FAMFS_NS_RENAME, .new_dir_fd = nfd };
	bool fb = true;
	int rc = -1;

	if (flags & RENAME_NOREPLACE)
		a.flags = FAMFS_NS_NOREPLACE;
	if (!(flags & ~RENAME_NOREPLACE) && nfd >= 0 &&
	    one_name(ofd, oname, &a, false) && one_name(nfd, nname, &a, true))
		rc = ns_call(ofd, &a, &fb);
	return fb ? renameat2(ofd, oname, nfd, nname, flags) : rc;
}

int famfs_mnt_fchmod(int fd, mode_t mode)
{
	struct famfs_ioc_ns a = { .op = FAMFS_NS_SETATTR, .valid = FAMFS_NS_MODE,
				  .mode = mode & 07777 };
	bool fb;
	int rc = ns_call(fd, &a, &fb);

	return fb ? fchmod(fd, mode) : rc;
}

int famfs_mnt_fchown(int fd, uid_t uid, gid_t gid)
{
	struct famfs_ioc_ns a = { .op = FAMFS_NS_SETATTR };
	bool fb;
	int rc;

	if (uid != (uid_t)-1) {
		a.valid |= FAMFS_NS_UID;
		a.uid = uid;
	}
	if (gid != (gid_t)-1) {
		a.valid |= FAMFS_NS_GID;
		a.gid = gid;
	}
	if (!a.valid)
		return 0;
	rc = ns_call(fd, &a, &fb);
	return fb ? fchown(fd, uid, gid) : rc;
}
