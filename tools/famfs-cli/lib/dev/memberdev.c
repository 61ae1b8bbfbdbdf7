// SPDX-License-Identifier: GPL-2.0
/*
 * Making a device a member (issue 16): the checks famfs mkfs and famfs
 * devadd make before they write a member superblock -- the same safety
 * rules as mkfs on a primary -- and writing it.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <uuid/uuid.h>

#include "dev/dev.h"

bool famfs_same_device(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) || stat(b, &sb))
		return false;
	if ((S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode)) ||
	    (S_ISCHR(sa.st_mode) && S_ISCHR(sb.st_mode)))
		return sa.st_rdev == sb.st_rdev;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int famfs_member_vet(const char *path, const char *primary, bool force,
		     uint64_t *size)
{
	union {
		struct famfs_superblock sb;
		struct famfs_member_sb m;
	} *h;
	char what[256], u[37];
	struct famfs_dev d;
	struct famfs_map map;
	int rc;

	if (famfs_same_device(path, primary)) {
		famfs_err("%s: is the primary device (%s) of this file system: a member must be another device",
			  path, primary);
		return -EINVAL;
	}
	rc = famfs_dev_open(path, false, &d);
	if (rc)
		return rc;
	*size = d.size & ~(FAMFS_ALLOC_UNIT - 1);
	if (*size < FAMFS_MEMBER_MIN_SIZE) {
		famfs_err("%s: too small for a member: %llu bytes, need at least %llu (its superblock unit and one data unit)",
			  path, (unsigned long long)d.size,
			  (unsigned long long)FAMFS_MEMBER_MIN_SIZE);
		rc = -ENOSPC;
		goto out;
	}
	rc = famfs_dev_map(&d, 0, FAMFS_ALLOC_UNIT, &map);
	if (rc)
		goto out;
	h = map.addr;
	if (famfs_sb_is_famfs(&h->sb) && !force) {
		famfs_uuid_str(h->sb.fs_uuid, u);
		famfs_err("%s: already holds a famfs file system (uuid %s); use -f to overwrite it",
			  path, u);
		rc = -EEXIST;
	} else if (famfs_member_is_member(&h->m) && !force) {
		famfs_uuid_str(h->m.fs_uuid, u);
		famfs_err("%s: already a member (index %u) of famfs file system %s; use -f to overwrite it",
			  path, le32toh(h->m.index), u);
		rc = -EEXIST;
	}
	famfs_map_unmap(&map);
	if (rc)
		goto out;
	rc = famfs_dev_probe(&d, what, sizeof(what));
	if (rc > 0 && !force) {
		famfs_err("%s: holds %s, which making it a famfs member would destroy; use -f to overwrite it",
			  path, what);
		rc = -EEXIST;
	} else if (rc > 0) {
		famfs_warn("%s: overwriting %s (-f)", path, what);
		rc = 0;
	}
out:
	famfs_dev_close(&d);
	return rc;
}

int famfs_member_make(const char *path, const struct famfs_superblock *sb,
		      uint32_t index, uint64_t size, uint8_t dev_uuid[16])
{
	struct famfs_member_sb m;

	uuid_generate(dev_uuid);
	famfs_member_init(&m, sb->fs_uuid, dev_uuid, index,
			  le64toh(sb->ctime), size);
	return famfs_member_write(path, &m);
}
