/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * famfs - the on-media format: superblock and metadata log
 *
 * Owned by user space (famfs-cli); the kernel never reads the memory on its
 * own, but may include this header (e.g. for the sizes below).  Every field
 * is little-endian and fixed-width; padding is explicit; reserved bytes are
 * written as zero and must read as zero.
 *
 * Layout of a famfs memory device (all offsets in bytes):
 *
 *   [0, 2 MiB)                    superblock region; struct famfs_superblock
 *                                 at offset 0, the master record, beat and
 *                                 intent at 4096 (RO_COMPAT_MASTER_REC),
 *                                 rest zero
 *   [2 MiB, 2 MiB + log_len)      metadata log: struct famfs_log_header in
 *                                 slot 0, then famfs_log_entry slots 1..
 *   [2 MiB + log_len, dev size)   file data, allocated in 2 MiB units
 *
 * CRCs are CRC-32 (IEEE 802.3, reflected, poly 0xedb88320) as computed by
 * zlib's crc32(0, buf, len) -- in the kernel: ~crc32_le(~0, buf, len) --
 * over the whole structure with its crc field (and, for the log header,
 * next_index) set to zero.
 *
 * Log appends (master only): the entry in slot next_index+1 is written with
 * its CRC and flushed, then next_index is advanced by one aligned 8-byte
 * store and flushed.  Entries at or beyond next_index are ignored; an entry
 * whose CRC, sequence number or fs UUID is wrong is reported and skipped.
 *
 * ------------------------------------------------------------------------
 * Format revision 2026-12 ("rev 2"): one plan for integrity (issue 15),
 * several devices (16), scale (17) and non-coherent memory (18)
 * ------------------------------------------------------------------------
 * FAMFS_FORMAT_VERSION stays 1.  Everything below is gated by a feature bit,
 * so a file system that uses none of it stays byte-identical on the media and
 * tools that predate a bit refuse (incompat) or only read (ro_compat) what
 * they do not understand.  A bit is set by the master, under the log lock,
 * in the superblock (new CRC, flushed) *before* the first thing that needs it
 * is written, and is never cleared while such a thing may exist.
 *
 * Reader rules (every tool, every host):
 *  R1  An unknown incompat bit: refuse the file system.  An unknown ro_compat
 *      bit: mount and replay read-only, never append.  Unknown compat bits
 *      are ignored.
 *  R2  Every entry type and every extent kind beyond FILE/MKDIR with 1..2
 *      simple extents comes with an incompat bit (INTERLEAVE, MULTI_EXTENT,
 *      COMPACT_LOG, MULTIDEV).  A CRC-valid entry of a type or kind whose bit
 *      is clear, or that this tool does not know, is *corrupt*, not ignorable.
 *  R3  Memory is never given to two files.  The extents of every entry whose
 *      extent list can still be parsed (CRC-valid, extents in bounds and
 *      aligned) stay allocated even if the rest of the entry is refused
 *      (bad path, duplicate path, bad mode).  If some committed slot cannot
 *      be parsed at all (bad CRC, wrong seq/uuid, torn, or corrupt by R2:
 *      a type or kind it does not know or whose bit is clear), the master
 *      refuses to allocate until fsck has been run and the log repaired or
 *      the entry overridden: it cannot know what that entry owned.  Entries
 *      that take no memory (MKDIR) may still be appended.  Clients report
 *      and skip such an entry (they never allocate).
 *  R4  next_index is not trusted alone.  Readers also scan the slots past
 *      next_index: a CRC-valid entry there with the right seq and fs uuid
 *      keeps its extents used by the allocator.  The slot next_index+1
 *      (entry index next_index) may legitimately hold an uncommitted append
 *      (a crash between the two flushes): its memory stays reserved, fsck
 *      does not count it as a problem, and the master's next append
 *      commits it first (rolls it forward: next_index + 1) instead of
 *      overwriting it -- it cannot tell it from a committed entry whose
 *      next_index lost one (bit 0 of an odd index flipped), which clients
 *      may map.  A valid entry in slot next_index+2 or beyond
 *      (entry index next_index+1 or beyond) means the header is damaged:
 *      fsck reports it ("committed entry past next_index") and the master
 *      refuses to append (any entry, MKDIR too) until it is repaired.
 *
 * Feature bits of this revision:
 *  INCOMPAT_INTERLEAVE   (1<<0) interleaved files (since issue 6).
 *  INCOMPAT_MULTI_EXTENT (1<<1) FILE entries with 3..16 simple extents.
 *  INCOMPAT_COMPACT_LOG  (1<<2) the log is made of 256-byte slots holding
 *                               variable-size entries (below); mkfs chooses.
 *  INCOMPAT_MULTIDEV     (1<<3) member devices; implies COMPACT_LOG (only
 *                               compact extents name a device).
 *  INCOMPAT_NONCOHERENT  (1<<4) the memory is not cache-coherent between
 *                               hosts; every host's mount must honour it
 *                               (tools that predate it must not mount).
 *  INCOMPAT_LOG_EXTEND   (1<<5) the compact log has grown: EXTEND entries
 *                               add log segments (below).
 *  RO_COMPAT_MASTER_REC  (1<<0) a master record lives at FAMFS_MREC_OFFSET;
 *                               a tool that does not check it must not
 *                               append (it could be a second master).
 *
 * Master record (RO_COMPAT_MASTER_REC; struct famfs_master_record, 256
 * bytes at FAMFS_MREC_OFFSET, its own CRC so that refreshing it never
 * rewrites the superblock): the superblock's master_uuid names the *host*
 * allowed to be master, the record the *running instance* that holds the
 * role (host uuid, boot id, a generation bumped at every claim).  Before
 * every append, under the log lock, the master re-reads it and refuses
 * unless (host, boot, generation) are its own.  An all-zero record is "never
 * claimed"; with the bit clear its bytes are ignored (an older mkfs did not
 * zero them).  Claim, hand-over and takeover: docs/master.md.
 *
 * Compact log (issue 17; INCOMPAT_COMPACT_LOG; mkfs makes it unless told
 * --log-format=v1): the log header is struct famfs_log_header as in v1, in the
 * first 1 KiB, with entry_size = FAMFS_CLOG_SLOT (256) and capacity =
 * FAMFS_CLOG_CAPACITY(log_len) slots.  Slot i is the 256 bytes at log offset 1
 * KiB + 256 * i (i = 0.. after the header).  An entry takes nslots
 * (1..FAMFS_CLOG_MAX_SLOTS) consecutive slots: struct famfs_clog_hdr (16
 * bytes), a body, zero up to nslots * 256 bytes.  Its seq is the number of its
 * first slot; next_index is the first free slot (an append of k slots at i
 * advances it from i to i + k, with the same two flushes as v1); an entry
 * never crosses the end of the log.  Its crc is crc32 over (fs_uuid, the
 * nslots * 256 bytes with crc = 0) -- zlib: crc32(crc32(0, fs_uuid, 16),
 * entry, nslots * 256) -- so an entry of an earlier file system on the same
 * memory fails its CRC although the entry does not store the uuid.
 *   FILE and MKDIR body: struct famfs_clog_fmeta (32 bytes: size, ctime, mode,
 * uid, gid, extent_type, nextents, path_len), then nextents x struct
 * famfs_clog_ext (simple extents, in file order), or for an interleaved file a
 * struct famfs_clog_ilv (chunk size) and nextents = nstrips x famfs_clog_ext
 * (the strips: all of one length), then the path: path_len
 * (1..FAMFS_LOG_PATH_MAX - 1) bytes and a NUL.  A compact extent is 16 bytes:
 * offset (bytes, 2 MiB aligned), length in 2 MiB units (le32), devindex (u8):
 * 0, the primary device; another one only with INCOMPAT_MULTIDEV and a DEVADD
 * earlier in the log (below) -- else the entry is unparseable (R2, R3).  A
 * file with a path under 100 bytes and 1-2 extents takes one slot (16 + 32 +
 * 32 + 101 <= 256): a quarter of a v1 entry, so the default 8 MiB log holds
 * 32,764 such files (v1: 8,191); the largest entry (16 extents or strips, a
 * 511-byte path) takes 4.  Semantics are those of v1: a compact entry decodes
 * to exactly the v1 entry it stands for (what v1 could not say, it cannot say
 * either) and is checked by the same rules.  A committed slot whose header
 * does not verify (torn, CRC, seq) is one corrupt entry together with the
 * slots up to the next one that starts a verifying entry (R3: the master then
 * refuses to allocate).
 *   R4 for a compact log is bounded: readers scan the slots past
 * next_index only until FAMFS_CLOG_SCAN consecutive slots (256 KiB) hold
 * no verifying entry of this file system.  The master writes entries back
 * to back, so a damaged next_index leaves a run of valid entries starting
 * at it, which the scan follows whole; a huge empty log costs at most
 * FAMFS_CLOG_SCAN slot headers.  (v1 logs keep the full scan.)
 *   Log growth (INCOMPAT_LOG_EXTEND, compact logs only): the master grows the
 * log online into free data memory of device 0.  The log is then the
 * concatenation of segments in one slot numbering: segment 0 is the log mkfs
 * made (slots 0..C0-1, C0 = header capacity), segment k >= 1 holds the next
 * len_k / 256 slots, in the order of k.  next_index in segment 0's header
 * stays the single commit point, capacity in it stays C0.  Segment k is added
 * by an EXTEND entry (type FAMFS_LOG_EXTEND, one slot, body struct
 * famfs_clog_extend: offset and len of the segment, 2 MiB aligned, in the data
 * area, overlapping neither the log nor an earlier segment; segment == k; at
 * most FAMFS_LOG_MAX_SEGS segments and FAMFS_LOG_TOTAL_MAX bytes in all).  An
 * EXTEND entry for k is committed before any slot of segment k is written, so
 * a reader that walks the log in order knows a segment before it reaches it;
 * an entry may span a segment boundary (its slots are gathered slot by
 * slot).  A segment's memory is owned by the log (R3: the allocator keeps it
 * used) from the moment its EXTEND entry verifies, also as R4's uncommitted
 * entry at next_index.  An EXTEND entry whose bit is clear, or with a wrong
 * segment number, an overlap or a range out of bounds, is corrupt (R2, R3: if
 * its range is aligned and in the data area it stays owned).
 *   The master's growth (under the log lock: bit, free range, zeroed and
 * flushed, EXTEND appended, .meta/.logK.new renamed) and what a crash at each
 * step leaves: docs/format.md.  A .meta/.logK that maps other memory than its
 * EXTEND entry says is not read through (the entry is not corrupt).  A segment
 * a reader cannot map (its EXTEND entry corrupt, its .meta/.logK unusable)
 * makes its slots and every later one unreadable there: reported as a corrupt
 * entry at its first slot (fsck, replay), not fatal; the master allocates
 * nothing meanwhile (R3).  Appends other than EXTEND never take the last slot
 * of the log, so a full log can always record its growth.  Every host maps
 * segment k through its own .meta/.logK, created (MAP_CREATE, type FAMFS_LOG,
 * the mode of .meta/.log) when its replay or follower meets the EXTEND entry;
 * the bounded R4 scan (FAMFS_CLOG_SCAN) and the torn-append rules apply across
 * segments.  mkfs zeroes only the first 2 MiB of the log (header, R4 window):
 * slots past next_index of an earlier file system never verify, their CRC
 * being seeded with its fs uuid, so a 1 GiB log costs a small file system
 * nothing more than an 8 MiB one.
 *
 * Several devices (issue 16; INCOMPAT_MULTIDEV): the primary holds the
 * superblock and the log.  Each member device holds at offset 0 a
 * struct famfs_member_sb (fs uuid, device uuid, index 1..FAMFS_MAX_DEVS-1,
 * size, CRC) in its own 2 MiB reserved unit, and is added by a DEVADD entry
 * (index, device uuid, size).  Hosts find members by device uuid, never by
 * name.  Overlap and bounds rules are per device.
 *   MULTIDEV implies COMPACT_LOG (a superblock with MULTIDEV and without
 * COMPACT_LOG is refused; mkfs --log-format=v1 with members is refused).
 *   DEVADD (entry type FAMFS_LOG_DEVADD = 3, compact log only, R2: only
 * with MULTIDEV set, else the entry is corrupt): after its famfs_clog_hdr,
 * a struct famfs_clog_devadd (index, device uuid, device size, ctime), the
 * rest of its one slot zero.  Indexes are added in order 1, 2, 3, ...: a
 * DEVADD whose index is not one more than the last one added before it in
 * the log, or whose device uuid an earlier DEVADD added, or whose size is
 * not a non-zero multiple of 2 MiB of at least FAMFS_MEMBER_MIN_SIZE, is
 * corrupt (R3: unparseable; it owns no memory, but the extents that name
 * its index cannot be judged).  mkfs logs one DEVADD per member as the
 * first entries; `famfs devadd` appends one later (its steps, so that a
 * crash leaves no half member: docs/devices.md).  The member's size in
 * DEVADD is at most its member superblock's device_size; the device's data
 * is [FAMFS_MEMBER_DATA_OFFSET, size).
 *   A compact extent or strip whose devindex is not 0 names the member
 * that a DEVADD entry *earlier in the log* (at a lower slot) added, and
 * lies in [FAMFS_MEMBER_DATA_OFFSET, that DEVADD's device_size); otherwise
 * the entry is unparseable (R2, R3).  Extents on different devices never
 * overlap each other.  v1 entries (1 KiB slots) never name a member.
 *
 * Non-coherent memory (issue 18; INCOMPAT_NONCOHERENT): the bit is the
 * property; mkfs --noncoherent sets it, `famfs tune --noncoherent|--coherent`
 * flips it (master only).  Mounts pass it to the kernel as -o noncoherent;
 * the user's -o coherent / -o noncoherent overrides it (logged).
 */
#ifndef _UAPI_LINUX_FAMFS_FORMAT_H
#define _UAPI_LINUX_FAMFS_FORMAT_H

#include <linux/types.h>
#include <linux/famfs_ioctl.h>	/* FAMFS_IOC_PAGE_SIZE, _SMALL_MAX (below) */

#ifdef __cplusplus
#define FAMFS_FORMAT_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define FAMFS_FORMAT_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#define FAMFS_FORMAT_VERSION	1

#define FAMFS_ALLOC_UNIT_SHIFT	21			/* 2 MiB */
#define FAMFS_ALLOC_UNIT	(1ULL << FAMFS_ALLOC_UNIT_SHIFT)

#define FAMFS_SB_OFFSET		0ULL
#define FAMFS_SB_REGION_LEN	FAMFS_ALLOC_UNIT	/* .meta/.superblock */
#define FAMFS_LOG_OFFSET	FAMFS_ALLOC_UNIT	/* .meta/.log */

/* --loglen: a power of two in [MIN, MAX]; default 8 MiB (8191 entries) */
#define FAMFS_LOG_LEN_DEFAULT	(8ULL << 20)
#define FAMFS_LOG_LEN_MIN	(2ULL << 20)		/* 2047 entries */
#define FAMFS_LOG_LEN_MAX	(1ULL << 30)		/* 1048575 entries */

/* Smallest device: superblock + log + one data unit. */
#define FAMFS_MIN_DEV_SIZE(loglen) (FAMFS_LOG_OFFSET + (loglen) + FAMFS_ALLOC_UNIT)

/* ------------------------------------------------------------------------ */
/* Superblock (offset 0, 512 bytes)                                          */

#define FAMFS_SB_MAGIC		0x31425353464d4146ULL	/* "FAMFSSB1" */
#define FAMFS_SB_SIZE		512

/* Features.  compat: ignorable; ro_compat: unknown ones allow read-only use
 * only; incompat: a reader refuses any bit it does not know. */
#define FAMFS_FEATURE_INCOMPAT_INTERLEAVE	(1U << 0) /* the log has (or may
							   * have) interleaved
							   * files; set by the
							   * first one */
/* Reserved by format rev 2 (see the top of this file); a bit joins the
 * *_SUPP masks only when its implementation lands (MULTI_EXTENT and
 * MASTER_REC have: issue 15; COMPACT_LOG: issue 17; MULTIDEV: issue 16,
 * mkfs with members, devadd, mount and logplay attaching them). */
#define FAMFS_FEATURE_INCOMPAT_MULTI_EXTENT	(1U << 1)
#define FAMFS_FEATURE_INCOMPAT_COMPACT_LOG	(1U << 2)
#define FAMFS_FEATURE_INCOMPAT_MULTIDEV		(1U << 3)
#define FAMFS_FEATURE_INCOMPAT_NONCOHERENT	(1U << 4)
/* issue 17, log growth: EXTEND entries (compact log only) */
#define FAMFS_FEATURE_INCOMPAT_LOG_EXTEND	(1U << 5)
#define FAMFS_FEATURE_RO_COMPAT_MASTER_REC	(1U << 0)
#define FAMFS_FEATURE_COMPAT_SUPP	0U
#define FAMFS_FEATURE_RO_COMPAT_SUPP	FAMFS_FEATURE_RO_COMPAT_MASTER_REC
#define FAMFS_FEATURE_INCOMPAT_SUPP	(FAMFS_FEATURE_INCOMPAT_INTERLEAVE | \
					 FAMFS_FEATURE_INCOMPAT_MULTI_EXTENT | \
					 FAMFS_FEATURE_INCOMPAT_COMPACT_LOG | \
					 FAMFS_FEATURE_INCOMPAT_MULTIDEV | \
					 FAMFS_FEATURE_INCOMPAT_NONCOHERENT | \
					 FAMFS_FEATURE_INCOMPAT_LOG_EXTEND | \
					 FAMFS_FEATURE_INCOMPAT_DELETE | \
					 FAMFS_FEATURE_INCOMPAT_RENAME | \
					 FAMFS_FEATURE_INCOMPAT_SETATTR | \
					 FAMFS_FEATURE_INCOMPAT_HOSTS | \
					 FAMFS_FEATURE_INCOMPAT_SMALL_FILES)

struct famfs_superblock {
	__le64	magic;			/*   0 FAMFS_SB_MAGIC */
	__le32	version;		/*   8 FAMFS_FORMAT_VERSION */
	__le32	crc;			/*  12 CRC-32 of the 512 bytes, crc = 0 */
	__le32	feature_compat;		/*  16 */
	__le32	feature_incompat;	/*  20 */
	__le32	feature_ro_compat;	/*  24 */
	__le32	alloc_unit_shift;	/*  28 FAMFS_ALLOC_UNIT_SHIFT */
	__u8	fs_uuid[16];		/*  32 this file system */
	__u8	master_uuid[16];	/*  48 host id of the master (mkfs host) */
	__le64	device_size;		/*  64 bytes of the device at mkfs time */
	__le64	log_offset;		/*  72 FAMFS_LOG_OFFSET */
	__le64	log_len;		/*  80 power of two, see FAMFS_LOG_LEN_* */
	__le64	ctime;			/*  88 mkfs time, seconds since the epoch */
	__u8	reserved[416];		/*  96 zero */
};
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_superblock) == FAMFS_SB_SIZE,
		    "famfs_superblock must be 512 bytes");

/* ------------------------------------------------------------------------ */
/* Master record (RO_COMPAT_MASTER_REC): who holds the master role now        */

#define FAMFS_MREC_OFFSET	4096ULL		/* in the superblock region */
#define FAMFS_MREC_MAGIC	0x31434552534d4146ULL	/* "FAMSREC1" */
#define FAMFS_MREC_SIZE		256

struct famfs_master_record {
	__le64	magic;			/*   0 FAMFS_MREC_MAGIC, 0 = never claimed */
	__le32	crc;			/*   8 CRC-32 of the 256 bytes, crc = 0 */
	__le32	flags;			/*  12 FAMFS_MREC_HELD or 0 (released) */
	__le64	generation;		/*  16 bumped by every claim */
	__u8	fs_uuid[16];		/*  24 == superblock fs_uuid */
	__u8	host_uuid[16];		/*  40 holder's /etc/famfs/host-uuid */
	__u8	boot_id[16];		/*  56 holder's boot id */
	__le64	claim_time;		/*  72 seconds since the epoch */
	char	hostname[64];		/*  80 for messages only, NUL-padded */
	__u8	reserved[112];		/* 144 zero */
};
#define FAMFS_MREC_HELD		(1U << 0)
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_master_record) == FAMFS_MREC_SIZE,
		    "famfs_master_record must be 256 bytes");

/*
 * Master beat and takeover intent (part of RO_COMPAT_MASTER_REC, no bit
 * of their own): two 128-byte structures right after the record, each with
 * its own CRC.  The beat is written only by the record's holder (at its
 * claim and at every command that checks the role), the intent only by an
 * instance of the holder's host about to take the role over; neither is
 * read by tools that predate them.  Bytes that do not verify (magic, CRC,
 * fs uuid), or a beat of another generation or boot id than the record's,
 * are no beat.  How a takeover waits for a lease: docs/master.md.
 */
#define FAMFS_MBEAT_OFFSET	(FAMFS_MREC_OFFSET + FAMFS_MREC_SIZE)	/* 4352 */
#define FAMFS_MBEAT_MAGIC	0x54414542534d4146ULL	/* "FAMSBEAT" */
#define FAMFS_MBEAT_SIZE	128

struct famfs_master_beat {
	__le64	magic;			/*   0 FAMFS_MBEAT_MAGIC */
	__le32	crc;			/*   8 CRC-32 of the 128 bytes, crc = 0 */
	__le32	flags;			/*  12 zero (none defined) */
	__le64	generation;		/*  16 the record's it beats for */
	__u8	fs_uuid[16];		/*  24 == superblock fs_uuid */
	__u8	boot_id[16];		/*  40 the holder's (the record's) */
	__le64	count;			/*  56 one more at every beat */
	__le64	beat_time;		/*  64 seconds since the epoch */
	__u8	reserved[56];		/*  72 zero */
};
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_master_beat) == FAMFS_MBEAT_SIZE,
		    "famfs_master_beat must be 128 bytes");

#define FAMFS_MINTENT_OFFSET	(FAMFS_MBEAT_OFFSET + FAMFS_MBEAT_SIZE)	/* 4480 */
#define FAMFS_MINTENT_MAGIC	0x544e4157534d4146ULL	/* "FAMSWANT" */
#define FAMFS_MINTENT_SIZE	128

struct famfs_master_intent {
	__le64	magic;			/*   0 FAMFS_MINTENT_MAGIC */
	__le32	crc;			/*   8 CRC-32 of the 128 bytes, crc = 0 */
	__le32	wait;			/*  12 seconds it watches the beat */
	__le64	generation;		/*  16 the record's it would take over */
	__u8	fs_uuid[16];		/*  24 == superblock fs_uuid */
	__u8	boot_id[16];		/*  40 the boot that would take over */
	__le64	count_seen;		/*  56 the beat's count when it began */
	__le64	intent_time;		/*  64 seconds since the epoch */
	__u8	reserved[56];		/*  72 zero */
};
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_master_intent) == FAMFS_MINTENT_SIZE,
		    "famfs_master_intent must be 128 bytes");

/* ------------------------------------------------------------------------ */
/* Log: header in slot 0, then fixed-size entries                            */

#define FAMFS_LOG_MAGIC		0x31474f4c534d4146ULL	/* "FAMSLOG1" */
#define FAMFS_LOG_ENTRY_SIZE	1024
#define FAMFS_LOG_HDR_SIZE	FAMFS_LOG_ENTRY_SIZE	/* occupies slot 0 */

/* Entries a log of len bytes holds (slot 0 is the header). */
#define FAMFS_LOG_CAPACITY(len)	((len) / FAMFS_LOG_ENTRY_SIZE - 1)

struct famfs_log_header {
	__le64	magic;			/*   0 FAMFS_LOG_MAGIC */
	__le32	crc;			/*   8 CRC-32, crc = next_index = 0 */
	__le32	entry_size;		/*  12 FAMFS_LOG_ENTRY_SIZE */
	__le64	next_index;		/*  16 committed entries (8-byte store) */
	__le64	capacity;		/*  24 FAMFS_LOG_CAPACITY(log_len) */
	__le64	log_len;		/*  32 == superblock log_len */
	__u8	fs_uuid[16];		/*  40 == superblock fs_uuid */
	__u8	reserved[968];		/*  56 zero */
};
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_log_header) == FAMFS_LOG_HDR_SIZE,
		    "famfs_log_header must fill one log slot");

/* famfs_log_entry.type */
enum famfs_log_entry_type {
	FAMFS_LOG_FILE  = 1,		/* create a file with an extent list */
	FAMFS_LOG_MKDIR = 2,		/* create a directory */
	FAMFS_LOG_DEVADD = 3,		/* add a member device (compact log,
					 * INCOMPAT_MULTIDEV only) */
};

/* famfs_log_fmeta.extent_type: how ext[] is to be read */
enum famfs_log_extent_type {
	FAMFS_LOG_EXT_SIMPLE      = 1,	/* nextents (1..FAMFS_LOG_MAX_SIMPLE_EXT)
					 * x famfs_log_simple_ext, in file
					 * order, not overlapping each other */
	FAMFS_LOG_EXT_INTERLEAVED = 2,	/* nextents == 1, one
					 * famfs_log_interleave_ext; only in a
					 * log whose superblock has
					 * FAMFS_FEATURE_INCOMPAT_INTERLEAVE */
};

/* Paths are relative to the mount point, '/'-separated, no ".", ".." or
 * empty components, NUL-terminated; longer ones are refused. */
#define FAMFS_LOG_PATH_MAX	512	/* including the NUL: 511 bytes */
#define FAMFS_LOG_EXT_AREA	256	/* bytes for the extent list */

struct famfs_log_simple_ext {
	__le64	offset;			/* device offset, 2 MiB aligned */
	__le64	len;			/* bytes, multiple of 2 MiB */
};
#define FAMFS_LOG_MAX_SIMPLE_EXT \
	(FAMFS_LOG_EXT_AREA / sizeof(struct famfs_log_simple_ext))	/* 16 */

/* An interleaved file (seed 003, <linux/famfs_interleave.h>): nstrips strips
 * of strip_len bytes each, striped in chunk_size chunks.  It holds
 * nstrips * strip_len bytes, at least the file's size.  strip_len is a
 * non-zero multiple of chunk_size, chunk_size a non-zero multiple of 2 MiB,
 * every strip_off 2 MiB aligned; strip_off[nstrips..] are zero. */
#define FAMFS_LOG_MAX_STRIPS	16

struct famfs_log_interleave_ext {
	__le32	nstrips;		/*   0 1..FAMFS_LOG_MAX_STRIPS */
	__le32	reserved;		/*   4 zero */
	__le64	chunk_size;		/*   8 bytes */
	__le64	strip_len;		/*  16 bytes of every strip */
	__le64	strip_off[FAMFS_LOG_MAX_STRIPS]; /* 24 device offsets */
};

struct famfs_log_fmeta {
	__le64	size;			/*  32 file size (0 for a directory) */
	__le64	ctime;			/*  40 seconds since the epoch */
	__le32	mode;			/*  48 permission bits (07777) */
	__le32	uid;			/*  52 */
	__le32	gid;			/*  56 */
	__le16	extent_type;		/*  60 famfs_log_extent_type, 0 for dirs */
	__le16	nextents;		/*  62 */
	union {				/*  64 */
		struct famfs_log_simple_ext simple[FAMFS_LOG_MAX_SIMPLE_EXT];
		struct famfs_log_interleave_ext interleave;
		__u8	raw[FAMFS_LOG_EXT_AREA];
	} ext;
	__le16	path_len;		/* 320 strlen(path) */
	__u8	pad[6];			/* 322 zero */
	char	path[FAMFS_LOG_PATH_MAX]; /* 328 NUL-terminated, NUL-padded */
	__u8	reserved[184];		/* 840 zero */
};

struct famfs_log_entry {
	__le64	seq;			/*   0 == the entry's index */
	__le32	crc;			/*   8 CRC-32 of the entry, crc = 0 */
	__le16	type;			/*  12 famfs_log_entry_type */
	__le16	flags;			/*  14 zero */
	__u8	fs_uuid[16];		/*  16 == superblock fs_uuid */
	struct famfs_log_fmeta fm;	/*  32 FILE and MKDIR */
};
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_log_entry) == FAMFS_LOG_ENTRY_SIZE,
		    "famfs_log_entry must be FAMFS_LOG_ENTRY_SIZE bytes");
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_log_interleave_ext) == 152,
		    "famfs_log_interleave_ext must be 152 bytes");

/* ------------------------------------------------------------------------ */
/* Member device superblock (INCOMPAT_MULTIDEV, issue 16)                    */
/*
 * Offset 0 of every member device (never of the primary), in the member's
 * own reserved first allocation unit [0, 2 MiB): the rest of that unit is
 * zero and never allocated; file data on a member starts at 2 MiB.
 * A host finds member N by scanning its pmem and dax devices for this
 * structure with the file system's fs_uuid and index N, and checks
 * dev_uuid against the DEVADD entry of the log: never by device name.
 * fs_ctime binds the member to one mkfs of the file system (a copy of the
 * primary's superblock ctime), in case an fs uuid is ever reused.
 * Written once (mkfs or devadd), flushed, and never rewritten.  CRC as the
 * superblock's: crc32 of the 512 bytes with crc = 0.  A reader refuses an
 * unknown version, any incompat bit (none is defined), an index outside
 * 1..FAMFS_MAX_DEVS-1, a nil uuid, nonzero reserved bytes, and a
 * device_size larger than the device.
 */
#define FAMFS_MAX_DEVS		16	/* device indexes 0 (primary) .. 15 */
#define FAMFS_MEMBER_MAGIC	0x3142454d534d4146ULL	/* "FAMSMEB1" */
#define FAMFS_MEMBER_VERSION	1
#define FAMFS_MEMBER_SB_SIZE	512
#define FAMFS_MEMBER_SB_OFFSET	0ULL
#define FAMFS_MEMBER_DATA_OFFSET FAMFS_ALLOC_UNIT	/* first data unit */
/* Smallest member: its reserved unit + one data unit. */
#define FAMFS_MEMBER_MIN_SIZE	(2 * FAMFS_ALLOC_UNIT)

struct famfs_member_sb {
	__le64	magic;			/*   0 FAMFS_MEMBER_MAGIC */
	__le32	version;		/*   8 FAMFS_MEMBER_VERSION */
	__le32	crc;			/*  12 CRC-32 of the 512 bytes, crc = 0 */
	__le32	feature_incompat;	/*  16 zero (none defined: refuse any) */
	__le32	index;			/*  20 1..FAMFS_MAX_DEVS-1 */
	__u8	fs_uuid[16];		/*  24 == primary superblock fs_uuid */
	__u8	dev_uuid[16];		/*  40 this member, == its DEVADD entry */
	__le64	fs_ctime;		/*  56 == primary superblock ctime */
	__le64	device_size;		/*  64 bytes of the device when written */
	__le64	ctime;			/*  72 when written, seconds since epoch */
	__le32	alloc_unit_shift;	/*  80 FAMFS_ALLOC_UNIT_SHIFT */
	__u8	pad[4];			/*  84 zero */
	__u8	reserved[424];		/*  88 zero */
};
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_member_sb) == FAMFS_MEMBER_SB_SIZE,
		    "famfs_member_sb must be 512 bytes");
FAMFS_FORMAT_ASSERT(FAMFS_MAX_DEVS >= 9 && FAMFS_MAX_DEVS <= 256,
		    "a primary + at least 8 members; compact extents index by u8");

/* ------------------------------------------------------------------------ */
/* Compact log (INCOMPAT_COMPACT_LOG): 256-byte slots, entries of 1..4 slots */

#define FAMFS_CLOG_SLOT		256
#define FAMFS_CLOG_HDR_SLOTS	(FAMFS_LOG_HDR_SIZE / FAMFS_CLOG_SLOT)	/* 4 */
#define FAMFS_CLOG_MAX_SLOTS	4
#define FAMFS_CLOG_MAX_ENTRY	(FAMFS_CLOG_MAX_SLOTS * FAMFS_CLOG_SLOT)
/* Slots a compact log of len bytes holds (the header takes the first 4). */
#define FAMFS_CLOG_CAPACITY(len) ((len) / FAMFS_CLOG_SLOT - FAMFS_CLOG_HDR_SLOTS)
/* R4: slots past next_index scanned beyond the last valid entry found */
#define FAMFS_CLOG_SCAN		1024

struct famfs_clog_hdr {
	__le64	seq;			/*   0 number of the entry's first slot */
	__le32	crc;			/*   8 crc32(fs_uuid, entry with crc = 0) */
	__le16	type;			/*  12 famfs_log_entry_type */
	__u8	nslots;			/*  14 1..FAMFS_CLOG_MAX_SLOTS */
	__u8	flags;			/*  15 zero */
};
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_clog_hdr) == 16,
		    "famfs_clog_hdr must be 16 bytes");

struct famfs_clog_ext {
	__le64	offset;			/*   0 device offset, 2 MiB aligned */
	__le32	len;			/*   8 2 MiB units, >= 1 */
	__u8	devindex;		/*  12 0: the primary device; else a
					 *     member an earlier DEVADD added */
	__u8	reserved[3];		/*  13 zero */
};
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_clog_ext) == 16,
		    "famfs_clog_ext must be 16 bytes");

struct famfs_clog_ilv {
	__le32	chunk;			/*   0 chunk size, 2 MiB units, >= 1 */
	__le32	reserved;		/*   4 zero */
};
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_clog_ilv) == 8,
		    "famfs_clog_ilv must be 8 bytes");

/* FILE and MKDIR: after the famfs_clog_hdr */
struct famfs_clog_fmeta {
	__le64	size;			/*  16 file size (0 for a directory) */
	__le64	ctime;			/*  24 seconds since the epoch */
	__le32	mode;			/*  32 permission bits (07777) */
	__le32	uid;			/*  36 */
	__le32	gid;			/*  40 */
	__u8	extent_type;		/*  44 famfs_log_extent_type, 0 for dirs */
	__u8	nextents;		/*  45 extents or strips, 0 for dirs */
	__le16	path_len;		/*  46 strlen(path) */
	/* 48: [famfs_clog_ilv] nextents x famfs_clog_ext, path, NUL, zeros */
};
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_clog_fmeta) == 32,
		    "famfs_clog_fmeta must be 32 bytes");
/* a path of 100 bytes and 2 extents fit one slot; every v1 entry fits 4 */
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_clog_hdr) +
		    sizeof(struct famfs_clog_fmeta) +
		    2 * sizeof(struct famfs_clog_ext) + 100 + 1 <= FAMFS_CLOG_SLOT,
		    "a typical compact entry must fit one slot");
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_clog_hdr) +
		    sizeof(struct famfs_clog_fmeta) +
		    sizeof(struct famfs_clog_ilv) +
		    FAMFS_LOG_MAX_SIMPLE_EXT * sizeof(struct famfs_clog_ext) +
		    FAMFS_LOG_PATH_MAX <= FAMFS_CLOG_MAX_ENTRY,
		    "the largest compact entry must fit FAMFS_CLOG_MAX_SLOTS");
FAMFS_FORMAT_ASSERT(FAMFS_LOG_MAX_STRIPS == FAMFS_LOG_MAX_SIMPLE_EXT,
		    "strips and extents share the compact extent area");

/* ------------------------------------------------------------------------ */
/* DEVADD (INCOMPAT_MULTIDEV, issue 16): after the famfs_clog_hdr, one slot */

struct famfs_clog_devadd {
	__le32	index;			/*  16 1..FAMFS_MAX_DEVS-1, in order */
	__le32	reserved;		/*  20 zero */
	__u8	dev_uuid[16];		/*  24 == the member sb's dev_uuid */
	__le64	device_size;		/*  40 bytes, multiple of 2 MiB,
					 *     <= the member sb's device_size */
	__le64	ctime;			/*  48 seconds since the epoch */
};
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_clog_devadd) == 40,
		    "famfs_clog_devadd must be 40 bytes");
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_clog_hdr) +
		    sizeof(struct famfs_clog_devadd) <= FAMFS_CLOG_SLOT,
		    "a DEVADD entry must fit one slot");

/* ------------------------------------------------------------------------ */
/* Log growth (INCOMPAT_LOG_EXTEND): EXTEND entries, log segments            */

/* famfs_clog_hdr.type of an EXTEND entry (3 is DEVADD, issue 16) */
#define FAMFS_LOG_EXTEND	4
/* segments 0 (mkfs's log) .. FAMFS_LOG_MAX_SEGS - 1 */
#define FAMFS_LOG_MAX_SEGS	64
/* all segments together: 256 M slots */
#define FAMFS_LOG_TOTAL_MAX	(64ULL << 30)

/* EXTEND: after the famfs_clog_hdr (nslots 1), the rest of the slot zero */
struct famfs_clog_extend {
	__le64	offset;			/*  16 device 0 offset, 2 MiB aligned */
	__le64	len;			/*  24 bytes, a multiple of 2 MiB */
	__le32	segment;		/*  32 1..FAMFS_LOG_MAX_SEGS - 1 */
	__le32	reserved;		/*  36 zero */
	__u8	pad[8];			/*  40 zero */
};
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_clog_extend) == 32,
		    "famfs_clog_extend must be 32 bytes");
FAMFS_FORMAT_ASSERT(FAMFS_LOG_TOTAL_MAX % FAMFS_ALLOC_UNIT == 0 &&
		    FAMFS_LOG_TOTAL_MAX >= 2 * FAMFS_LOG_LEN_MAX,
		    "a grown log holds at least twice the largest mkfs log");

/* ------------------------------------------------------------------------ */
/* Format revision 3.  Implemented: DELETE, RENAME, SETATTR, RECLAIM and   */
/* HOSTS (issue 29: the host table, and the master's RECLAIM of a DELETE   */
/* no host can reach any more); SMALL_FILES (issue 30).  Tools from before */
/* a bit refuse a file system that has it (R1).                             */
/* ------------------------------------------------------------------------ */
/*
 * One revision for the life of a file (delete, rename, setattr; memory
 * reclaimed only when no host can still reach it) and for small files (page
 * extents in shared 2 MiB units).  R1-R4 hold; every new entry type and
 * extent kind has an incompat bit, set by the master under the log lock
 * before the first entry that needs it.
 *
 * An object (file or directory) is named by the log index of the FILE or
 * MKDIR entry that made it (compact: its first slot), its id for life, *and*
 * by its path at that point of the log: a replay never deletes, renames or
 * chmods another object that took the path (reported, skipped).  A new
 * entry's body is one struct, the same in both logs: compact, after the
 * famfs_clog_hdr; v1, at byte 32 of a famfs_log_entry (its seq, crc, type,
 * flags, fs_uuid as for FILE), the rest zero.  Paths follow FILE's rules.
 *
 *  DELETE (5, INCOMPAT_DELETE): struct famfs_log_delete.  Removes the file,
 *    or the empty directory, object made, now at path; else (not empty, not
 *    that object, deleted already) reported and skipped, freeing nothing.
 *    A deleted file's memory stays owned -- by the DELETE -- until a
 *    RECLAIM names it (R3).  A path deleted and made again is a new object.
 *  RENAME (6, INCOMPAT_RENAME): struct famfs_log_rename, then old and new
 *    path, each NUL-terminated, FAMFS_RENAME_PATHS bytes together at most.
 *    Moves the object (a directory with its subtree, every path below it
 *    changing with it); new must not exist, its parent must be a directory
 *    and it must not lie under old, else reported and skipped.
 *  SETATTR (7, INCOMPAT_SETATTR): struct famfs_log_setattr: the fields valid
 *    names (mode 07777, uid, gid; never (u32)-1) are the object's from here
 *    on.  Clients still strip write bits of files.
 *  RECLAIM (8, INCOMPAT_DELETE): struct famfs_log_reclaim: the memory of
 *    the DELETEs it names (each an earlier DELETE of a file that no RECLAIM
 *    named) is free from here on, zeroed before a new file gets it; any
 *    other id makes the entry corrupt (R3: the master stops allocating).
 *  HOSTS (9, INCOMPAT_HOSTS): struct famfs_log_hosts: the host table is
 *    [offset, offset + len) of device 0, 2 MiB aligned, in the data area,
 *    owned by the log (R3) like a segment; one per file system.  Every host
 *    maps it writable as .meta/.hosts (MAP_CREATE file type FAMFS_LOG, a
 *    metadata file: famfs.ko has no type of its own for it).  A reader
 *    refuses the entry unless len and nslots are its own (hostent.c): a
 *    FAMSHOS1/2 build (8176, 8160 slots) refuses this one's; a FAMSHOS3
 *    build (256 slots too) accepts it and nothing keeps it out (it sees
 *    every slot torn): no build of an earlier layout may share a file
 *    system with this one (none was released; docs/lifecycle.md).
 *
 * Reclaim across hosts.  The host table is a header in two copies (struct
 * famfs_hosts_hdr at bytes 0 and 4096, written by the master only: flags
 * and the evicted list) and, from byte 8192, FAMFS_HOST_SLOTS (256) slots
 * of two copies each (struct famfs_host_rec), keyed by (host uuid, host
 * name); the 2 MiB's rest is unused.  Header and slot alike: a writer
 * rewrites the older copy (or one that does not verify) with seq + 1, so a
 * torn write leaves the newer whole; the newest copy whose magic and CRC --
 * seeded with the fs uuid -- verify is the header or the slot (two of one
 * seq that differ: a slot torn, a header not understood).  seq and
 * generation, the header's seq too, stop at UINT64_MAX - 1: a copy or
 * header at UINT64_MAX is corrupt, and one at the end is not written
 * again, never wrapped to 0.  A host writes only its own slot.  The
 * master appends a RECLAIM for DELETE d only when every registered slot
 * that is not evicted has holds_from > d and replayed > d (its own
 * included: what famfs.ko reports held blocks, however late it
 * registered; a host that registered after d blocks it until its replay
 * has read past d -- a mount's replay reports how far it read, which is
 * past d unless it stopped at a lost segment); a slot with no verifying
 * copy that is not all zero blocks every reclaim until the master zeroes
 * it (an eviction by slot).  Times are shown, never used to decide.  How
 * slots are claimed, registered, fenced and trusted: docs/lifecycle.md.
 *
 * The header's flags: FAMFS_HOSTS_ARMED, and no other bit.  A header whose
 * newest verifying copy has a bit the reader does not know is a newer
 * build's rules: the reader takes no part (it does not register, its
 * master reclaims nothing, repair does not write over it); it never falls
 * back to the older copy.  A fence names (host uuid, host name, boot id,
 * generation): the host stops, and registers again only at another boot;
 * it leaves a full list only once moot (a slot of its uuid and name holds
 * another boot, a greater generation: never a clone's other name), else an
 * eviction is refused until one is forgotten (evict --forget).  The master
 * appends a RECLAIM only while the table is armed, because only then is
 * every host that can map the file system known to be registered: a host
 * that mounted before the table existed and never replays again has no
 * slot, and nothing the master can read says it exists.  A table is armed
 * when made before any client mounted (`famfs hosts init`, right after
 * mkfs and the master's mount), or when the administrator arms it after
 * checking that `famfs hosts` lists every host that has the file system
 * mounted (`famfs hosts arm`).  The table the first `famfs rm` of a file
 * makes is not armed.  Only the master writes the flag, under the log
 * lock; its other header writes (evictions) keep it.
 *
 * Small files (INCOMPAT_SMALL_FILES).  extent_type FAMFS_LOG_EXT_PAGES: 1..16
 * page extents in file order (v1: famfs_log_simple_ext in bytes; compact:
 * famfs_clog_ext with len in 4 KiB pages), each 4 KiB aligned and inside one
 * 2 MiB unit, for a file whose size is below FAMFS_SMALL_MAX.  A unit that
 * holds any page extent is a shared unit: no simple or interleaved extent
 * overlaps it (checked at unit granularity; page extents among themselves at
 * page granularity), and it returns to the unit allocator only when all of
 * its pages are free again.  A log that breaks this (diverged or corrupt)
 * is fsck's to report; a master reading it keeps that unit used for good
 * (no page of it for a new file, never back to the unit allocator).  The
 * tool zeroes a new small file's own pages,
 * nothing else of its unit.  famfs.ko gets such a map with MAP_CREATE_V3 and
 * flag FAMFS_IOC_MAP_PAGES (v1 and v2 keep their 2 MiB rules), checks bounds
 * and overlap per page, and maps it with 4 KiB faults only.
 */
#define FAMFS_FEATURE_INCOMPAT_DELETE		(1U << 6)	/* + RECLAIM */
#define FAMFS_FEATURE_INCOMPAT_RENAME		(1U << 7)
#define FAMFS_FEATURE_INCOMPAT_SETATTR		(1U << 8)
#define FAMFS_FEATURE_INCOMPAT_HOSTS		(1U << 9)
#define FAMFS_FEATURE_INCOMPAT_SMALL_FILES	(1U << 10)

#define FAMFS_LOG_DELETE	5
#define FAMFS_LOG_RENAME	6
#define FAMFS_LOG_SETATTR	7
#define FAMFS_LOG_RECLAIM	8
#define FAMFS_LOG_HOSTS		9
#define FAMFS_LOG_EXT_PAGES	3	/* famfs_log_extent_type */
#define FAMFS_PAGE		4096ULL
#define FAMFS_SMALL_MAX		FAMFS_ALLOC_UNIT	/* sizes below it */
/* famfs_ioctl.h says them again for famfs.ko: the same values */
FAMFS_FORMAT_ASSERT(FAMFS_IOC_PAGE_SIZE == FAMFS_PAGE &&
		    FAMFS_IOC_SMALL_MAX == FAMFS_SMALL_MAX &&
		    FAMFS_IOC_MAX_PAGE_EXTENTS == FAMFS_LOG_MAX_SIMPLE_EXT,
		    "famfs_ioctl.h's small-file constants are the format's");

struct famfs_log_delete {
	__le64	object;			/*   0 id: index of its FILE/MKDIR */
	__le64	ctime;			/*   8 seconds since the epoch */
	__le16	path_len;		/*  16 strlen(path) */
	__le16	kind;			/*  18 FAMFS_LOG_FILE or _MKDIR */
	__u8	pad[4];			/*  20 zero */
	/* 24: path, NUL, zeros */
};
struct famfs_log_rename {
	__le64	object;			/*   0 id */
	__le64	ctime;			/*   8 */
	__le16	old_len;		/*  16 strlen(old path) */
	__le16	new_len;		/*  18 strlen(new path) */
	__le16	kind;			/*  20 FAMFS_LOG_FILE or _MKDIR */
	__u8	pad[2];			/*  22 zero */
	/* 24: old path, NUL, new path, NUL, zeros */
};
#define FAMFS_RENAME_PATHS	960	/* old_len + new_len + 2 at most */
struct famfs_log_setattr {
	__le64	object;			/*   0 id */
	__le64	ctime;			/*   8 */
	__le32	valid;			/*  16 FAMFS_SETATTR_* */
	__le32	mode;			/*  20 07777 */
	__le32	uid;			/*  24 */
	__le32	gid;			/*  28 */
	__le16	path_len;		/*  32 */
	__le16	kind;			/*  34 */
	__u8	pad[4];			/*  36 zero */
	/* 40: path, NUL, zeros */
};
#define FAMFS_SETATTR_MODE	(1U << 0)
#define FAMFS_SETATTR_UID	(1U << 1)
#define FAMFS_SETATTR_GID	(1U << 2)
#define FAMFS_RECLAIM_MAX	29	/* one compact slot */
struct famfs_log_reclaim {
	__le32	count;			/*   0 1..FAMFS_RECLAIM_MAX */
	__le32	reserved;		/*   4 zero */
	__le64	deletes[FAMFS_RECLAIM_MAX]; /* 8 DELETE indexes, [count..) 0 */
};
struct famfs_log_hosts {
	__le64	offset;			/*   0 device 0, 2 MiB aligned */
	__le64	len;			/*   8 FAMFS_HOSTS_LEN */
	__le32	nslots;			/*  16 FAMFS_HOST_SLOTS */
	__le32	reserved;		/*  20 zero */
};
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_log_delete) == 24 &&
		    sizeof(struct famfs_log_rename) == 24 &&
		    sizeof(struct famfs_log_setattr) == 40 &&
		    sizeof(struct famfs_log_reclaim) == 240 &&
		    sizeof(struct famfs_log_hosts) == 24,
		    "rev 3 entry bodies");
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_clog_hdr) +
		    sizeof(struct famfs_log_reclaim) <= FAMFS_CLOG_SLOT &&
		    sizeof(struct famfs_clog_hdr) + sizeof(struct famfs_log_rename) +
		    FAMFS_RENAME_PATHS <= FAMFS_CLOG_MAX_ENTRY &&
		    32 + sizeof(struct famfs_log_rename) + FAMFS_RENAME_PATHS <=
		    FAMFS_LOG_ENTRY_SIZE,
		    "a RECLAIM fits one slot; the largest RENAME fits both logs");

/* The host table (.meta/.hosts) that a HOSTS entry gives: <linux/famfs_hosts.h> */

#endif /* _UAPI_LINUX_FAMFS_FORMAT_H */
