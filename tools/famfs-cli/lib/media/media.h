/* SPDX-License-Identifier: GPL-2.0 */
/*
 * media/: the bytes famfs keeps in shared memory (famfs_format.h) --
 * CRC, superblock, log header, log entries in both forms (v1 and compact),
 * building and checking them, the ranges an entry owns, the device table
 * a log's DEVADD entries build, the member superblock, the master record
 * and the decision it gives.  Pure functions over bytes in memory: no
 * device, file or clock is read here (but for an entry's or record's
 * ctime when one is built).  It calls base/ only.
 */
#ifndef FAMFS_MEDIA_H
#define FAMFS_MEDIA_H

#include "base/base.h"

#include <linux/famfs_ioctl.h>
#include <linux/famfs_interleave.h>
#include <linux/famfs_hosts.h>

/* ---- crc32.c, sb.c, entry.c: CRC, superblock, log header, entry --------- */
/* every byte of [p, p + n) zero?  (plain C: below 64 bytes a word at a
 * time, else memcmp against a zero block) */
bool famfs_all_zero(const void *p, size_t n);
uint32_t famfs_crc32(const void *buf, size_t len);
/* zlib's crc32(crc, buf, len): the CRC of what crc covered, then buf */
uint32_t famfs_crc32_update(uint32_t crc, const void *buf, size_t len);
/* true when famfs_crc32 uses carry-less multiplication (crc32.c) */
bool famfs_crc32_fast(void);
void famfs_sb_init(struct famfs_superblock *sb, const uint8_t fs_uuid[16],
		   const uint8_t master_uuid[16], uint64_t dev_size,
		   uint64_t log_len);
void famfs_sb_set_crc(struct famfs_superblock *sb);
/* dev_size 0: not checked against a device. */
int famfs_sb_check(const struct famfs_superblock *sb, uint64_t dev_size,
		   char *reason);
bool famfs_sb_is_famfs(const struct famfs_superblock *sb);  /* magic only */
/* A v1 log header (1 KiB entries) */
void famfs_log_hdr_init(struct famfs_log_header *h, const uint8_t fs_uuid[16],
			uint64_t log_len);
/* compact: a compact log's header (256-byte slots, INCOMPAT_COMPACT_LOG) */
void famfs_log_hdr_init_fmt(struct famfs_log_header *h,
			    const uint8_t fs_uuid[16], uint64_t log_len,
			    bool compact);
/* Entries (v1) or slots (compact) a log of len bytes holds */
uint64_t famfs_log_capacity_of(uint64_t len, bool compact);
void famfs_log_hdr_set_crc(struct famfs_log_header *h);
int famfs_log_hdr_check(const struct famfs_log_header *h,
			const struct famfs_superblock *sb, char *reason);
void famfs_entry_set_crc(struct famfs_log_entry *e);
/* Full validation of a committed entry (crc, seq, uuid, type, path, extents
 * inside the device data area). */
int famfs_entry_check(const struct famfs_log_entry *e, uint64_t index,
		      const struct famfs_superblock *sb, char *reason);
/* The same two with the device table (devs.c) the entry is judged by:
 * without one (NULL, as the two above) an extent on a member is
 * unparseable */
struct famfs_logdevs;
int famfs_entry_check_devs(const struct famfs_log_entry *e, uint64_t index,
			   const struct famfs_superblock *sb,
			   const struct famfs_logdevs *devs, char *reason);
int famfs_entry_owned_devs(const struct famfs_log_entry *e, uint64_t index,
			   const struct famfs_superblock *sb,
			   const struct famfs_logdevs *devs, char *reason);
/* famfs_entry_check_devs without its CRC, seq and fs uuid checks: for an
 * entry whose v1 form was decoded (and those filled) from a verified
 * compact one */
int famfs_entry_check_fields(const struct famfs_log_entry *e, uint64_t index,
			     const struct famfs_superblock *sb,
			     const struct famfs_logdevs *devs, char *reason);
/* R3 (famfs_format.h): 0 if the memory of a committed entry is known even
 * if famfs_entry_check refuses it -- CRC, seq and uuid right, a known type
 * and extent kind whose feature bit is set, every extent or strip aligned
 * and in the data area; famfs_entry_ranges then lists it.  Else the entry
 * cannot be parsed (reason filled): the master must not allocate. */
int famfs_entry_owned(const struct famfs_log_entry *e, uint64_t index,
		      const struct famfs_superblock *sb, char *reason);
/* R4: CRC, seq == index and fs uuid right (a slot past next_index that
 * holds this fs's entry for it) */
bool famfs_entry_written(const struct famfs_log_entry *e, uint64_t index,
			 const struct famfs_superblock *sb);
/* Simple extents a FILE entry may have without INCOMPAT_MULTI_EXTENT */
#define FAMFS_LOG_SIMPLE_EXT_BASE	2
bool famfs_loglen_valid(uint64_t len);
/* The device ranges (host byte order) a FILE entry that passed
 * famfs_entry_check occupies: its simple extents, or the strips of an
 * interleaved one.  Returns how many (<= FAMFS_ENTRY_MAX_RANGES). */
#define FAMFS_ENTRY_MAX_RANGES	16
unsigned famfs_entry_ranges(const struct famfs_log_entry *e,
			    struct famfs_extent out[FAMFS_ENTRY_MAX_RANGES]);
/* Only those on device dev (famfs_entry_devindex): what one device's
 * allocator, df and fsck count.  famfs_entry_ranges gives all of them. */
unsigned famfs_entry_ranges_on(const struct famfs_log_entry *e, unsigned dev,
			       struct famfs_extent out[FAMFS_ENTRY_MAX_RANGES]);
bool famfs_entry_interleaved(const struct famfs_log_entry *e);
uint64_t famfs_data_start(const struct famfs_superblock *sb);
bool famfs_sb_compact(const struct famfs_superblock *sb);
/* (uid_t)-1, (gid_t)-1: chown's "no change", never an owner: -EINVAL */
int famfs_owner_check(const char *what, uint32_t uid, uint32_t gid);
/* Build a FILE or MKDIR entry (not yet sequenced; famfs_owner_check). */
int famfs_entry_build(struct famfs_log_entry *e, int type, const char *rel,
		      uint64_t size, uint32_t mode, uint32_t uid, uint32_t gid,
		      const struct famfs_log_simple_ext *ext, unsigned next);
/* Build an interleaved FILE entry (not yet sequenced); ie is copied as is
 * (little-endian, as famfs_alloc_strips fills it). */
int famfs_entry_build_interleaved(struct famfs_log_entry *e, const char *rel,
				  uint64_t size, uint32_t mode, uint32_t uid,
				  uint32_t gid,
				  const struct famfs_log_interleave_ext *ie);
/* Small files (INCOMPAT_SMALL_FILES): a FILE entry of next (1..16) page
 * extents (bytes, 4 KiB aligned, each inside one 2 MiB unit; devices in
 * fm.reserved[i], set by the caller), not yet sequenced */
int famfs_entry_build_pages(struct famfs_log_entry *e, const char *rel,
			    uint64_t size, uint32_t mode, uint32_t uid,
			    uint32_t gid, const struct famfs_log_simple_ext *ext,
			    unsigned next);
/* A FILE entry of page extents (FAMFS_LOG_EXT_PAGES)? */
bool famfs_entry_pages(const struct famfs_log_entry *e);
/* The v1 form of an EXTEND entry: segment k over [off, off + len) */
void famfs_entry_build_extend(struct famfs_log_entry *e, uint32_t k,
			      uint64_t off, uint64_t len);

/* The superblock check with the incompat bits a tool knows (famfs_sb_check:
 * FAMFS_FEATURE_INCOMPAT_SUPP, this tool's); tests play an older tool */
int famfs_sb_check_known(const struct famfs_superblock *sb, uint64_t dev_size,
			 uint32_t known, char *reason);

/* ---- nsentry.c: DELETE, RENAME, SETATTR (format revision 3) ------------- */
/*
 * Their body (struct famfs_log_delete, _rename or _setattr, then the
 * paths, each NUL-terminated) is at byte FAMFS_NS_BODY_OFF of the v1 form,
 * as a v1 log holds it, every byte after it zero; a compact entry holds
 * the same bytes after its famfs_clog_hdr and decodes to that v1 form.
 */
#define FAMFS_NS_BODY_OFF	32
#define FAMFS_NS_BODY_LEN	(FAMFS_LOG_ENTRY_SIZE - FAMFS_NS_BODY_OFF)
bool famfs_entry_is_ns(unsigned type);		/* DELETE, RENAME, SETATTR */
uint32_t famfs_ns_feature(unsigned type);	/* its incompat bit */
const char *famfs_ns_name(unsigned type);	/* "DELETE", ... */
/* The fields of a namespace entry, pointers into e (famfs_ns_check first:
 * else the paths may not end) */
struct famfs_ns {
	unsigned type;			/* FAMFS_LOG_DELETE, _RENAME, _SETATTR */
	uint64_t object;		/* the FILE/MKDIR entry that made it */
	uint64_t ctime;
	unsigned kind;			/* FAMFS_LOG_FILE or FAMFS_LOG_MKDIR */
	const char *path;		/* where the object is; RENAME: from */
	const char *to;			/* RENAME: where it goes */
	uint32_t valid, mode, uid, gid;	/* SETATTR: FAMFS_SETATTR_* */
};
int famfs_ns_get(const struct famfs_log_entry *e, struct famfs_ns *ns);
/* The path an entry names, for messages: a FILE's or MKDIR's, a namespace
 * entry's (RENAME: the old one); "" for other entries */
const char *famfs_entry_path(const struct famfs_log_entry *e);
/* Build one (not yet sequenced), paths normalized: 0 or -errno (printed) */
int famfs_entry_build_delete(struct famfs_log_entry *e, uint64_t object,
			     unsigned kind, const char *path);
int famfs_entry_build_rename(struct famfs_log_entry *e, uint64_t object,
			     unsigned kind, const char *from, const char *to);
int famfs_entry_build_setattr(struct famfs_log_entry *e, uint64_t object,
			      unsigned kind, const char *path, uint32_t valid,
			      uint32_t mode, uint32_t uid, uint32_t gid);
/* R2: the type's incompat bit set in sb?  0, or -EPROTONOSUPPORT (reason) */
int famfs_ns_bit(unsigned type, const struct famfs_superblock *sb,
		 char *reason);
/* The fields of one (v1 form; famfs_entry_check_fields calls it): the
 * bit (-EPROTONOSUPPORT), then -EINVAL for anything else wrong.  Whether
 * the object is where it says is the replay's to judge (log/names.c). */
int famfs_ns_check(const struct famfs_log_entry *e, uint64_t index,
		   const struct famfs_superblock *sb, char *reason);
/* The bytes of the body at b (the struct, paths and NULs) its lengths
 * claim; 0 for a type that is not one of them */
size_t famfs_ns_body_len(unsigned type, const uint8_t *b);
/* clog.c: the compact form of one (its slot count, or -EINVAL), and
 * the body of a verified compact one into e (seq, uuid, type set by the
 * caller): 0, or -EINVAL (reason) when its lengths or padding are wrong */
int famfs_ns_clog_encode(const struct famfs_log_entry *e, uint64_t slot,
			 const uint8_t fs_uuid[16],
			 uint8_t out[FAMFS_CLOG_MAX_ENTRY], char *reason);
int famfs_ns_clog_decode(const uint8_t *b, struct famfs_log_entry *e,
			 char *reason);

/* ---- nsentry.c: RECLAIM (format rev 3, INCOMPAT_DELETE, issue 29) ------- */
/*
 * Its body, struct famfs_log_reclaim, sits where a namespace entry's does
 * (FAMFS_NS_BODY_OFF in the v1 form, after the famfs_clog_hdr of a compact
 * one: one slot), every byte after it zero.  It names no path and changes
 * no namespace; the memory of the DELETEs it names is free from it on.
 */
/* DELETE, RENAME, SETATTR or RECLAIM: a body at FAMFS_NS_BODY_OFF (both
 * logs encode and decode them alike) */
bool famfs_entry_is_body(unsigned type);
/* A RECLAIM of the n (1..FAMFS_RECLAIM_MAX) DELETE indexes (not yet
 * sequenced): 0, or -EINVAL (printed) */
int famfs_entry_build_reclaim(struct famfs_log_entry *e,
			      const uint64_t *deletes, unsigned n);
/* The DELETE indexes of a RECLAIM (famfs_reclaim_check first): its count,
 * at most FAMFS_RECLAIM_MAX (0 for another type) */
unsigned famfs_reclaim_get(const struct famfs_log_entry *e,
			   uint64_t out[FAMFS_RECLAIM_MAX]);
/* What can be judged without the log before it: the bit (-EPROTONOSUPPORT),
 * flags, count 1..FAMFS_RECLAIM_MAX, reserved and deletes[count..] and the
 * rest of the body zero, each index below index and named once (-EINVAL).
 * That each names a DELETE of a file no earlier RECLAIM named is the
 * namespace's to judge (famfs_names_apply: FAMFS_NAMES_CORRUPT). */
int famfs_reclaim_check(const struct famfs_log_entry *e, uint64_t index,
			const struct famfs_superblock *sb, char *reason);

/* ---- clog.c: the compact log entry (INCOMPAT_COMPACT_LOG) --------------- */
/* crc32(fs_uuid, the nslots slots of entry with crc = 0) */
uint32_t famfs_clog_crc(const void *entry, unsigned nslots,
			const uint8_t fs_uuid[16]);
/* The compact form of the v1-shaped entry e (type, fmeta; seq, uuid and
 * crc of e are not read) for slot, in out (zero-padded): its slot count
 * (1..4), or -EINVAL with reason filled if it has none. */
int famfs_clog_encode(const struct famfs_log_entry *e, uint64_t slot,
		      const uint8_t fs_uuid[16],
		      uint8_t out[FAMFS_CLOG_MAX_ENTRY], char *reason);
/*
 * A private copy of the entry at s, in a mapping another host may write:
 * k is its slot count as read from s beforehand (it may have changed
 * since).  Copies k slots (1 if k is not in 1..avail), then the rest of
 * what the copied header claims (up to avail), so that verify, which
 * trusts the copy's count, reads only copied bytes.  Returns bytes copied.
 */
size_t famfs_clog_copy(uint8_t buf[FAMFS_CLOG_MAX_ENTRY], const uint8_t *s,
		       unsigned k, unsigned avail);
/* Does the entry at entry (avail slots of it readable) verify as this
 * fs's entry for slot: seq, slot count, CRC?  Its slot count, or -errno
 * (-EBADMSG: CRC) with reason filled. */
int famfs_clog_verify(const void *entry, uint64_t slot, uint64_t avail,
		      const uint8_t fs_uuid[16], char *reason);
/* The v1 form of a verified compact entry, seq, uuid and v1 crc filled (so
 * famfs_entry_check and famfs_entry_owned judge it as any v1 entry).
 * 0; -EINVAL (reason): decoded, but refused (reserved bytes, bad path),
 * its memory known; -EPROTO (reason): it has no v1 form (unknown type,
 * strips of different lengths), its memory unknown.  Device indexes go to
 * fm.reserved (famfs_entry_devindex), a DEVADD body to fm.ext.raw: whether
 * they are allowed is famfs_entry_check_devs's to say. */
int famfs_clog_decode(const void *entry, uint64_t slot,
		      const uint8_t fs_uuid[16], struct famfs_log_entry *e,
		      char *reason);
uint64_t famfs_sb_dev_size(const struct famfs_superblock *sb);

/* Where entry i of a v1 log and slot i of a compact log are (an entry of
 * a compact log takes 1..4 slots) */
static inline struct famfs_log_entry *famfs_log_slot(struct famfs_log_header *h,
						     uint64_t i)
{
	return (struct famfs_log_entry *)((char *)h + FAMFS_LOG_HDR_SIZE +
					  i * FAMFS_LOG_ENTRY_SIZE);
}
static inline uint8_t *famfs_clog_slot(struct famfs_log_header *h, uint64_t i)
{
	return (uint8_t *)h + FAMFS_LOG_HDR_SIZE + i * FAMFS_CLOG_SLOT;
}

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
	uint64_t next;		/* log indexes below next were read (the
				 * first that does not read whole here:
				 * famfs_fs_devs_update) */
	struct famfs_logdev dev[FAMFS_MAX_DEVS];
};
/* Only the primary, nothing read yet */
void famfs_logdevs_init(struct famfs_logdevs *t,
			const struct famfs_superblock *sb);
/* The DEVADD entry e (v1 form) at log index: its body, the MULTIDEV bit
 * (R2) and, with t (may be NULL: not checked), the order rules against the
 * devices t has from before index (the next index, no duplicate uuid).
 * 0, or -EINVAL with reason filled (-EPROTONOSUPPORT: the bit clear;
 * -EPROTO: an index past the next one while t is not up to index,
 * t->next < index -- the DEVADD of the one before may be an entry this
 * host has not read whole yet: host-local). */
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

/* ---- membersb.c: the member superblock (issue 16) ----------------------- */
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

/* ---- mrec.c: the master record (RO_COMPAT_MASTER_REC) ------------------- */
/* reason buffers of this file: a holder's description is long */
#define FAMFS_MREC_REASON_LEN	1024

/* This running instance: host uuid and boot id */
struct famfs_me {
	uint8_t host[16], boot[16];
};

/* The local claim file; present false when there is none */
struct famfs_claim {
	bool present;
	uint8_t host[16], boot[16];
	uint64_t generation;
	/* "catch_up 1": this claim took a record another instance held,
	 * and no mount of this host has replayed the log to its end since
	 * (role.h's famfs_claim_catch_up; review r39 2) */
	bool catch_up;
};

enum famfs_mrec_state {
	FAMFS_MREC_MINE,	/* held by this instance: it may append */
	FAMFS_MREC_FREE,	/* never claimed, released, or a file system
				 * without RO_COMPAT_MASTER_REC: claimable */
	FAMFS_MREC_REBOOT,	/* held by this host before a reboot (its
				 * claim file matches): claimable */
	FAMFS_MREC_OTHER,	/* held by another instance */
	FAMFS_MREC_BAD,		/* corrupt, or flags of a newer tool */
};

/* The decision, from what the record, the superblock, this instance and
 * its claim file say.  reason (FAMFS_MREC_REASON_LEN) says why for OTHER and
 * BAD: who holds the role, or what is wrong. */
enum famfs_mrec_state famfs_mrec_decide(const struct famfs_superblock *sb,
					const struct famfs_master_record *r,
					const struct famfs_me *me,
					const struct famfs_claim *c,
					char *reason);
void famfs_mrec_set_crc(struct famfs_master_record *r);
/* "host H (name N), boot B, generation G, claimed at T" */
void famfs_mrec_describe(const struct famfs_master_record *r, char *out,
			 size_t n);

/* The record as famfs master shows it: "none yet (...)", "never claimed",
 * "corrupt: WHY", "held: DESC" or "released: DESC" */
void famfs_mrec_show(const struct famfs_superblock *sb,
		     const struct famfs_master_record *r, char *out, size_t n);

/* The CRC of n bytes, a beat or an intent (FAMFS_MBEAT_SIZE), with the crc
 * field (at byte 8) taken as zero */
uint32_t famfs_mbeat_crc(const void *p, size_t n);
/* b is a beat of record r of the file system fs_uuid (magic, CRC, flags,
 * reserved bytes, generation, boot id); in an intent for r's generation */
bool famfs_beat_valid(const struct famfs_master_beat *b,
		      const struct famfs_master_record *r,
		      const uint8_t fs_uuid[16]);
bool famfs_intent_valid(const struct famfs_master_intent *in,
			const struct famfs_master_record *r,
			const uint8_t fs_uuid[16]);
/* The record in a mapping of the superblock region */
static inline struct famfs_master_record *famfs_mrec_at(void *sb_region)
{
	return (struct famfs_master_record *)((char *)sb_region +
					      FAMFS_MREC_OFFSET);
}

/* ---- hosts.c: the host table (.meta/.hosts, INCOMPAT_HOSTS) ------------- */
/*
 * famfs_format.h, "Reclaim across hosts": a header the master writes (the
 * evicted list), in two copies, and FAMFS_HOST_SLOTS slots of two struct
 * famfs_host_rec copies each.  A writer rewrites the older copy (or one that does not
 * verify) with seq + 1; the newest copy that verifies is the slot.
 */
enum famfs_host_state {
	FAMFS_HOST_FREE,	/* all 256 bytes zero */
	FAMFS_HOST_VALID,	/* a copy verifies: the fields below */
	FAMFS_HOST_TORN,	/* not zero, and no copy verifies: blocks
				 * every reclaim until evicted by slot */
};
/* One slot decoded, host byte order */
struct famfs_host {
	enum famfs_host_state state;
	unsigned copy;			/* VALID: the copy it came from */
	uint32_t flags;			/* FAMFS_HOST_REGISTERED, _MASTER */
	uint8_t host_uuid[16], boot_id[16];
	uint64_t generation, seq, registered_at, replayed, holds_from;
	uint64_t held_bytes, beat_time;
	char hostname[16];		/* NUL-terminated (15 bytes at most) */
	uint64_t name_hash;		/* famfs_host_name_hash of the whole */
};
/* One record copy of h (magic, CRC over (fs_uuid, 128 bytes)) */
void famfs_host_rec_encode(struct famfs_host_rec *r, const struct famfs_host *h,
			   const uint8_t fs_uuid[16]);
/* One copy: 0 and h filled; -EBADMSG (CRC, magic: torn or never written),
 * -EINVAL (verifies but a field is not understood: flags, hostname,
 * generation), reason filled */
int famfs_host_rec_decode(const struct famfs_host_rec *r,
			  const uint8_t fs_uuid[16], struct famfs_host *h,
			  char *reason);
/* A slot (FAMFS_HOST_SLOT_SIZE bytes, a private copy): its state, h filled
 * when VALID (zeroed otherwise).  Two verifying copies
 * of the same seq that differ are TORN (no writer makes them), as is a slot
 * with a later layout's copy that verifies, whatever the seqs. */
enum famfs_host_state famfs_host_slot_decode(const void *slot,
					     const uint8_t fs_uuid[16],
					     struct famfs_host *h);
/* A record's seq and generation and the header's seq stop at
 * FAMFS_HOST_SEQ_MAX: nothing is written past it (a wrap to 0 would let
 * the older copy win), and a copy at UINT64_MAX is corrupt.  The next of
 * x, or 0 (refused) past the end. */
#define FAMFS_HOST_SEQ_MAX	(UINT64_MAX - 1)
static inline uint64_t famfs_host_seq_next(uint64_t x)
{
	return x < FAMFS_HOST_SEQ_MAX ? x + 1 : 0;
}
/* Where the next write of a slot goes: the copy index (0 or 1) that is not
 * the slot's newest verifying one, and *seq the seq it gets (newest + 1;
 * 1 for a slot with no verifying copy; 0 when the newest is at
 * FAMFS_HOST_SEQ_MAX: the slot is not written again) */
unsigned famfs_host_slot_next(const void *slot, const uint8_t fs_uuid[16],
			      uint64_t *seq);
/* The header, decoded: the evicted list in host byte order */
struct famfs_host_evict {
	uint8_t host_uuid[16], boot_id[16];
	char hostname[16];		/* NUL-terminated, as a slot's */
	uint64_t name_hash, generation, time;
	uint32_t flags;			/* FAMFS_FENCE_BY_SLOT */
};
/* FAMSHOS3, the earlier layout: 84 fences of 48 bytes (uuid, boot id,
 * generation, time: no name) a copy.  Read (review rfence F2): a list can
 * hold a FAMSHOS4 copy's fences and a FAMSHOS3 copy's, or two FAMSHOS3
 * copies' that differ (review rev7 3: never one dropped) */
#define FAMFS_HOSTS_MAX_EVICT_3	84
#define FAMFS_HOSTS_EV_CAP	(2 * FAMFS_HOSTS_MAX_EVICT_3)
_Static_assert(FAMFS_HOSTS_EV_CAP >= FAMFS_HOSTS_MAX_EVICT +
	       FAMFS_HOSTS_MAX_EVICT_3, "a FAMSHOS4 copy and a FAMSHOS3 one");
struct famfs_hosts_ev {
	uint64_t seq;
	uint32_t flags;			/* FAMFS_HOSTS_ARMED */
	unsigned n;
	/* the header is FAMSHOS3's, or a FAMSHOS3 copy lies beside a
	 * FAMSHOS4 one (-EINVAL): e[] holds every verifying copy's fences
	 * (a FAMSHOS3 one nameless: never moot), honoured by registrations
	 * and carried into FAMSHOS4 by repair --force */
	bool old_layout;
	struct famfs_host_evict e[FAMFS_HOSTS_EV_CAP];
};
/* A header: magic, seq, flags, nevicted, list (ev may be NULL: empty and
 * not armed); CRC set */
void famfs_hosts_hdr_encode(struct famfs_hosts_hdr *h,
			    const struct famfs_hosts_ev *ev,
			    const uint8_t fs_uuid[16]);
/* One copy: 0 and ev filled; -EBADMSG (magic, CRC: it does not verify;
 * -EINVAL when it is the earlier layout's, FAMSHOS3, CRC and all);
 * -EPROTONOSUPPORT (it verifies, with a header or fence flag this build
 * does not know: a newer build's rules; the reason names the bit); -EINVAL (it verifies but
 * nevicted is out of bounds, a pad byte or an entry past nevicted is not
 * zero, or the list has a nil uuid or generation 0); reason filled */
int famfs_hosts_hdr_decode(const struct famfs_hosts_hdr *h,
			   const uint8_t fs_uuid[16], struct famfs_hosts_ev *ev,
			   char *reason);
/* Is this header copy (FAMFS_HOSTS_HDR_SIZE bytes) the earlier layout's
 * (FAMSHOS3), verifying as that layout's would? */
bool famfs_hosts_hdr_old(const void *hdr, const uint8_t fs_uuid[16]);
/* Is this header copy, or a copy of this slot (FAMFS_HOST_SLOT_SIZE
 * bytes), a later layout's (magic "FAMSHOS5" / "FAMSHOR6" on) that
 * verifies with this layout's CRC -- or, for a slot, its newest copy of
 * this layout with a flag this build does not know: a newer build's,
 * never zeroed here (torn to this build) */
bool famfs_hosts_hdr_newer(const void *hdr, const uint8_t fs_uuid[16]);
bool famfs_host_slot_newer(const void *slot, const uint8_t fs_uuid[16]);
/* The header: its two copies (FAMFS_HOSTS_SLOTS_OFF bytes, a private
 * copy): the newest one whose magic and CRC verify, decoded as
 * famfs_hosts_hdr_decode does (never the older one instead); -EBADMSG when
 * no copy verifies (a copy at seq UINT64_MAX does not); -EINVAL when two
 * of one seq verify and differ (no writer makes them: not understood), or
 * a copy is the earlier layout's (FAMSHOS3, said by name: ev->old_layout,
 * ev->e every verifying copy's fences, whatever the seqs -- this build
 * leaves no FAMSHOS3 copy, so one is an older build's later write);
 * -EPROTONOSUPPORT when a copy is a later layout's (FAMSHOS5 on, CRC and
 * all: a newer build's) */
int famfs_hosts_hdrs_decode(const void *hdrs, const uint8_t fs_uuid[16],
			    struct famfs_hosts_ev *ev, char *reason);
/* Where the master's next header write goes: the copy (0 or 1) that is not
 * the newest verifying one, and *seq its seq (newest + 1; when none
 * verifies, or two of one seq differ, one more than the highest seq of a
 * copy with the magic); *seq 0 past FAMFS_HOST_SEQ_MAX: not written.  A
 * FAMSHOS3 copy is written last: the copy is the other one (of two, the
 * one of lower seq) */
unsigned famfs_hosts_hdr_next(const void *hdrs, const uint8_t fs_uuid[16],
			      uint64_t *seq);
/* Is (host uuid, boot id, generation) of h in the evicted list?  All
 * three: two slots of one uuid (a clone under another name, a host renamed
 * across a reboot) may have one generation, never one boot id (review
 * r42c H1).  A boot id is one registration's, whatever name it has: a
 * fence's name (cut, hashed) says which slot's host it is for moot and a
 * second evict --slot, not whether it is fenced */
bool famfs_host_evicted(const struct famfs_host *h,
			const struct famfs_hosts_ev *ev);
/* The slot a host uuid probes first: hash(uuid) % nslots */
unsigned famfs_host_slot_home(const uint8_t host_uuid[16], unsigned nslots);
/* A registration's key (revision 3): a slot is a host's when it holds its
 * host uuid and host name; boot, the boot id it runs in now */
struct famfs_host_key {
	uint8_t uuid[16], boot[16];
	char name[16];			/* NUL-padded, cut, as a record holds it */
	uint64_t name_hash;		/* of the whole name */
};
/* A host name's hash: FNV-1a-64 of its n bytes -- names equal in the
 * bytes a record keeps are told apart (review r42c M2); not two CRC-32s,
 * which are affine: names of one length carried 32 bits (r42f) */
uint64_t famfs_host_name_hash(const char *name, size_t n);
/* k's name and name_hash from the whole host name full */
void famfs_host_key_name(struct famfs_host_key *k, const char *full);
/* Why name full is one that clones of an image share (empty, a
 * distribution's default; failed: gethostname failed), or NULL */
const char *famfs_host_name_shared(const char *full, bool failed);
/* How slot h matches k: 2 k's host in this boot (h valid, its uuid and
 * boot id: the same running host, whatever its name -- renamed while up),
 * 1 k in another boot (uuid, host name cut and its hash: this host
 * rebooted), 0 none
 * (another host, or one of this uuid under another name: a clone, or this
 * host before a rename across a reboot) */
int famfs_host_key_rank(const struct famfs_host *h,
			const struct famfs_host_key *k);
/* Slot i of a mapped table */
static inline uint8_t *famfs_host_slot_at(void *table, unsigned i)
{
	return (uint8_t *)table + FAMFS_HOSTS_SLOTS_OFF +
	       (size_t)i * FAMFS_HOST_SLOT_SIZE;
}

/* ---- hostent.c: the HOSTS entry (type 9, INCOMPAT_HOSTS) ---------------- */
/*
 * Its body is struct famfs_log_hosts at byte FAMFS_NS_BODY_OFF of the v1
 * form (the rest zero), after the famfs_clog_hdr of one compact slot.  The
 * table [offset, offset + FAMFS_HOSTS_LEN) on device 0 is owned by the
 * log like a log segment (R3).
 */
/* A HOSTS entry (not yet sequenced) for a table at off */
void famfs_entry_build_hosts(struct famfs_log_entry *e, uint64_t off);
/* Its body (the v1 form) */
static inline const struct famfs_log_hosts *
famfs_entry_hosts(const struct famfs_log_entry *e)
{
	return (const struct famfs_log_hosts *)((const uint8_t *)e +
						FAMFS_NS_BODY_OFF);
}
/* R2: -EPROTONOSUPPORT when INCOMPAT_HOSTS is clear; R3: -EINVAL when its
 * range is not 2 MiB aligned in the data area of device 0 (what it owns is
 * unknown); else 0 (reason filled on error) */
int famfs_hosts_entry_owned(const struct famfs_log_entry *e,
			    const struct famfs_superblock *sb, char *reason);
/* famfs_hosts_entry_owned, then len, nslots, reserved bytes and flags:
 * 0, or -EINVAL (reason) */
int famfs_hosts_entry_check(const struct famfs_log_entry *e,
			    const struct famfs_superblock *sb, char *reason);
/* The compact form (one slot: 1), and its v1 form from a verified slot
 * (seq, uuid, type set by the caller): 0, or -EINVAL (reason) */
int famfs_hosts_clog_encode(const struct famfs_log_entry *e, uint64_t slot,
			    const uint8_t fs_uuid[16],
			    uint8_t out[FAMFS_CLOG_MAX_ENTRY]);
int famfs_hosts_clog_decode(const uint8_t *b, struct famfs_log_entry *e,
			    char *reason);

#endif /* FAMFS_MEDIA_H */
