// SPDX-License-Identifier: GPL-2.0
/* Allocator: a bitmap of 2 MiB units rebuilt from the log, first fit. */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libfamfs.h"

#define UNIT FAMFS_ALLOC_UNIT

bool famfs_bitmap_test(const struct famfs_bitmap *b, uint64_t u)
{
	return (b->bits[u / 64] >> (u % 64)) & 1;
}

void famfs_bitmap_set(struct famfs_bitmap *b, uint64_t u)
{
	if (!famfs_bitmap_test(b, u)) {
		b->bits[u / 64] |= 1ULL << (u % 64);
		b->nfree--;
	}
}

int famfs_bitmap_init(struct famfs_bitmap *b, const struct famfs_superblock *sb)
{
	uint64_t reserved = famfs_data_start(sb) / UNIT;

	b->nunits = famfs_sb_dev_size(sb) / UNIT;
	b->nfree = b->nunits;
	b->bits = calloc((b->nunits + 63) / 64 + 1, sizeof(uint64_t));
	if (!b->bits) {
		famfs_err("out of memory for a bitmap of %llu units",
			  (unsigned long long)b->nunits);
		return -ENOMEM;
	}
	for (uint64_t u = 0; u < reserved && u < b->nunits; u++)
		famfs_bitmap_set(b, u);
	return 0;
}

void famfs_bitmap_free(struct famfs_bitmap *b)
{
	free(b->bits);
	b->bits = NULL;
}

static int mark_entry(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		      bool ok, const char *reason)
{
	struct famfs_bitmap *b = arg;

	(void)idx;
	(void)reason;
	if (!ok || le16toh(e->type) != FAMFS_LOG_FILE)
		return 0;
	for (unsigned i = 0; i < le16toh(e->fm.nextents); i++) {
		uint64_t u = le64toh(e->fm.ext.simple[i].offset) / UNIT;
		uint64_t n = le64toh(e->fm.ext.simple[i].len) / UNIT;

		for (uint64_t k = 0; k < n && u + k < b->nunits; k++)
			famfs_bitmap_set(b, u + k);
	}
	return 0;
}

int famfs_bitmap_build(struct famfs_fs *fs, struct famfs_bitmap *b)
{
	int rc = famfs_bitmap_init(b, fs->sb);

	if (rc)
		return rc;
	/* a corrupt entry's extents stay free: it is never replayed either */
	return famfs_log_walk(fs, mark_entry, b);
}

int famfs_alloc(struct famfs_bitmap *b, uint64_t size,
		struct famfs_log_simple_ext *ext)
{
	/* not (size + UNIT - 1) / UNIT: that wraps for sizes near 2^64 */
	uint64_t want = size / UNIT + (size % UNIT != 0), run = 0;

	if (!want)
		want = 1;
	for (uint64_t u = 0; u < b->nunits; u++) {
		if (famfs_bitmap_test(b, u)) {
			run = 0;
			continue;
		}
		if (++run == want) {
			uint64_t first = u + 1 - want;

			for (uint64_t k = first; k <= u; k++)
				famfs_bitmap_set(b, k);
			ext->offset = htole64(first * UNIT);
			ext->len = htole64(want * UNIT);
			return 0;
		}
	}
	return -ENOSPC;
}
