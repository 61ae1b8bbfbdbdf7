// SPDX-License-Identifier: GPL-2.0
/* Unit-test helpers: the superblock and the sealing of the entry tests,
 * which build, check and encode log entries with no file system (the
 * HOSTS entry, the namespace entries, small files' page extents). */
#define _GNU_SOURCE
#include <endian.h>
#include <string.h>

#include "th.h"

const uint8_t th_uuid_a[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
const uint8_t th_uuid_b[16] = { 16, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1 };

void th_entry_sb(struct famfs_superblock *sb, uint32_t incompat)
{
	famfs_sb_init(sb, th_uuid_a, th_uuid_b, 1024 * MiB, 8 * MiB);
	sb->feature_incompat = htole32(incompat);
	famfs_sb_set_crc(sb);
}

void th_entry_seal(struct famfs_log_entry *e, uint64_t idx)
{
	e->seq = htole64(idx);
	memcpy(e->fs_uuid, th_uuid_a, 16);
	famfs_entry_set_crc(e);
}
