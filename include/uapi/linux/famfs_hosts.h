/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * famfs on-media format, the host table (.meta/.hosts, format revision 3,
 * INCOMPAT_HOSTS; issue 29): the file a HOSTS entry of the log gives
 * (struct famfs_log_hosts in <linux/famfs_format.h>, whose revision-3
 * comment tells the protocol).  Each host writes only its own slot; the
 * master alone writes the header.  Little-endian, fixed width, CRC per
 * header copy and per record.
 */
#ifndef _UAPI_LINUX_FAMFS_HOSTS_H
#define _UAPI_LINUX_FAMFS_HOSTS_H

#include <linux/types.h>
#include <linux/famfs_format.h>	/* FAMFS_ALLOC_UNIT, FAMFS_FORMAT_ASSERT */

/*
 * The host table (.meta/.hosts): two header copies, then the slots, in a
 * 2 MiB allocation whose bytes past the last slot are unused (zero when
 * made; never read).  256 slots: the 64 hosts four times over (a
 * host renamed across a reboot holds a second slot until evicted), and
 * every famfs rm and registration scans them: 64 KiB, not 2 MiB.
 */
#define FAMFS_HOSTS_LEN		FAMFS_ALLOC_UNIT
#define FAMFS_HOSTS_HDR_SIZE	4096	/* one header copy */
#define FAMFS_HOSTS_HDR_COPIES	2
#define FAMFS_HOSTS_SLOTS_OFF	(FAMFS_HOSTS_HDR_COPIES * FAMFS_HOSTS_HDR_SIZE)
#define FAMFS_HOST_SLOT_SIZE	256	/* two famfs_host_rec copies */
#define FAMFS_HOST_SLOTS	256
#define FAMFS_HOSTS_SLOTS_END	(FAMFS_HOSTS_SLOTS_OFF + FAMFS_HOST_SLOTS * \
				 FAMFS_HOST_SLOT_SIZE)		/* 73728 */
#define FAMFS_HOSTS_MAX_EVICT	50	/* fills a header copy */
#define FAMFS_HOST_SETTLE	1	/* seconds before a claim is read back */
#define FAMFS_HOLDS_NONE	(~0ULL)
/*
 * "4": 256 slots, each keyed by (host uuid, host name); a fence names its
 * host's name (cut, and its hash) too (review r42f).  A build of an earlier layout
 * ("FAMSHOS1": one header copy, 8176 slots; "FAMSHOS2": 8160 slots keyed
 * by host uuid) refuses its HOSTS entry (nslots); one of "FAMSHOS3"
 * (fences without a name) accepts it but verifies neither a header nor a
 * record of this one; this one reads a FAMSHOS3 copy's fences and honours
 * them (not understood: nothing is reclaimed; repair --force carries them
 * over), and refuses a later layout's (FAMSHOS5 on, FAMSHOR6 on) as a
 * newer build's: tools of an earlier layout must not share a file system
 * with this one (docs/lifecycle.md).  Record "5": the name cut
 * to 15 bytes and its FNV-1a-64 hash (r42f; "FAMSHOR4" held two CRC-32s,
 * "FAMSHOR3" 23 bytes and no hash): an earlier record is a torn slot here
 */
#define FAMFS_HOSTS_MAGIC	0x34534f48534d4146ULL	/* "FAMSHOS4" */
#define FAMFS_HOST_MAGIC	0x35524f48534d4146ULL	/* "FAMSHOR5" */

struct famfs_hosts_evicted {		/* its slot's key, and the boot */
	__u8	host_uuid[16];		/*  0 */
	__u8	boot_id[16];		/* 16 of the registration fenced */
	char	hostname[16];		/* 32 its record's, NUL-padded */
	__le64	name_hash;		/* 48 its record's */
	__le64	generation;		/* 56 its registration the fence ends */
	__le64	time;			/* 64 when, for messages */
	__le32	flags;			/* 72 FAMFS_FENCE_BY_SLOT */
	__u8	pad[4];			/* 76 zero */
};
struct famfs_hosts_hdr {		/* one copy */
	__le64	magic;			/*   0 FAMFS_HOSTS_MAGIC */
	__le32	crc;			/*   8 crc32(fs_uuid, 4096 bytes, crc = 0) */
	__le32	nevicted;		/*  12 0..FAMFS_HOSTS_MAX_EVICT */
	__le64	seq;			/*  16 one more at every master write */
	__le32	flags;			/*  24 FAMFS_HOSTS_ARMED */
	__u8	pad[36];		/*  28 zero */
	struct famfs_hosts_evicted evicted[FAMFS_HOSTS_MAX_EVICT]; /* 64 */
	__u8	tail[32];		/* 4064 zero */
};
struct famfs_host_rec {
	__le64	magic;			/*   0 FAMFS_HOST_MAGIC */
	__le32	crc;			/*   8 crc32(fs_uuid, 128 bytes, crc = 0) */
	__le32	flags;			/*  12 FAMFS_HOST_* */
	__u8	host_uuid[16];		/*  16 /etc/famfs/host-uuid */
	__u8	boot_id[16];		/*  32 of the registration */
	__le64	generation;		/*  48 one more at every registration */
	__le64	seq;			/*  56 one more at every write */
	__le64	registered_at;		/*  64 next_index when it registered */
	__le64	replayed;		/*  72 entries below applied here */
	__le64	holds_from;		/*  80 lowest DELETE held, or NONE */
	__le64	held_bytes;		/*  88 for famfs hosts / df */
	__le64	beat_time;		/*  96 seconds since the epoch, shown */
	char	hostname[16];		/* 104 NUL-padded, cut: shown */
	__le64	name_hash;		/* 120 of the whole name: with host_uuid
					 * and hostname the key */
};
#define FAMFS_HOSTS_ARMED	(1U << 0)	/* famfs_hosts_hdr.flags */
#define FAMFS_FENCE_BY_SLOT	(1U << 0)	/* evict --slot made it: a later
						 * one there zeroes only its boot */
#define FAMFS_HOST_REGISTERED	(1U << 0)
#define FAMFS_HOST_MASTER	(1U << 1)
/* took over its host's fenced slot: evict --slot refuses it */
#define FAMFS_HOST_AFTER_FENCE	(1U << 2)
FAMFS_FORMAT_ASSERT(sizeof(struct famfs_hosts_evicted) == 80 &&
		    __builtin_offsetof(struct famfs_hosts_hdr, tail) == 4064 &&
		    sizeof(struct famfs_hosts_hdr) == FAMFS_HOSTS_HDR_SIZE &&
		    2 * sizeof(struct famfs_host_rec) == FAMFS_HOST_SLOT_SIZE &&
		    __builtin_offsetof(struct famfs_host_rec, name_hash) == 120 &&
		    FAMFS_HOSTS_SLOTS_OFF == 8192 &&
		    FAMFS_HOSTS_SLOTS_END == 73728 &&
		    FAMFS_HOSTS_SLOTS_END <= FAMFS_HOSTS_LEN,
		    "host table: two 4096-byte header copies, then 256 slots");

#endif /* _UAPI_LINUX_FAMFS_HOSTS_H */
