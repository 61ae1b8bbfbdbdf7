// SPDX-License-Identifier: GPL-2.0
/* The member superblock (famfs_format.h, issue 16): encode and check. */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "media/media.h"

#define REASON(...) do { if (reason) snprintf(reason, FAMFS_REASON_LEN, __VA_ARGS__); } while (0)

static bool all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

void famfs_member_set_crc(struct famfs_member_sb *m)
{
	m->crc = 0;
	m->crc = htole32(famfs_crc32(m, sizeof(*m)));
}

void famfs_member_init(struct famfs_member_sb *m, const uint8_t fs_uuid[16],
		       const uint8_t dev_uuid[16], uint32_t index,
		       uint64_t fs_ctime, uint64_t dev_size)
{
	memset(m, 0, sizeof(*m));
	m->magic = htole64(FAMFS_MEMBER_MAGIC);
	m->version = htole32(FAMFS_MEMBER_VERSION);
	m->index = htole32(index);
	memcpy(m->fs_uuid, fs_uuid, 16);
	memcpy(m->dev_uuid, dev_uuid, 16);
	m->fs_ctime = htole64(fs_ctime);
	m->device_size = htole64(dev_size);
	m->ctime = htole64((uint64_t)time(NULL));
	m->alloc_unit_shift = htole32(FAMFS_ALLOC_UNIT_SHIFT);
	famfs_member_set_crc(m);
}

bool famfs_member_is_member(const struct famfs_member_sb *m)
{
	return le64toh(m->magic) == FAMFS_MEMBER_MAGIC;
}

int famfs_member_check(const struct famfs_member_sb *m,
		       const uint8_t fs_uuid[16], uint64_t dev_size,
		       char *reason)
{
	struct famfs_member_sb tmp;
	uint32_t crc, v, idx = le32toh(m->index);
	uint64_t size = le64toh(m->device_size);

	if (!famfs_member_is_member(m)) {
		REASON("no member superblock (bad magic 0x%016llx)",
		       (unsigned long long)le64toh(m->magic));
		return -EINVAL;
	}
	memcpy(&tmp, m, sizeof(tmp));
	tmp.crc = 0;
	crc = famfs_crc32(&tmp, sizeof(tmp));
	if (crc != le32toh(m->crc)) {
		REASON("member superblock CRC mismatch (stored 0x%08x, computed 0x%08x): corrupt or torn",
		       le32toh(m->crc), crc);
		return -EBADMSG;
	}
	v = le32toh(m->version);
	if (v != FAMFS_MEMBER_VERSION) {
		REASON("unsupported member superblock version %u (this tool: %u)",
		       v, FAMFS_MEMBER_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (le32toh(m->feature_incompat)) {
		REASON("unknown incompatible member features 0x%x: refused",
		       le32toh(m->feature_incompat));
		return -EPROTONOSUPPORT;
	}
	if (idx < 1 || idx >= FAMFS_MAX_DEVS) {
		REASON("member index %u outside 1..%u", idx, FAMFS_MAX_DEVS - 1);
		return -EINVAL;
	}
	if (all_zero(m->fs_uuid, 16) || all_zero(m->dev_uuid, 16)) {
		REASON("nil %s uuid", all_zero(m->fs_uuid, 16) ? "file system" : "device");
		return -EINVAL;
	}
	if (le32toh(m->alloc_unit_shift) != FAMFS_ALLOC_UNIT_SHIFT) {
		REASON("unsupported allocation unit shift %u",
		       le32toh(m->alloc_unit_shift));
		return -EINVAL;
	}
	if (!all_zero(m->pad, sizeof(m->pad)) ||
	    !all_zero(m->reserved, sizeof(m->reserved))) {
		REASON("reserved member superblock bytes are not zero");
		return -EINVAL;
	}
	if (size < FAMFS_MEMBER_MIN_SIZE) {
		REASON("member device size %llu below the minimum %llu",
		       (unsigned long long)size,
		       (unsigned long long)FAMFS_MEMBER_MIN_SIZE);
		return -EINVAL;
	}
	if (dev_size && size > dev_size) {
		REASON("member device size %llu exceeds the device (%llu bytes)",
		       (unsigned long long)size, (unsigned long long)dev_size);
		return -EINVAL;
	}
	if (fs_uuid && memcmp(fs_uuid, m->fs_uuid, 16)) {
		char u[37];

		famfs_uuid_str(m->fs_uuid, u);
		REASON("a member of another file system (%s)", u);
		return -ESTALE;
	}
	return 0;
}
