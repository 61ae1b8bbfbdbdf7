/* SPDX-License-Identifier: GPL-2.0 */
/* libfamfs (included by libfamfs.h where it stands): member devices of a
 * file system (issue 16). */
#ifndef FAMFS_DEVICES_H
#define FAMFS_DEVICES_H

/* ---- devs.c: the devices of a file system as its log adds them (#16) ---- */
/*
 * The v1 form (struct famfs_log_entry) is what the whole tool works on.  For
 * a compact entry that names member devices it carries extent (or strip)
 * i's device index in fm.reserved[i] (famfs_entry_devindex): a v1 log never
 * has them (MULTIDEV implies COMPACT_LOG), so on media those stay reserved
 * zero bytes.  A DEVADD entry's v1 form has no path and its struct
 * famfs_clog_devadd at fm.ext.raw (famfs_entry_devadd).
 */
static inline unsigned famfs_entry_devindex(const struct famfs_log_entry *e,
					    unsigned i)
{
	return e->fm.reserved[i];
}
static inline const struct famfs_clog_devadd *
famfs_entry_devadd(const struct famfs_log_entry *e)
{
	return (const struct famfs_clog_devadd *)e->fm.ext.raw;
}
/* A DEVADD entry (not yet sequenced) for member index */
void famfs_entry_build_devadd(struct famfs_log_entry *e, uint32_t index,
			      const uint8_t dev_uuid[16], uint64_t size);
/*
 * The device table a log replay builds: index -> device uuid, size and the
 * log index of the DEVADD that added it; the local node when a mount or
 * scan found it.  dev[0] is the primary (from the superblock), always
 * there.  Kept in struct famfs_fs (fs->devs), brought up to the log's
 * committed end by famfs_fs_devs_update (every walk does it first).
 */
struct famfs_logdev {
	bool added;		/* index 0: always; else a valid DEVADD */
	uint8_t dev_uuid[16];	/* nil for the primary */
	uint64_t size;		/* bytes the file system uses */
	uint64_t data_start;	/* first byte files may use */
	uint64_t log_idx;	/* where its DEVADD starts (0: primary) */
	char path[256];		/* this host's node, "" when not known */
};
struct famfs_logdevs {
	unsigned ndevs;		/* indexes 0..ndevs-1 are added */
	uint64_t next;		/* log indexes below next were read */
	struct famfs_logdev dev[FAMFS_MAX_DEVS];
};
/* Only the primary, nothing read yet */
void famfs_logdevs_init(struct famfs_logdevs *t,
			const struct famfs_superblock *sb);
/* The DEVADD entry e (v1 form) at log index: its body, the MULTIDEV bit
 * (R2) and, with t (may be NULL: not checked), the order rules against the
 * devices t has from before index (the next index, no duplicate uuid).
 * 0, or -EINVAL with reason filled. */
int famfs_devadd_check(const struct famfs_log_entry *e, uint64_t index,
		       const struct famfs_superblock *sb,
		       const struct famfs_logdevs *t, char *reason);
/* Add the device of a DEVADD entry that passed famfs_devadd_check */
void famfs_logdevs_add(struct famfs_logdevs *t, const struct famfs_log_entry *e,
		       uint64_t index);
/* The data area [*start, *end) of device dev for an entry at log index:
 * 0; -EPROTO (reason filled) when dev is no device a DEVADD before index
 * added (or t is NULL, or MULTIDEV is clear: R2) -- the entry is then
 * unparseable (R3) */
int famfs_logdevs_area(const struct famfs_logdevs *t,
		       const struct famfs_superblock *sb, unsigned dev,
		       uint64_t index, uint64_t *start, uint64_t *end,
		       char *reason);
/* The table entry of device index dev if it is added, else NULL */
const struct famfs_logdev *famfs_logdevs_get(const struct famfs_logdevs *t,
					     unsigned dev);

/* ---- member.c: member device superblocks, finding devices (issue 16) ---- */
/* A member superblock for device index (1..FAMFS_MAX_DEVS-1), CRC set. */
void famfs_member_init(struct famfs_member_sb *m, const uint8_t fs_uuid[16],
		       const uint8_t dev_uuid[16], uint32_t index,
		       uint64_t fs_ctime, uint64_t dev_size);
void famfs_member_set_crc(struct famfs_member_sb *m);
bool famfs_member_is_member(const struct famfs_member_sb *m); /* magic only */
/* 0, or fills reason and returns -EINVAL (no member superblock, bad field),
 * -EBADMSG (CRC: corrupt or torn), -EPROTONOSUPPORT (a later version, an
 * incompat bit), -ESTALE (a member of another file system).  fs_uuid NULL:
 * any file system; dev_size 0: not checked against a device. */
int famfs_member_check(const struct famfs_member_sb *m,
		       const uint8_t fs_uuid[16], uint64_t dev_size,
		       char *reason);
/* The first n (<= 4096) bytes of a device or file, as memory holds them
 * now: O_DIRECT on a block device, CPU cache lines dropped on a dax
 * mapping; never opened exclusively (a mounted device can be read).  size:
 * the device's size.  -errno, no message (a scan skips what it cannot read). */
int famfs_dev_read_head(const char *path, void *buf, size_t n, uint64_t *size);
/* Write m at offset 0 of path and flush it (checked first: refused if it
 * does not fit the device). */
int famfs_member_write(const char *path, const struct famfs_member_sb *m);

/* memberdev.c: true if a and b are the same device (or file) */
bool famfs_same_device(const char *a, const char *b);
/* May path become a member of the file system on primary?  Not the
 * primary, at least FAMFS_MEMBER_MIN_SIZE, and -- unless force -- holding
 * no famfs superblock, no member superblock and nothing libblkid knows
 * (mkfs's rules).  0 and *size (the device's, whole 2 MiB units), or
 * -errno (printed: the device and why). */
int famfs_member_vet(const char *path, const char *primary, bool force,
		     uint64_t *size);
/* Write member index's superblock (a new device uuid, to dev_uuid) of the
 * file system of sb on path, size bytes, flushed. */
int famfs_member_make(const char *path, const struct famfs_superblock *sb,
		      uint32_t index, uint64_t size, uint8_t dev_uuid[16]);

/* famfs devices label (a debugging aid: no log entry names the member):
 * write member index's superblock of the file system fs (opened from
 * primary, writable or through its mount: a free master record is claimed)
 * on path, device uuid dev_uuid (NULL: a random one; the one written to
 * out).  A write of the file system's: only by the instance that holds the
 * master role (famfs_master_check, under the log lock; -EPERM for a client
 * or a clone).  Refused unless force (-EEXIST): path holds a famfs or
 * member superblock or anything libblkid knows (famfs_member_vet: mkfs's
 * rules), or the identity is a live member's on another device (the
 * log's members, the mount's attached ones, member superblocks on this
 * host).  0, or -errno (printed: the device and why). */
struct famfs_fs;
int famfs_member_label(struct famfs_fs *fs, const char *primary,
		       const char *path, uint32_t index,
		       const uint8_t *dev_uuid, bool force, uint8_t out[16]);

/* Candidates a scan reads: SCAN_ROOT/pmemN[.M] (block), SCAN_ROOT/daxX.Y
 * (char); plain files of those names count too (unit tests). */
extern const char *famfs_scan_root;		/* "/dev" */
struct famfs_found_dev {
	bool present;
	char path[4096];
	uint8_t dev_uuid[16];	/* member's; nil for the primary */
	uint64_t size;		/* as recorded in its superblock */
	uint64_t fs_ctime;	/* the primary's ctime */
};
/* dev[0] the primary (a famfs superblock with this fs uuid), dev[i] member
 * i; nfound present entries; ndamaged devices that look like they belong
 * to this file system but were refused (reported: bad CRC, stale). */
struct famfs_devtab {
	uint8_t fs_uuid[16];
	struct famfs_found_dev dev[FAMFS_MAX_DEVS];
	int nfound;
	int ndamaged;
	/* famfs_devtab_find: member superblocks of this file system whose
	 * device uuid the log does not name (a devadd that crashed before
	 * its entry), with the index they claim; the first FAMFS_MAX_DEVS */
	struct famfs_found_dev orphan[FAMFS_MAX_DEVS];
	uint32_t orphan_index[FAMFS_MAX_DEVS];
	int norphans;
};
struct famfs_member_want {
	uint32_t index;
	uint8_t dev_uuid[16];
};
/* Fill t for fs_uuid from the hints (read first, in order; a hint that
 * cannot be read is a warning) then the scan root.  The same device seen
 * twice counts once.  -EEXIST, naming both devices, if two devices claim
 * the same index or the same device uuid (or two primaries). */
int famfs_devtab_scan(const uint8_t fs_uuid[16], const char *const *hints,
		      int nhints, struct famfs_devtab *t);
/* The same, taking only the members want names (the log's: index and
 * device uuid): a member superblock of this fs that want does not name
 * (an interrupted devadd's, maybe at an index reused since) is ignored,
 * one naming a wanted uuid at another index is refused (ndamaged). */
int famfs_devtab_find(const uint8_t fs_uuid[16], const char *const *hints,
		      int nhints, const struct famfs_member_want *want,
		      int nwant, struct famfs_devtab *t);
/* Every wanted member found with its device uuid: 0.  Else one message per
 * missing member, naming its index and device uuid (or the device found at
 * that index with another uuid), and -ENODEV. */
int famfs_devtab_require(const struct famfs_devtab *t,
			 const struct famfs_member_want *want, int n);

/* ---- attach.c: members into the mount (FAMFSIOC_DEV_ADD) ---------------- */
struct famfs_fs;
/* The devices of fs found on this host (famfs devices): the primary and
 * the members its log names (fs->devs, brought up to date), by device
 * uuid as mount finds them (famfs_devtab_find).  A member superblock the
 * log does not name is an orphan (t->orphan) when the log gives its index
 * to another device (a devadd that crashed before its entry); one at an
 * index the log does not use (famfs devices label's) is that index's
 * member, as discovery finds it.  0; -ENOTUNIQ (not printed: the caller's
 * famfs_devtab_scan refuses, naming both) when two of those claim one
 * index or one device uuid; or -errno (printed) */
int famfs_fs_devtab(struct famfs_fs *fs, const char *const *hints, int nhints,
		    struct famfs_devtab *t);
/* Attach every device the log added (fs->devs, brought up to date) that
 * the mount at fs->mpt does not have yet: found by device uuid among the
 * hints and the scan root (famfs_devtab_find with the log's members), its
 * member superblock at least the size its DEVADD says; fs->devs.dev[i].path
 * filled.  Those found are attached even when another is missing.  0;
 * -ENODEV when one is not on this host (one message per missing member,
 * naming its index and device uuid); -errno (printed). */
struct famfs_fs;
int famfs_fs_attach_members(struct famfs_fs *fs, const char *const *hints,
			    int nhints);
/* How many members the log added (fs->devs, brought up to date) that the
 * mount does not have attached: 0.., or -errno (printed; -ENOTTY: a
 * module without DEV_GET) */
int famfs_fs_members_missing(struct famfs_fs *fs);

#endif /* FAMFS_DEVICES_H */
