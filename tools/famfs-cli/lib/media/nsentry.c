// SPDX-License-Identifier: GPL-2.0
/* The namespace entries of format revision 3 (famfs_format.h): DELETE,
 * RENAME, SETATTR.  Declared, not implemented yet: every call fails. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <string.h>

#include "media/media.h"

bool famfs_entry_is_ns(unsigned type)
{
	(void)type;
	return false;
}

uint32_t famfs_ns_feature(unsigned type)
{
	(void)type;
	return 0;
}

const char *famfs_ns_name(unsigned type)
{
	(void)type;
	return "?";
}

int famfs_ns_get(const struct famfs_log_entry *e, struct famfs_ns *ns)
{
	(void)e;
	memset(ns, 0, sizeof(*ns));
	return -ENOSYS;
}

const char *famfs_entry_path(const struct famfs_log_entry *e)
{
	(void)e;
	return "";
}

int famfs_entry_build_delete(struct famfs_log_entry *e, uint64_t object,
			     unsigned kind, const char *path)
{
	(void)object, (void)kind, (void)path;
	memset(e, 0, sizeof(*e));
	return -ENOSYS;
}

int famfs_entry_build_rename(struct famfs_log_entry *e, uint64_t object,
			     unsigned kind, const char *from, const char *to)
{
	(void)object, (void)kind, (void)from, (void)to;
	memset(e, 0, sizeof(*e));
	return -ENOSYS;
}

int famfs_entry_build_setattr(struct famfs_log_entry *e, uint64_t object,
			      unsigned kind, const char *path, uint32_t valid,
			      uint32_t mode, uint32_t uid, uint32_t gid)
{
	(void)object, (void)kind, (void)path, (void)valid, (void)mode;
	(void)uid, (void)gid;
	memset(e, 0, sizeof(*e));
	return -ENOSYS;
}

int famfs_ns_bit(unsigned type, const struct famfs_superblock *sb,
		 char *reason)
{
	(void)type, (void)sb, (void)reason;
	return -ENOSYS;
}

int famfs_ns_check(const struct famfs_log_entry *e, uint64_t index,
		   const struct famfs_superblock *sb, char *reason)
{
	(void)e, (void)index, (void)sb, (void)reason;
	return -ENOSYS;
}

int famfs_ns_clog_encode(const struct famfs_log_entry *e, uint64_t slot,
			 const uint8_t fs_uuid[16],
			 uint8_t out[FAMFS_CLOG_MAX_ENTRY], char *reason)
{
	(void)e, (void)slot, (void)fs_uuid, (void)out, (void)reason;
	return -ENOSYS;
}

int famfs_ns_clog_decode(const uint8_t *b, struct famfs_log_entry *e,
			 char *reason)
{
	(void)b, (void)e, (void)reason;
	return -ENOSYS;
}
