// SPDX-License-Identifier: GPL-2.0
/*
 * The HOSTS entry (famfs_format.h, format revision 3, type 9,
 * INCOMPAT_HOSTS): where the host table is.  Its body, struct
 * famfs_log_hosts, is at byte FAMFS_NS_BODY_OFF of the v1 form (the rest
 * zero) and after the famfs_clog_hdr of one compact slot.  The table's
 * memory, [offset, offset + FAMFS_HOSTS_LEN) on device 0, is owned by the
 * log as a log segment's is (R3).  At most one per file system: the log's
 * rule (fsck, log/hosttab.c), not the entry's.  Its compact form: clog.c.
 */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "media/media.h"

#define REASON(...) do { if (reason) snprintf(reason, FAMFS_REASON_LEN, __VA_ARGS__); } while (0)
#define BODY_LEN	sizeof(struct famfs_log_hosts)

void famfs_entry_build_hosts(struct famfs_log_entry *e, uint64_t off)
{
	struct famfs_log_hosts *b;

	memset(e, 0, sizeof(*e));
	e->type = htole16(FAMFS_LOG_HOSTS);
	b = (struct famfs_log_hosts *)((uint8_t *)e + FAMFS_NS_BODY_OFF);
	b->offset = htole64(off);
	b->len = htole64(FAMFS_HOSTS_LEN);
	b->nslots = htole32(FAMFS_HOST_SLOTS);
}

int famfs_hosts_entry_owned(const struct famfs_log_entry *e,
			    const struct famfs_superblock *sb, char *reason)
{
	const struct famfs_log_hosts *b = famfs_entry_hosts(e);
	uint64_t off = le64toh(b->offset), len = le64toh(b->len);
	uint64_t start = famfs_data_start(sb), end = famfs_sb_dev_size(sb);

	if (!(le32toh(sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_HOSTS)) {
		REASON("HOSTS entry in a log without the host table feature (superblock incompat bit 0x%x clear)",
		       FAMFS_FEATURE_INCOMPAT_HOSTS);
		return -EPROTONOSUPPORT;
	}
	if (off % FAMFS_ALLOC_UNIT || len % FAMFS_ALLOC_UNIT || !len ||
	    off < start || off > end || len > end - off) {
		REASON("HOSTS entry: host table [%llu, +%llu) is not 2 MiB aligned in the data area [%llu, %llu) of device 0",
		       (unsigned long long)off, (unsigned long long)len,
		       (unsigned long long)start, (unsigned long long)end);
		return -EINVAL;
	}
	return 0;
}

int famfs_hosts_entry_check(const struct famfs_log_entry *e,
			    const struct famfs_superblock *sb, char *reason)
{
	const struct famfs_log_hosts *b = famfs_entry_hosts(e);
	const uint8_t *after = (const uint8_t *)e + FAMFS_NS_BODY_OFF + BODY_LEN;
	int rc = famfs_hosts_entry_owned(e, sb, reason);

	if (rc)
		return rc;
	if (le64toh(b->len) != FAMFS_HOSTS_LEN ||
	    le32toh(b->nslots) != FAMFS_HOST_SLOTS) {
		REASON("HOSTS entry: a table of %llu bytes and %u slots (this tool knows %llu and %u)",
		       (unsigned long long)le64toh(b->len), le32toh(b->nslots),
		       (unsigned long long)FAMFS_HOSTS_LEN, (unsigned)FAMFS_HOST_SLOTS);
		return -EINVAL;
	}
	if (e->flags || b->reserved ||
	    !famfs_all_zero(after, FAMFS_NS_BODY_LEN - BODY_LEN)) {
		REASON("reserved bytes of a HOSTS entry are not zero");
		return -EINVAL;
	}
	return 0;
}
