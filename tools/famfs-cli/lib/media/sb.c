// SPDX-License-Identifier: GPL-2.0
/* The superblock and the log header (famfs_format.h): encode, check. */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "media/media.h"

#define REASON(...) do { if (reason) snprintf(reason, FAMFS_REASON_LEN, __VA_ARGS__); } while (0)

/* famfs_crc32: crc32.c */

bool famfs_all_zero(const void *p, size_t n)
{
	static const uint8_t zero[1024];
	const uint8_t *b = p;
	uint64_t w;

	/* short ones a word at a time; longer ones by memcmp against a zero
	 * block (the C library's, vectorized where the CPU has it) */
	if (n >= 64) {
		for (; n > sizeof(zero); b += sizeof(zero), n -= sizeof(zero))
			if (memcmp(b, zero, sizeof(zero)))
				return false;
		return !memcmp(b, zero, n);
	}
	for (; n >= 8; b += 8, n -= 8) {
		memcpy(&w, b, 8);
		if (w)
			return false;
	}
	for (; n; b++, n--)
		if (*b)
			return false;
	return true;
}

bool famfs_loglen_valid(uint64_t len)
{
	return len >= FAMFS_LOG_LEN_MIN && len <= FAMFS_LOG_LEN_MAX &&
	       (len & (len - 1)) == 0;
}

void famfs_sb_init(struct famfs_superblock *sb, const uint8_t fs_uuid[16],
		   const uint8_t master_uuid[16], uint64_t dev_size,
		   uint64_t log_len)
{
	memset(sb, 0, sizeof(*sb));
	sb->magic = htole64(FAMFS_SB_MAGIC);
	sb->version = htole32(FAMFS_FORMAT_VERSION);
	sb->alloc_unit_shift = htole32(FAMFS_ALLOC_UNIT_SHIFT);
	memcpy(sb->fs_uuid, fs_uuid, 16);
	memcpy(sb->master_uuid, master_uuid, 16);
	sb->device_size = htole64(dev_size);
	sb->log_offset = htole64(FAMFS_LOG_OFFSET);
	sb->log_len = htole64(log_len);
	sb->ctime = htole64((uint64_t)time(NULL));
	famfs_sb_set_crc(sb);
}

void famfs_sb_set_crc(struct famfs_superblock *sb)
{
	sb->crc = 0;
	sb->crc = htole32(famfs_crc32(sb, sizeof(*sb)));
}

bool famfs_sb_is_famfs(const struct famfs_superblock *sb)
{
	return le64toh(sb->magic) == FAMFS_SB_MAGIC;
}

uint64_t famfs_sb_dev_size(const struct famfs_superblock *sb)
{
	return le64toh(sb->device_size);
}

uint64_t famfs_data_start(const struct famfs_superblock *sb)
{
	return le64toh(sb->log_offset) + le64toh(sb->log_len);
}

int famfs_sb_check(const struct famfs_superblock *sb, uint64_t dev_size,
		   char *reason)
{
	return famfs_sb_check_known(sb, dev_size, FAMFS_FEATURE_INCOMPAT_SUPP,
				    reason);
}

int famfs_sb_check_known(const struct famfs_superblock *sb, uint64_t dev_size,
			 uint32_t known, char *reason)
{
	struct famfs_superblock tmp;
	uint32_t crc, v, f;
	uint64_t size = le64toh(sb->device_size);
	uint64_t loff = le64toh(sb->log_offset), llen = le64toh(sb->log_len);

	if (le64toh(sb->magic) != FAMFS_SB_MAGIC) {
		REASON("no famfs superblock (bad magic 0x%016llx)",
		       (unsigned long long)le64toh(sb->magic));
		return -EINVAL;
	}
	memcpy(&tmp, sb, sizeof(tmp));
	tmp.crc = 0;
	crc = famfs_crc32(&tmp, sizeof(tmp));
	if (crc != le32toh(sb->crc)) {
		REASON("superblock CRC mismatch (stored 0x%08x, computed 0x%08x)",
		       le32toh(sb->crc), crc);
		return -EBADMSG;
	}
	v = le32toh(sb->version);
	if (v != FAMFS_FORMAT_VERSION) {
		REASON("unsupported format version %u (this tool: %u)", v,
		       FAMFS_FORMAT_VERSION);
		return -EPROTONOSUPPORT;
	}
	f = le32toh(sb->feature_incompat);
	if ((f & FAMFS_FEATURE_INCOMPAT_MULTIDEV) &&
	    !(f & FAMFS_FEATURE_INCOMPAT_COMPACT_LOG)) {
		REASON("the multi-device feature (incompat 0x%x) without a compact log (0x%x)",
		       FAMFS_FEATURE_INCOMPAT_MULTIDEV,
		       FAMFS_FEATURE_INCOMPAT_COMPACT_LOG);
		return -EINVAL;
	}
	f = le32toh(sb->feature_incompat) & ~known;
	if (f) {
		REASON("unknown incompatible features 0x%x (this tool knows 0x%x): refused",
		       f, known);
		return -EPROTONOSUPPORT;
	}
	if (le32toh(sb->alloc_unit_shift) != FAMFS_ALLOC_UNIT_SHIFT) {
		REASON("unsupported allocation unit shift %u",
		       le32toh(sb->alloc_unit_shift));
		return -EINVAL;
	}
	if (loff != FAMFS_LOG_OFFSET || !famfs_loglen_valid(llen)) {
		REASON("bad log location (offset %llu, length %llu)",
		       (unsigned long long)loff, (unsigned long long)llen);
		return -EINVAL;
	}
	if (size < FAMFS_MIN_DEV_SIZE(llen)) {
		REASON("device size %llu too small for its log",
		       (unsigned long long)size);
		return -EINVAL;
	}
	if (dev_size && size > dev_size) {
		REASON("superblock device size %llu exceeds the device (%llu bytes)",
		       (unsigned long long)size, (unsigned long long)dev_size);
		return -EINVAL;
	}
	if (!famfs_all_zero(sb->reserved, sizeof(sb->reserved))) {
		REASON("reserved superblock bytes are not zero");
		return -EINVAL;
	}
	return 0;
}

bool famfs_sb_compact(const struct famfs_superblock *sb)
{
	return le32toh(sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_COMPACT_LOG;
}

uint64_t famfs_log_capacity_of(uint64_t len, bool compact)
{
	return compact ? FAMFS_CLOG_CAPACITY(len) : FAMFS_LOG_CAPACITY(len);
}

void famfs_log_hdr_init(struct famfs_log_header *h, const uint8_t fs_uuid[16],
			uint64_t log_len)
{
	famfs_log_hdr_init_fmt(h, fs_uuid, log_len, false);
}

void famfs_log_hdr_init_fmt(struct famfs_log_header *h,
			    const uint8_t fs_uuid[16], uint64_t log_len,
			    bool compact)
{
	memset(h, 0, sizeof(*h));
	h->magic = htole64(FAMFS_LOG_MAGIC);
	h->entry_size = htole32(compact ? FAMFS_CLOG_SLOT : FAMFS_LOG_ENTRY_SIZE);
	h->capacity = htole64(famfs_log_capacity_of(log_len, compact));
	h->log_len = htole64(log_len);
	memcpy(h->fs_uuid, fs_uuid, 16);
	famfs_log_hdr_set_crc(h);
}

static uint32_t log_hdr_crc(const struct famfs_log_header *h)
{
	struct famfs_log_header tmp;

	memcpy(&tmp, h, sizeof(tmp));
	tmp.crc = 0;
	tmp.next_index = 0;
	return famfs_crc32(&tmp, sizeof(tmp));
}

void famfs_log_hdr_set_crc(struct famfs_log_header *h)
{
	h->crc = htole32(log_hdr_crc(h));
}

int famfs_log_hdr_check(const struct famfs_log_header *h,
			const struct famfs_superblock *sb, char *reason)
{
	uint64_t llen = le64toh(sb->log_len);
	bool compact = famfs_sb_compact(sb);
	uint32_t crc;

	if (le64toh(h->magic) != FAMFS_LOG_MAGIC) {
		REASON("no famfs log header (bad magic 0x%016llx)",
		       (unsigned long long)le64toh(h->magic));
		return -EINVAL;
	}
	crc = log_hdr_crc(h);
	if (crc != le32toh(h->crc)) {
		REASON("log header CRC mismatch (stored 0x%08x, computed 0x%08x)",
		       le32toh(h->crc), crc);
		return -EBADMSG;
	}
	if (le32toh(h->entry_size) !=
	    (compact ? FAMFS_CLOG_SLOT : FAMFS_LOG_ENTRY_SIZE) ||
	    le64toh(h->log_len) != llen ||
	    le64toh(h->capacity) != famfs_log_capacity_of(llen, compact)) {
		REASON("log header geometry (entry size %u, length %llu, capacity %llu) disagrees with the superblock",
		       le32toh(h->entry_size),
		       (unsigned long long)le64toh(h->log_len),
		       (unsigned long long)le64toh(h->capacity));
		return -EINVAL;
	}
	if (memcmp(h->fs_uuid, sb->fs_uuid, 16)) {
		REASON("log header belongs to another file system (fs uuid differs)");
		return -EINVAL;
	}
	if (le64toh(h->next_index) > le64toh(h->capacity) &&
	    (!compact || !(le32toh(sb->feature_incompat) &
			   FAMFS_FEATURE_INCOMPAT_LOG_EXTEND) ||
	     le64toh(h->next_index) > FAMFS_CLOG_CAPACITY(FAMFS_LOG_TOTAL_MAX))) {
		REASON("log next index %llu beyond capacity %llu",
		       (unsigned long long)le64toh(h->next_index),
		       (unsigned long long)le64toh(h->capacity));
		return -EINVAL;
	}
	if (!famfs_all_zero(h->reserved, sizeof(h->reserved))) {
		REASON("reserved log header bytes are not zero");
		return -EINVAL;
	}
	return 0;
}
