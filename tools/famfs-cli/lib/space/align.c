// SPDX-License-Identifier: GPL-2.0
/* 1 GiB-aligned runs (issue 31): famfs.ko maps a run that starts on a
 * multiple of 1 GiB (device offset and file offset) with 1 GiB pages.  The
 * candidates are the multiples of the alignment; a used unit inside one
 * moves the search to the next multiple past it, so the whole device costs
 * one pass over its words. */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>

#include "space/space.h"

#define UNIT FAMFS_ALLOC_UNIT

/* The first used unit in [u, end), or end: a word at a time */
static uint64_t first_used(const struct famfs_bitmap *b, uint64_t u,
			   uint64_t end)
{
	while (u < end) {
		uint64_t w = u / 64;
		uint64_t used = b->bits[w] & ~((1ULL << (u % 64)) - 1);

		if (used) {
			uint64_t f = w * 64 + (uint64_t)__builtin_ctzll(used);

			return f < end ? f : end;
		}
		u = (w + 1) * 64;
	}
	return end;
}

static bool align_ok(uint64_t align)
{
	return align && !(align & (align - 1));
}

int famfs_bitmap_take_aligned(struct famfs_bitmap *b, uint64_t units,
			      uint64_t align, uint64_t *first)
{
	if (!align_ok(align))
		return -EINVAL;
	for (uint64_t s = 0; units && s < b->nunits && units <= b->nunits - s;) {
		uint64_t u = first_used(b, s, s + units);

		b->work++;
		if (u == s + units) {
			famfs_bitmap_mark_range(b, s * UNIT, units * UNIT);
			*first = s;
			return 0;
		}
		s = (u / align + 1) * align;
	}
	return -ENOSPC;
}

int famfs_alloc_aligned(struct famfs_bitmap *b, uint64_t size, uint64_t align,
			struct famfs_log_simple_ext *ext)
{
	uint64_t want = size / UNIT + (size % UNIT != 0), first;
	int rc;

	if (!want)
		want = 1;
	rc = famfs_bitmap_take_aligned(b, want, align, &first);
	if (rc)
		return rc;
	ext->offset = htole64(first * UNIT);
	ext->len = htole64(want * UNIT);
	return 0;
}

uint64_t famfs_bitmap_free_aligned(const struct famfs_bitmap *b,
				   uint64_t align)
{
	uint64_t n = 0;

	if (!align_ok(align))
		return 0;
	if (align == FAMFS_BM_KEEP_UNITS)	/* counted as the bitmap changes */
		return b->nwhole;
	for (uint64_t s = 0; s < b->nunits && align <= b->nunits - s; s += align)
		if (first_used(b, s, s + align) == s + align)
			n++;
	return n;
}
