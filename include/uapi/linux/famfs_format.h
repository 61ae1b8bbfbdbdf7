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
 * Master record (issue 15.2; struct famfs_master_record, 256 bytes at
 * FAMFS_MREC_OFFSET in the superblock region, its own CRC so that refreshing
 * it never rewrites the superblock):
 *  - The superblock's master_uuid names the *host* allowed to be master; the
 *    record names the *running instance* that holds the role: host uuid,
 *    boot id (/proc/sys/kernel/random/boot_id), a generation bumped at every
 *    claim, the claim time and the host name (for messages only).
 *  - A host's uuid lives in /etc/famfs/host-uuid, random (uuid_generate) on
 *    first use; it is never derived from /etc/machine-id.  Cloned images may
 *    share it; their boot ids differ.
 *  - Before every append, under the log lock, the master invalidates and
 *    re-reads the record: (host, boot, generation) must be its own,
 *    otherwise it refuses ("another master holds the log: host H, boot B,
 *    claimed at T").  So of two instances with the same host uuid only the
 *    one holding the record appends; the other is told before it writes.
 *  - The record is claimed when the master mounts with write access: free
 *    record, or one naming this host whose boot id and generation match the
 *    local claim file /var/lib/famfs/<fs uuid>.claim (this host before a
 *    reboot) -> claim (generation + 1).  Anything else: refuse and say
 *    `famfs master claim` (the mount itself succeeds, with a warning; that
 *    instance never appends).  The same claim is made at the first append
 *    if the mount did not make it (an older tool mounted, or the role was
 *    just handed over).  An all-zero record is "never claimed"; with
 *    RO_COMPAT_MASTER_REC clear the bytes are ignored (an older mkfs did
 *    not zero them) and the first claim writes the record, then sets the
 *    bit.  There is no atomic compare-and-swap between
 *    hosts: the check narrows the window to one append, it does not close
 *    it; the README says so.
 *  - A disk clone carries the claim file too: the beat and intent below
 *    (issue 27.4) keep it from taking the role from a live holder.
 *  - `famfs master MPT|DEV` shows the superblock master and the record;
 *    `famfs master claim` takes over a role whose holder is gone (-f);
 *    `famfs master set HOST-UUID` hands the role to another host (new
 *    master_uuid, record freed), run on the current master.
 *
 * Compact log (issue 17; INCOMPAT_COMPACT_LOG; mkfs makes it unless told
 * --log-format=v1): the log header is struct famfs_log_header as in v1, in
 * the first 1 KiB, with entry_size = FAMFS_CLOG_SLOT (256) and capacity =
 * FAMFS_CLOG_CAPACITY(log_len) slots.  Slot i is the 256 bytes at log
 * offset 1 KiB + 256 * i (i = 0.. after the header).  An entry takes
 * nslots (1..FAMFS_CLOG_MAX_SLOTS) consecutive slots: struct
 * famfs_clog_hdr (16 bytes), a body, zero up to nslots * 256 bytes.  Its
 * seq is the number of its first slot; next_index is the first free slot
 * (an append of k slots at i advances it from i to i + k, with the same
 * two flushes as v1); an entry never crosses the end of the log.  Its crc
 * is crc32 over (fs_uuid, the nslots * 256 bytes with crc = 0) -- zlib:
 * crc32(crc32(0, fs_uuid, 16), entry, nslots * 256) -- so an entry of an
 * earlier file system on the same memory fails its CRC although the entry
 * does not store the uuid.
 *   FILE and MKDIR body: struct famfs_clog_fmeta (32 bytes: size, ctime,
 * mode, uid, gid, extent_type, nextents, path_len), then nextents x struct
 * famfs_clog_ext (simple extents, in file order), or for an interleaved
 * file a struct famfs_clog_ilv (chunk size) and nextents = nstrips x
 * famfs_clog_ext (the strips: all of one length), then the path: path_len
 * (1..FAMFS_LOG_PATH_MAX - 1) bytes and a NUL.  A compact extent is 16
 * bytes: offset (bytes, 2 MiB aligned), length in 2 MiB units (le32),
 * devindex (u8): 0, the primary device; another one only with
 * INCOMPAT_MULTIDEV and a DEVADD earlier in the log (below) -- else the
 * entry is unparseable (R2, R3).  A file with a path under 100 bytes and 1-2
 * extents takes one slot (16 + 32 + 32 + 101 <= 256): a quarter of a v1
 * entry, so the default 8 MiB log holds 32,764 such files (v1: 8,191);
 * the largest entry (16 extents or strips, a 511-byte path) takes 4.
 * Semantics are those of v1: a compact entry decodes to exactly the v1
 * entry it stands for (what v1 could not say, it cannot say either) and
 * is checked by the same rules.  A committed slot whose header does not
 * verify (torn, CRC, seq) is one corrupt entry together with the slots up
 * to the next one that starts a verifying entry (R3: the master then
 * refuses to allocate).
 *   R4 for a compact log is bounded: readers scan the slots past
 * next_index only until FAMFS_CLOG_SCAN consecutive slots (256 KiB) hold
 * no verifying entry of this file system.  The master writes entries back
 * to back, so a damaged next_index leaves a run of valid entries starting
 * at it, which the scan follows whole; a huge empty log costs at most
 * FAMFS_CLOG_SCAN slot headers.  (v1 logs keep the full scan.)
 *   Log growth (INCOMPAT_LOG_EXTEND, compact logs only): the master
 * grows the log online into free data memory of device 0.  The log is
 * then the concatenation of segments in one slot numbering: segment 0 is
 * the log mkfs made (slots 0..C0-1, C0 = header capacity), segment k >= 1
 * holds the next len_k / 256 slots, in the order of k.  next_index in
 * segment 0's header stays the single commit point, capacity in it stays
 * C0.  Segment k is added by an EXTEND entry (type FAMFS_LOG_EXTEND, one
 * slot, body struct famfs_clog_extend: offset and len of the segment,
 * 2 MiB aligned, in the data area, overlapping neither the log nor an
 * earlier segment; segment == k; at most FAMFS_LOG_MAX_SEGS segments and
 * FAMFS_LOG_TOTAL_MAX bytes in all).  An EXTEND entry for k is committed
 * before any slot of segment k is written, so a reader that walks the log
 * in order knows a segment before it reaches it; an entry may span a
 * segment boundary (its slots are gathered slot by slot).  A segment's
 * memory is owned by the log (R3: the allocator keeps it used) from the
 * moment its EXTEND entry verifies, also as R4's uncommitted entry at
 * next_index.  An EXTEND entry whose bit is clear, or with a wrong
 * segment number, an overlap or a range out of bounds, is corrupt (R2,
 * R3: if its range is aligned and in the data area it stays owned).
 *   The master's growth, under the log lock: set INCOMPAT_LOG_EXTEND
 * (superblock CRC, flushed); take a free range; map it as .meta/.logK.new
 * on its own mount (famfs.ko refuses memory still mapped by a file); zero
 * it whole and flush, so R4 never meets old bytes there; append the EXTEND
 * entry as any entry (two flushes); rename .meta/.logK.new to .meta/.logK.
 * A crash before the entry leaves only an unlogged .meta/.logK.new, which
 * the next growth removes (memory free in the log) and which no opening
 * of the mount takes for a segment; after it, R4 as for any append, and
 * the first reader that meets the entry renames a .new that maps the
 * segment.  A .meta/.logK that maps other memory than its EXTEND entry
 * says is not read through (the entry is not corrupt); famfs check and
 * fsck on a mount report it, a .new, and a .meta/.logK of no segment.
 * A segment a reader cannot map (its EXTEND entry corrupt, its .meta/.logK
 * unusable) makes its slots and every later one unreadable there: reported
 * as a corrupt entry at its first slot (fsck, replay), not fatal; the
 * master allocates nothing meanwhile (R3).  Appends other than EXTEND
 * never take the last slot of the log, so a full log can always record
 * its growth.  Every host maps segment k through its own .meta/.logK,
 * created (MAP_CREATE, type FAMFS_LOG, the mode of .meta/.log) when its
 * replay or follower meets the EXTEND entry; the bounded R4 scan
 * (FAMFS_CLOG_SCAN) and the torn-append rules apply across segments.
 * mkfs zeroes only the first 2 MiB of the log (header, R4 window): slots
 * past next_index of an earlier file system never verify, their CRC being
 * seeded with its fs uuid, so a 1 GiB log costs a small file system
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
 * first entries; `famfs devadd` appends one later.  Ordering of devadd: the
 * member superblock is written and flushed, then the device is attached to
 * the master's mount (FAMFSIOC_DEV_ADD), then DEVADD is appended: a member
 * superblock with no DEVADD (a crash in between) is not a member, and a
 * later devadd of that device rewrites its superblock.  Such an orphan may
 * carry an index that a later devadd gave another device: hosts take a
 * member superblock only if a DEVADD names its device uuid *and* index
 * (an orphan is ignored, a contradiction refused).  If the append fails
 * after the attach, devadd of the same device again appends the DEVADD
 * for the superblock and index it left.  The member's size
 * in DEVADD is at most its member superblock's device_size; the device's
 * data is [FAMFS_MEMBER_DATA_OFFSET, size).
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
 *
 * Implementation status is tracked in the issues; what is not implemented
 * yet is not in FAMFS_FEATURE_*_SUPP, so tools refuse it (R1).
 */
#ifndef _UAPI_LINUX_FAMFS_FORMAT_H
#define _UAPI_LINUX_FAMFS_FORMAT_H

#include <linux/types.h>

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
					 FAMFS_FEATURE_INCOMPAT_LOG_EXTEND)

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
 * Master beat and takeover intent (issue 27.4; part of RO_COMPAT_MASTER_REC,
 * no bit of their own): two 128-byte structures right after the record,
 * each with its own CRC.  A disk clone of a running master carries its host
 * uuid and its claim file, so "this host's claim, another boot" is what a
 * reboot looks like; the beat tells a live holder from a gone one.
 *  - The record keeps its format: its reserved bytes stay zero, and tools
 *    that predate the beat never read these bytes (mkfs zeroes the whole
 *    superblock region).  Bytes that do not verify (magic, CRC, fs uuid),
 *    or a beat of another generation or boot id than the record's, are no
 *    beat: a record claimed by an older tool has none.
 *  - The beat is written only by the instance that holds the record: at its
 *    claim, and at every command that checks the role (before an append or
 *    a feature change), at most once per third of a lease within one
 *    command.  count goes up by one at each; beat_time is the holder's
 *    clock, for messages and for the quick refusal below.
 *  - Another boot of the holder's host (its claim file matches the record)
 *    takes the role only if (1) the beat is not younger than a lease by its
 *    own clock (else it is refused at once: "last beat N s ago"; one
 *    stamped more than a lease ahead of its clock has no age and refuses
 *    nothing at once), and (2)
 *    after it wrote an intent (its boot id, the record's generation, the
 *    beat count it saw), the beat did not move while it watched it for a
 *    lease (else: "its beat moved").  The lease is the tool's (10 s,
 *    FAMFS_MASTER_LEASE in the environment); -f skips both.  The holder
 *    reports an intent written since its last beat (count_seen == count)
 *    at its next command, and its beat refuses the takeover.
 *  - A holder with no command for longer than a lease can so be taken over
 *    by a clone: its next append is refused, naming the new holder.  The
 *    intent is written by whoever takes over, and watched too during the
 *    wait: of two boots that wait at once, one whose intent was
 *    overwritten steps back and the last announced goes on; what is left
 *    is the window between hosts the record already has (no
 *    compare-and-swap).
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

#endif /* _UAPI_LINUX_FAMFS_FORMAT_H */
