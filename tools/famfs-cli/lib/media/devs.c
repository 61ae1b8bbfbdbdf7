// SPDX-License-Identifier: GPL-2.0
/*
 * The devices of a file system as its log adds them (issue 16,
 * INCOMPAT_MULTIDEV): DEVADD entries, their rules (famfs_format.h), and the
 * table of index -> device uuid, size that a replay builds.
 */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "media/media.h"

#define REASON(...) do { if (reason) snprintf(reason, FAMFS_REASON_LEN, __VA_ARGS__); } while (0)

static bool zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

static bool multidev(const struct famfs_superblock *sb)
{
	return le32toh(sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_MULTIDEV;
}

void famfs_entry_build_devadd(struct famfs_log_entry *e, uint32_t index,
			      const uint8_t dev_uuid[16], uint64_t size)
{
	struct famfs_clog_devadd *d = (struct famfs_clog_devadd *)e->fm.ext.raw;

	memset(e, 0, sizeof(*e));
	e->type = htole16(FAMFS_LOG_DEVADD);
	d->index = htole32(index);
	memcpy(d->dev_uuid, dev_uuid, 16);
	d->device_size = htole64(size);
	d->ctime = htole64((uint64_t)time(NULL));
}

void famfs_logdevs_init(struct famfs_logdevs *t,
			const struct famfs_superblock *sb)
{
	memset(t, 0, sizeof(*t));
	t->ndevs = 1;
	t->dev[0].added = true;
	t->dev[0].size = famfs_sb_dev_size(sb);
	t->dev[0].data_start = famfs_data_start(sb);
}

int famfs_devadd_check(const struct famfs_log_entry *e, uint64_t index,
		       const struct famfs_superblock *sb,
		       const struct famfs_logdevs *t, char *reason)
{
	const struct famfs_clog_devadd *d = famfs_entry_devadd(e);
	const struct famfs_log_fmeta *fm = &e->fm;
	uint32_t idx = le32toh(d->index);
	uint64_t size = le64toh(d->device_size);
	unsigned before = 1;

	if (!multidev(sb)) {
		REASON("device entry in a log without the multi-device feature (superblock incompat bit 0x%x clear)",
		       FAMFS_FEATURE_INCOMPAT_MULTIDEV);
		return -EPROTONOSUPPORT;
	}
	/* everything but the body is zero: no path, no file fields */
	if (e->flags || fm->size || fm->ctime || fm->mode || fm->uid ||
	    fm->gid || fm->extent_type || fm->nextents || fm->path_len ||
	    !zero(fm->ext.raw + sizeof(*d), sizeof(fm->ext) - sizeof(*d)) ||
	    !zero(fm->pad, sizeof(fm->pad)) || !zero(fm->path, sizeof(fm->path)) ||
	    !zero(fm->reserved, sizeof(fm->reserved)) || d->reserved) {
		REASON("device entry with reserved bytes not zero");
		return -EINVAL;
	}
	if (idx < 1 || idx >= FAMFS_MAX_DEVS) {
		REASON("device entry for index %u (1..%u)", idx,
		       FAMFS_MAX_DEVS - 1);
		return -EINVAL;
	}
	if (zero(d->dev_uuid, 16)) {
		REASON("device entry for index %u with a nil device uuid", idx);
		return -EINVAL;
	}
	if (size < FAMFS_MEMBER_MIN_SIZE || size % FAMFS_ALLOC_UNIT) {
		REASON("device entry for index %u: size %llu is not a multiple of 2 MiB of at least %llu",
		       idx, (unsigned long long)size,
		       (unsigned long long)FAMFS_MEMBER_MIN_SIZE);
		return -EINVAL;
	}
	if (!t)
		return 0;
	for (unsigned i = 1; i < FAMFS_MAX_DEVS; i++) {
		const struct famfs_logdev *o = &t->dev[i];
		char u[37];

		if (!o->added || o->log_idx >= index)
			continue;
		before++;
		if (!memcmp(o->dev_uuid, d->dev_uuid, 16)) {
			famfs_uuid_str(d->dev_uuid, u);
			REASON("device entry for index %u: device uuid %s was added as index %u already",
			       idx, u, i);
			return -EINVAL;
		}
	}
	if (idx < before) {
		REASON("device entry for index %u, but the next index is %u (indexes are added in order: index %u was added already)",
		       idx, before, idx);
		return -EINVAL;
	}
	/* a gap: the entry that added the index before it may be one this
	 * host has not read whole yet (t->next: the first log index the
	 * table is not up to, famfs_fs_devs_update) -- host-local, as an
	 * extent on a device no entry added; with every entry before it
	 * read, corrupt as every host reads it */
	if (idx > before && t->next < index) {
		REASON("device entry for index %u, a device this host has not seen (next: %u; entry %llu not read whole yet)",
		       idx, before, (unsigned long long)t->next);
		return -EPROTO;
	}
	if (idx != before) {
		REASON("device entry for index %u, but the next index is %u (indexes are added in order)",
		       idx, before);
		return -EINVAL;
	}
	return 0;
}

void famfs_logdevs_add(struct famfs_logdevs *t, const struct famfs_log_entry *e,
		       uint64_t index)
{
	const struct famfs_clog_devadd *d = famfs_entry_devadd(e);
	uint32_t idx = le32toh(d->index);
	struct famfs_logdev *x;

	if (idx < 1 || idx >= FAMFS_MAX_DEVS)
		return;
	x = &t->dev[idx];
	/* the first DEVADD of an index is the member, a later one of it a
	 * duplicate (corrupt): one met only now, before the one added (it
	 * did not read whole here then), takes its place, as every host
	 * that read it first has it */
	if (x->added && x->log_idx <= index)
		return;
	x->path[0] = '\0';
	x->added = true;
	memcpy(x->dev_uuid, d->dev_uuid, 16);
	x->size = le64toh(d->device_size);
	x->data_start = FAMFS_MEMBER_DATA_OFFSET;
	x->log_idx = index;
	if (idx + 1 > t->ndevs)
		t->ndevs = idx + 1;
}

const struct famfs_logdev *famfs_logdevs_get(const struct famfs_logdevs *t,
					     unsigned dev)
{
	if (!t || dev >= FAMFS_MAX_DEVS || !t->dev[dev].added)
		return NULL;
	return &t->dev[dev];
}

int famfs_logdevs_area(const struct famfs_logdevs *t,
		       const struct famfs_superblock *sb, unsigned dev,
		       uint64_t index, uint64_t *start, uint64_t *end,
		       char *reason)
{
	const struct famfs_logdev *d = famfs_logdevs_get(t, dev);

	if (!dev) {
		*start = famfs_data_start(sb);
		*end = famfs_sb_dev_size(sb);
		return 0;
	}
	if (!multidev(sb)) {
		REASON("an extent on device %u in a log without the multi-device feature (superblock incompat bit 0x%x clear)",
		       dev, FAMFS_FEATURE_INCOMPAT_MULTIDEV);
		return -EPROTO;
	}
	if (!d || d->log_idx >= index) {
		REASON("an extent on device %u, which no device entry before it added",
		       dev);
		return -EPROTO;
	}
	*start = d->data_start;
	*end = d->size;
	return 0;
}
