// SPDX-License-Identifier: GPL-2.0
/*
 * Is a member the log added the device famfs.ko has at its index?  An
 * attach asks famfs.ko whether an index is attached, not which device is
 * there, and famfs.ko keeps a member until the unmount: a host whose
 * device table once named another device at an index (a later duplicate
 * DEVADD of it, attached while the first did not read whole here, then
 * put back by the first: devs.c) keeps that device.  Its files on the
 * member would be another device's memory than every other host's, so
 * none is created or mapped there (the callers: place.c, playfile.c,
 * attach.c) and the way out is said: a remount attaches the log's device.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fs/fs.h"

/* said once per process for each index and pair of devices: a follower
 * opens the mount every round */
static struct {
	uint8_t fs_uuid[16], want[16], have[16];
	uint32_t major, minor;
	bool said;
} said[FAMFS_MAX_DEVS];

static void say(struct famfs_fs *fs, unsigned index, int rc,
		const struct famfs_ioc_dev_info *i, const char *path,
		const uint8_t have[16], const uint8_t want[16])
{
	char w[37], h[37];

	if (said[index].said && !memcmp(said[index].fs_uuid, fs->sb->fs_uuid, 16) &&
	    !memcmp(said[index].want, want, 16) &&
	    !memcmp(said[index].have, have, 16) &&
	    said[index].major == i->major && said[index].minor == i->minor)
		return;
	famfs_uuid_str(want, w);
	if (!rc) {
		famfs_uuid_str(have, h);
		famfs_err("%s: famfs.ko has %s (device uuid %s) as member %u, but the log's member %u is device uuid %s: no file on member %u is created or mapped here; unmount and mount again to attach the log's device",
			  fs->mpt, path, h, index, index, w, index);
	} else {
		famfs_err("%s: famfs.ko has device %u:%u as member %u, which this host cannot tell is the log's member %u, device uuid %s (%s): no file on member %u is created or mapped here; unmount and mount again to attach the log's device",
			  fs->mpt, i->major, i->minor, index, index, w,
			  rc == -ENOENT ? "no node of it here" :
			  rc == -EBADMSG ? "no member superblock of this file system on it" :
			  strerror(-rc), index);
	}
	if (famfs_quiet)
		return;		/* not said yet */
	memcpy(said[index].fs_uuid, fs->sb->fs_uuid, 16);
	memcpy(said[index].want, want, 16);
	memcpy(said[index].have, have, 16);
	said[index].major = i->major;
	said[index].minor = i->minor;
	said[index].said = true;
}

int famfs_fs_member_here(struct famfs_fs *fs, unsigned index)
{
	const struct famfs_logdev *d = famfs_logdevs_get(&fs->devs, index);
	struct famfs_ioc_dev_info i;
	uint8_t have[16] = { 0 };
	char path[4096] = "";
	int rc;

	if (!index)
		return 1;
	if (!d || !fs->mpt[0])
		return 0;
	if (fs->member_seen[index].rc &&
	    !memcmp(fs->member_seen[index].uuid, d->dev_uuid, 16))
		return fs->member_seen[index].rc;
	rc = famfs_mount_dev_get(fs->mpt, index, &i);
	if (rc)
		return rc == -ENXIO ? 0 : rc;	/* not asked: -ENOTTY, ... */
	rc = famfs_member_of_info(&i, fs->sb->fs_uuid, path, sizeof(path),
				  have);
	if (!rc && !memcmp(have, d->dev_uuid, 16)) {
		rc = 1;
	} else {
		say(fs, index, rc, &i, path, have, d->dev_uuid);
		rc = -ESTALE;
	}
	memcpy(fs->member_seen[index].uuid, d->dev_uuid, 16);
	fs->member_seen[index].rc = rc;
	return rc;
}
