// SPDX-License-Identifier: GPL-2.0
/*
 * alloc_icount: the allocations that scripts/alloc-icount.sh counts the
 * instructions of (callgrind, --toggle-collect=famfs_alloc and =upkeep).
 *
 *   alloc_icount GIB FULL WANT N INDEX
 *
 * A device of GIB GiB (emulated: a superblock and a bitmap), empty (FULL 0)
 * or 95 % full (FULL 1) with the free space scattered in single units and
 * eight runs of 8 units near the end (as tests/unit/test_alloc_scale.c), or
 * (FULL 2) with its first GiB used (small files), the GiB in its middle
 * partly used (its first unit), the GiBs above it used (1 GiB files) and
 * those between wholly free (1 GiB files deleted): the allocations go to
 * the partly used GiB, the room kept outside wholly free aligned GiBs
 * (issue 31), far from the first free unit.
 * INDEX 0: as a new process, no search index yet (a search that needs it
 * builds it, counted).  INDEX 1: the index built first (not counted).
 * INDEX 2: as 1, and after the allocations brought up to date (counted:
 * the upkeep the allocator defers to its next search).  Then N allocations
 * of WANT units.  Exit 0, or 1 if an allocation found no room.
 */
#include <stdio.h>
#include <stdlib.h>

#include "libfamfs.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* counted by name */
__attribute__((noinline)) int upkeep(struct famfs_bitmap *b);
__attribute__((noinline)) int upkeep(struct famfs_bitmap *b)
{
	return famfs_bitmap_index_sync(b);
}

int main(int argc, char **argv)
{
	struct famfs_superblock sb;
	struct famfs_bitmap b;
	struct famfs_log_simple_ext x;
	uint8_t u[16] = { 1, 2, 3, 4 };
	uint64_t s = 42, size;
	int full, want, n, index;

	if (argc != 6)
		return 2;
	size = strtoull(argv[1], NULL, 0) << 30;
	full = atoi(argv[2]);
	want = atoi(argv[3]);
	n = atoi(argv[4]);
	index = atoi(argv[5]);
	famfs_sb_init(&sb, u, u, size, 8ULL << 20);
	if (famfs_bitmap_init(&b, &sb))
		return 2;
	if (full == 2) {
		famfs_bitmap_mark_range(&b, 0, 1ULL << 30);
		famfs_bitmap_mark_range(&b, (size >> 31) << 30, FAMFS_ALLOC_UNIT);
		famfs_bitmap_mark_range(&b, ((size >> 31) + 1) << 30,
					size - (((size >> 31) + 1) << 30));
	} else if (full) {
		for (uint64_t i = 0; i < b.nunits; i++)
			famfs_bitmap_set(&b, i);
		for (uint64_t i = 8; i + 1 < b.nunits * 99 / 100; i += 2)
			if (rnd(&s) % 10 == 0)
				famfs_bitmap_clear(&b, i);
		for (unsigned r = 0; r < 8; r++) {
			uint64_t at = b.nunits - 1 - 8 * (2 * r + 1) - 8;

			for (unsigned k = 0; k < 8; k++)
				famfs_bitmap_clear(&b, at + k);
		}
	}
	if (index && famfs_bitmap_index_sync(&b))
		return 2;
	for (int i = 0; i < n; i++)
		if (famfs_alloc(&b, (uint64_t)want * FAMFS_ALLOC_UNIT, &x))
			return 1;
	if (index == 2 && upkeep(&b))
		return 2;
	famfs_bitmap_free(&b);
	return 0;
}
