// SPDX-License-Identifier: GPL-2.0
/*
 * Is a member the log added the device famfs.ko has at its index?  An
 * attach asks famfs.ko whether an index is attached, not which device is
 * there, and famfs.ko keeps a member until the unmount: a host whose
 * device table once named another device at an index (a later duplicate
 * DEVADD of it, attached while the first did not read whole here, then
 * put back by the first: devs.c) keeps that device.  Its new files on the
 * member would be another device's memory than every other host's, so
 * none is created or placed there (the callers: place.c, playfile.c,
 * attach.c) and the way out is said: a remount attaches the log's device.
 *
 * Only a definite answer refuses (another size than the DEVADD's: famfs.ko
 * keeps the size its DEVADD gave; famfs_member_compare: a node of the
 * log's device here with another number, or famfs.ko's device read whole
 * with another identity); one this host cannot tell (no node of either,
 * a read error, a torn or later member superblock) is said, with a way
 * to let it be told, and the member is used.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fs/fs.h"

unsigned famfs_member_recheck_s = 30;

/* Verdicts, for the process: famfs.ko never replaces a member while
 * mounted, so a definite one holds while DEV_GET names the same device
 * number at the index of the file system and the table names the same
 * device (a follower opens the mount every round; each opening asks
 * DEV_GET only).  A cannot-tell holds for famfs_member_recheck_s seconds:
 * a node of the device may come, but a follower's every round must not
 * read every candidate node of the scan root.  A small ring: another file
 * system's or index's take turns. */
#define KEPT 32
static struct kept {
	bool used;
	uint8_t fs_uuid[16], want[16];
	uint32_t index, major, minor, flags;
	time_t when;		/* CLOCK_MONOTONIC seconds */
	struct famfs_member_verdict v;
} kept[KEPT];
static unsigned kept_next;

static time_t now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* The entry of this file system, index, device and table device */
static struct kept *kept_slot(const uint8_t fs_uuid[16], unsigned index,
			      const struct famfs_ioc_dev_info *i,
			      const uint8_t want[16])
{
	for (unsigned k = 0; k < KEPT; k++) {
		struct kept *e = &kept[k];

		if (e->used && e->index == index && e->major == i->major &&
		    e->minor == i->minor &&
		    e->flags == (i->flags & FAMFS_DEV_DEVDAX) &&
		    !memcmp(e->fs_uuid, fs_uuid, 16) &&
		    !memcmp(e->want, want, 16))
			return e;
	}
	return NULL;
}

/* Its verdict if it still holds */
static struct kept *kept_find(const uint8_t fs_uuid[16], unsigned index,
			      const struct famfs_ioc_dev_info *i,
			      const uint8_t want[16])
{
	struct kept *e = kept_slot(fs_uuid, index, i, want);

	if (e && e->v.is == FAMFS_MEMBER_UNSURE &&
	    now_s() - e->when >= (time_t)famfs_member_recheck_s)
		return NULL;
	return e;
}

static void kept_add(const uint8_t fs_uuid[16], unsigned index,
		     const struct famfs_ioc_dev_info *i, const uint8_t want[16],
		     const struct famfs_member_verdict *v)
{
	struct kept *e = kept_slot(fs_uuid, index, i, want);	/* stale */

	if (!e)
		e = &kept[kept_next++ % KEPT];

	e->used = true;
	memcpy(e->fs_uuid, fs_uuid, 16);
	memcpy(e->want, want, 16);
	e->index = index;
	e->major = i->major;
	e->minor = i->minor;
	e->flags = i->flags & FAMFS_DEV_DEVDAX;
	e->when = now_s();
	e->v = *v;
}

/* Said once per process for each file system, index, device pair and
 * what was found (a follower opens the mount every round; two file
 * systems in one process do not evict each other's) */
#define SAID 64
enum said_what { SAID_OTHER, SAID_UNSURE, SAID_FAILED };
static struct said {
	uint8_t fs_uuid[16], want[16], have[16];
	uint32_t index, major, minor;
	enum said_what what;
} said[SAID];
static unsigned nsaid;

/* true the first time (and remembered unless quiet: not said then) */
static bool first_time(const struct famfs_fs *fs, unsigned index,
		       const struct famfs_ioc_dev_info *i,
		       const uint8_t want[16], const uint8_t have[16],
		       enum said_what what)
{
	struct said n = { .index = index, .major = i->major,
			  .minor = i->minor, .what = what };

	memcpy(n.fs_uuid, fs->sb->fs_uuid, 16);
	memcpy(n.want, want, 16);
	memcpy(n.have, have, 16);
	for (unsigned k = 0; k < nsaid && k < SAID; k++)
		if (!memcmp(&said[k], &n, sizeof(n)))
			return false;
	if (!famfs_quiet)
		said[nsaid++ % SAID] = n;
	return true;
}

static void say(struct famfs_fs *fs, unsigned index,
		const struct famfs_ioc_dev_info *i,
		const struct famfs_member_verdict *v, const uint8_t want[16])
{
	char w[37], h[37], node[300], at[300];

	if (!first_time(fs, index, i, want, v->have,
			v->is == FAMFS_MEMBER_OTHER ? SAID_OTHER : SAID_UNSURE))
		return;
	famfs_uuid_str(want, w);
	famfs_uuid_str(v->have, h);
	if (v->path[0])
		snprintf(node, sizeof(node), "%s (%u:%u)", v->path, i->major,
			 i->minor);
	else
		snprintf(node, sizeof(node), "device %u:%u", i->major,
			 i->minor);
	at[0] = '\0';
	if (v->table_path[0])
		snprintf(at, sizeof(at), ", %s here", v->table_path);
	if (v->is == FAMFS_MEMBER_OTHER) {
		bool read = !famfs_all_zero(v->have, 16);

		famfs_err("%s: famfs.ko has %s%s%s%s as member %u, but the log's member %u is device uuid %s%s: no new file is created or placed on member %u here, and the files this host mapped on member %u before stay on that device until a remount: unmount and mount again to attach the log's device",
			  fs->mpt, node, read ? " (device uuid " : "",
			  read ? h : "", read ? ")" : "", index, index, w, at,
			  index, index);
		return;
	}
	switch (v->cause) {
	case FAMFS_UNSURE_NO_NODE:
		famfs_warn("%s: cannot tell whether famfs.ko's member %u, %s, is the log's member %u, device uuid %s: %s; it is used as it is.  To have it checked, give this host a node of device uuid %s, or of %u:%u, as %s/pmemN or %s/daxX.Y (famfs mount -d NODE covers the mount's own check only)",
			   fs->mpt, index, node, index, w, v->why, w,
			   i->major, i->minor, famfs_scan_root,
			   famfs_scan_root);
		break;
	case FAMFS_UNSURE_UNREAD:
		famfs_warn("%s: cannot tell whether famfs.ko's member %u, %s, is the log's member %u, device uuid %s: %s; it is used as it is.  famfs fsck %s names what is wrong with that device; to attach the log's device instead, unmount and mount again",
			   fs->mpt, index, node, index, w, v->why, fs->mpt);
		break;
	case FAMFS_UNSURE_COPIED:
		famfs_warn("%s: cannot tell whether famfs.ko's member %u, %s, is the log's member %u, device uuid %s: %s; it is used as it is.  Remove the copy from this host, then unmount and mount again",
			   fs->mpt, index, node, index, w, v->why);
		break;
	}
}

/* FAMFS_DEV_FAILED: the mount has failed (this device the cause?) */
static void say_failed(struct famfs_fs *fs, unsigned index,
		       const struct famfs_ioc_dev_info *i,
		       const uint8_t want[16])
{
	char w[37];

	if (!first_time(fs, index, i, want, want, SAID_FAILED))
		return;
	famfs_uuid_str(want, w);
	famfs_err("%s: famfs.ko reports member %u (device %u:%u, the log's device uuid %s) failed: %s; nothing on this mount can be used until it is unmounted",
		  fs->mpt, index, i->major, i->minor, w,
		  i->flags & FAMFS_DEV_CAUSE ?
		  "its removal or a memory failure on it failed the mount" :
		  "the mount has failed (another device's removal or memory failure)");
}

/* famfs.ko's member of another size than the table's DEVADD: famfs.ko's
 * member size is the size its DEVADD gave (attach.c, cmd_devadd.c), so it
 * has another DEVADD's device -- definite, with no node looked at */
static void say_size(struct famfs_fs *fs, unsigned index,
		     const struct famfs_ioc_dev_info *i,
		     const struct famfs_logdev *d)
{
	static const uint8_t nil[16];
	char w[37];

	if (!first_time(fs, index, i, d->dev_uuid, nil, SAID_OTHER))
		return;
	famfs_uuid_str(d->dev_uuid, w);
	famfs_err("%s: famfs.ko has device %u:%u of %llu bytes as member %u, but the log's member %u is device uuid %s of %llu bytes (another DEVADD's device): no new file is created or placed on member %u here, and the files this host mapped on member %u before stay on that device until a remount: unmount and mount again to attach the log's device",
		  fs->mpt, i->major, i->minor, (unsigned long long)i->size,
		  index, index, w, (unsigned long long)d->size, index, index);
}

int famfs_fs_member_here(struct famfs_fs *fs, unsigned index)
{
	const struct famfs_logdev *d = famfs_logdevs_get(&fs->devs, index);
	struct famfs_member_verdict v;
	struct famfs_ioc_dev_info i;
	const struct kept *e;
	int rc;

	if (!index)
		return 1;
	if (!d || !fs->mpt[0] || index >= FAMFS_MAX_DEVS)
		return 0;
	if (fs->member_seen[index].rc &&
	    !memcmp(fs->member_seen[index].uuid, d->dev_uuid, 16))
		return fs->member_seen[index].rc;
	rc = famfs_mount_dev_get(fs->mpt, index, &i);
	if (rc)
		return rc == -ENXIO ? 0 : rc;	/* not asked: -ENOTTY, ... */
	if (i.flags & FAMFS_DEV_FAILED) {
		say_failed(fs, index, &i, d->dev_uuid);
		rc = -EIO;
		goto out;
	}
	if (d->size && i.size != d->size) {
		say_size(fs, index, &i, d);
		rc = -ESTALE;
		goto out;
	}
	e = kept_find(fs->sb->fs_uuid, index, &i, d->dev_uuid);
	if (e) {
		v = e->v;
	} else {
		rc = famfs_member_compare(&i, fs->sb->fs_uuid, index,
					  d->dev_uuid, d->path, &v);
		if (rc)
			return rc;
		kept_add(fs->sb->fs_uuid, index, &i, d->dev_uuid, &v);
	}
	if (v.is != FAMFS_MEMBER_SAME)
		say(fs, index, &i, &v, d->dev_uuid);
	/* cannot tell: used (and asked again after famfs_member_recheck_s) */
	rc = v.is == FAMFS_MEMBER_OTHER ? -ESTALE : 1;
out:
	memcpy(fs->member_seen[index].uuid, d->dev_uuid, 16);
	fs->member_seen[index].rc = rc;
	return rc;
}
