// SPDX-License-Identifier: GPL-2.0
/*
 * famfs devices label (issue 16, a debugging aid): a member superblock of
 * an open file system written on a device, by the instance that holds the
 * master role, refused when its identity (index, device uuid) is a live
 * member's -- the log's, the mount's or another device's on this host.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uuid/uuid.h>

#include "ops/ops.h"

/* refused: member index (or device uuid) of fs is another device's */
static int taken(struct famfs_fs *fs, const char *path, uint32_t index,
		 unsigned which, const uint8_t du[16], const char *where)
{
	char fsu[37], u[37];

	famfs_uuid_str(fs->sb->fs_uuid, fsu);
	famfs_uuid_str(du, u);
	famfs_err("%s: not labelled as member %u: member %u of file system %s (device uuid %s) is %s; two devices with one identity are refused by every mount (-f labels it anyway)",
		  path, index, which, fsu, u, where);
	return -EEXIST;
}

/*
 * The identity (index, device uuid) path is to get: no live member of fs
 * on another device may have either -- a member the log added, one
 * attached to the mount (a devadd whose entry is not written yet), one
 * whose member superblock another device of this host holds.  0, or
 * -EEXIST / -errno (printed).
 */
static int identity_free(struct famfs_fs *fs, const char *path, uint32_t index,
			 const uint8_t *dev_uuid)
{
	struct famfs_ioc_dev_info info;
	struct famfs_devtab *t;
	char where[4200];
	int rc, q;

	rc = famfs_fs_devs_update(fs);
	if (rc)
		return rc;
	for (unsigned i = 1; i < fs->devs.ndevs; i++) {
		const struct famfs_logdev *d = famfs_logdevs_get(&fs->devs, i);

		if (d && (i == index ||
			  (dev_uuid && !memcmp(d->dev_uuid, dev_uuid, 16))))
			return taken(fs, path, index, i, d->dev_uuid,
				     "added by its log");
	}
	if (fs->mpt[0]) {
		rc = famfs_mount_dev_get(fs->mpt, index, &info);
		/* the device famfs.ko reports attached there is not path's */
		if (!rc && !famfs_node_is(path, &info)) {
			famfs_err("%s: not labelled as member %u: device %u:%u is attached to the mount at %s as member %u (a famfs devadd not finished?); -f labels it anyway",
				  path, index, info.major, info.minor, fs->mpt,
				  index);
			return -EEXIST;
		}
	}
	t = malloc(sizeof(*t));
	if (!t) {
		famfs_err("%s: out of memory", path);
		return -ENOMEM;
	}
	/* every member superblock of fs on this host (two that claim one
	 * identity already are not this label's business: quiet) */
	q = famfs_quiet;
	famfs_quiet = 1;
	famfs_devtab_scan(fs->sb->fs_uuid, NULL, 0, t);
	famfs_quiet = q;
	rc = 0;
	for (unsigned i = 1; i < FAMFS_MAX_DEVS && !rc; i++) {
		const struct famfs_found_dev *d = &t->dev[i];

		if (!d->present || famfs_same_device(d->path, path) ||
		    (i != index &&
		     (!dev_uuid || memcmp(d->dev_uuid, dev_uuid, 16))))
			continue;
		snprintf(where, sizeof(where), "on %s", d->path);
		rc = taken(fs, path, index, i, d->dev_uuid, where);
	}
	free(t);
	return rc;
}

static int label_locked(struct famfs_fs *fs, const char *primary,
			const char *path, uint32_t index,
			const uint8_t *dev_uuid, bool force, uint8_t out[16])
{
	union {
		struct famfs_superblock sb;
		struct famfs_member_sb m;
	} h;
	struct famfs_member_sb m;
	uint64_t size;
	int rc;

	/* a write of the file system's, as an append is: the instance that
	 * holds the master role (a clone of the master is refused here) */
	rc = famfs_master_check(fs);
	if (rc)
		return rc;
	/* a claim here (the role back from another host) dropped the lines
	 * of the segments mapped so far: the others are mapped, and dropped,
	 * now, or the next opening -- the master instance, which drops none
	 * -- would read what the other host wrote there through stale ones */
	if (fs->lines_forgotten)
		(void)famfs_log_discover(fs);
	rc = famfs_dev_read_head(path, &h, sizeof(h), &size);
	if (rc) {
		famfs_err("%s: cannot read: %s", path, strerror(-rc));
		return rc;
	}
	if (!force && (famfs_sb_is_famfs(&h.sb) || famfs_member_is_member(&h.m))) {
		famfs_err("%s: holds a famfs %s superblock; -f overwrites it", path,
			  famfs_sb_is_famfs(&h.sb) ? "file system" : "member");
		return -EEXIST;
	}
	/* what else it holds (libblkid), its size: mkfs's and devadd's rules */
	rc = famfs_member_vet(path, primary, force, &size);
	if (rc)
		return rc;
	if (!force) {
		rc = identity_free(fs, path, index, dev_uuid);
		if (rc)
			return rc;
	}
	if (dev_uuid)
		memcpy(out, dev_uuid, 16);
	else
		uuid_generate(out);
	famfs_member_init(&m, fs->sb->fs_uuid, out, index,
			  le64toh(fs->sb->ctime), size);
	return famfs_member_write(path, &m);
}

int famfs_member_label(struct famfs_fs *fs, const char *primary,
		       const char *path, uint32_t index,
		       const uint8_t *dev_uuid, bool force, uint8_t out[16])
{
	char host[37], master[37];
	int rc;

	if (famfs_same_device(primary, path)) {
		famfs_err("%s: is the primary device %s itself", path, primary);
		return -EINVAL;
	}
	if (index < 1 || index >= FAMFS_MAX_DEVS) {
		famfs_err("%s: member index %u: want 1..%u", path, index,
			  FAMFS_MAX_DEVS - 1);
		return -EINVAL;
	}
	if (!fs->host_id_ok || !fs->master) {
		famfs_uuid_str(fs->host_uuid, host);
		famfs_uuid_str(fs->sb->master_uuid, master);
		famfs_err("%s: this host (uuid %s) is a client of %s; only the master (uuid %s) labels a member of it",
			  path, fs->host_id_ok ? host : "unknown", fs->name, master);
		return -EPERM;
	}
	rc = famfs_fs_lock(fs);
	if (rc)
		return rc;
	rc = label_locked(fs, primary, path, index, dev_uuid, force, out);
	famfs_fs_unlock(fs);
	return rc;
}
