// SPDX-License-Identifier: GPL-2.0
/* One allocator per device (issue 16), and where a new file goes: a
 * simple file on the device with the most free space, an interleaved one
 * with each strip on another device when there are enough. */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space/space.h"

#define UNIT FAMFS_ALLOC_UNIT

int famfs_alloc_init(struct famfs_alloc *a, const struct famfs_superblock *sb)
{
	int rc;

	memset(a, 0, sizeof(*a));
	rc = famfs_bitmap_init(&a->dev[0], sb);
	if (!rc)
		a->ndevs = 1;
	return rc;
}

int famfs_alloc_add_dev(struct famfs_alloc *a, unsigned dev,
			uint64_t data_start, uint64_t size)
{
	int rc;

	if (dev != a->ndevs || dev >= FAMFS_MAX_DEVS)
		return -EINVAL;
	rc = famfs_bitmap_init_dev(&a->dev[dev], data_start, size);
	if (!rc)
		a->ndevs++;
	return rc;
}

int famfs_alloc_sync(struct famfs_alloc *a, const struct famfs_logdevs *t)
{
	int rc = 0;

	while (!rc && a->ndevs < t->ndevs)
		rc = famfs_alloc_add_dev(a, a->ndevs,
					 t->dev[a->ndevs].data_start,
					 t->dev[a->ndevs].size);
	return rc;
}

void famfs_alloc_free(struct famfs_alloc *a)
{
	for (unsigned i = 0; i < FAMFS_MAX_DEVS; i++) {
		if (a->pa[i])
			famfs_pagealloc_free(a->pa[i]);
		free(a->pa[i]);
		a->pa[i] = NULL;
	}
	for (unsigned i = 0; i < a->ndevs; i++)
		famfs_bitmap_free(&a->dev[i]);
	a->ndevs = 0;
}

/* Device dev's page allocator, made on first use: 0 and *out, or
 * famfs_pagealloc_init's -errno (-EINVAL: unit 0 free; -ENOMEM, printed)
 * with reason (may be NULL) naming the device */
static int pa_of(struct famfs_alloc *a, unsigned dev,
		 struct famfs_pagealloc **out, char *reason)
{
	char why[FAMFS_REASON_LEN] = "";
	struct famfs_pagealloc *pa = a->pa[dev];
	int rc;

	*out = pa;
	if (pa)
		return 0;
	pa = calloc(1, sizeof(*pa));
	if (!pa) {
		famfs_err("out of memory for the page allocator of device %u",
			  dev);
		if (reason)
			snprintf(reason, FAMFS_REASON_LEN,
				 "device %u: out of memory for its page allocator",
				 dev);
		return -ENOMEM;
	}
	rc = famfs_pagealloc_init(pa, &a->dev[dev], why);
	if (rc) {
		free(pa);
		if (reason)
			snprintf(reason, FAMFS_REASON_LEN,
				 "device %u: %.120s", dev, why);
		return rc;
	}
	a->pa[dev] = pa;
	*out = pa;
	return 0;
}

uint64_t famfs_alloc_nfree(const struct famfs_alloc *a)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < a->ndevs; i++)
		n += a->dev[i].nfree;
	return n;
}

void famfs_alloc_mark(struct famfs_alloc *a, const struct famfs_log_entry *e)
{
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	unsigned nr = famfs_entry_ranges(e, r);	/* extents or strips */
	bool pages = famfs_entry_pages(e);

	for (unsigned i = 0; i < nr; i++) {
		unsigned dev = famfs_entry_devindex(e, i);
		struct famfs_pagealloc *pa;

		if (dev >= a->ndevs)
			continue;
		if (!pages) {
			struct famfs_bitmap *b = &a->dev[dev];
			uint64_t before = b->nfree, u = r[i].offset / UNIT;
			uint64_t n = u < b->nunits ? r[i].len / UNIT : 0;

			if (n > b->nunits - u)
				n = b->nunits - u;
			famfs_bitmap_mark_range(b, r[i].offset, r[i].len);
			if (before - b->nfree != n)
				a->overlap = true;
			/* a unit of it was in use (a shared one is): in a
			 * shared unit (a diverged or corrupt log, fsck says
			 * which), no page of it is handed out again */
			if (a->pa[dev] && before - b->nfree != n)
				famfs_pagealloc_seal_range(a->pa[dev],
							   r[i].offset,
							   r[i].len);
			continue;
		}
		/* a small file's pages: its unit shared (used in the unit
		 * allocator); pages marked twice (a log fsck complains of)
		 * or no memory for them: the unit stays used all the same,
		 * and a shared one gives no page again (the refused
		 * extent's other pages are its entry's, R3) */
		if (pa_of(a, dev, &pa, NULL) ||
		    famfs_pagealloc_mark(pa, r[i].offset, r[i].len, NULL)) {
			uint64_t u = r[i].offset / UNIT * UNIT;

			a->overlap = true;
			famfs_bitmap_mark_range(&a->dev[dev], u, UNIT);
			if (pa)
				famfs_pagealloc_seal_range(pa, u, UNIT);
		}
	}
}

void famfs_alloc_mark_units(struct famfs_alloc *a,
			    const struct famfs_log_entry *e)
{
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	unsigned nr = famfs_entry_ranges(e, r);

	for (unsigned i = 0; i < nr; i++) {
		unsigned dev = famfs_entry_devindex(e, i);
		uint64_t s = r[i].offset / UNIT * UNIT;

		/* (famfs_entry_ranges: aligned, in the device, no wrap) */
		if (dev < a->ndevs && r[i].len)
			famfs_bitmap_mark_range(&a->dev[dev], s,
						(r[i].offset + r[i].len - 1) /
						UNIT * UNIT + UNIT - s);
	}
}

bool famfs_alloc_meets(const struct famfs_alloc *a,
		       const struct famfs_log_entry *e)
{
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	unsigned nr = famfs_entry_ranges(e, r);

	for (unsigned i = 0; i < nr; i++) {
		unsigned dev = famfs_entry_devindex(e, i);

		if (dev < a->ndevs &&
		    famfs_bitmap_any(&a->dev[dev], r[i].offset, r[i].len))
			return true;
	}
	return false;
}

int famfs_alloc_release(struct famfs_alloc *a, const struct famfs_log_entry *e)
{
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	unsigned nr = famfs_entry_ranges(e, r);
	bool pages = famfs_entry_pages(e);

	/* memory marked twice (a diverged log): the other owner may still
	 * be live, and the bitmap cannot tell; nothing is freed for good */
	if (a->overlap)
		return -EEXIST;
	for (unsigned i = 0; i < nr; i++) {
		unsigned dev = famfs_entry_devindex(e, i);

		if (dev >= a->ndevs)
			continue;
		if (!pages) {
			struct famfs_bitmap *b = &a->dev[dev];
			uint64_t u = r[i].offset / UNIT, n = r[i].len / UNIT;

			if (u >= b->nunits)
				continue;
			if (n > b->nunits - u)
				n = b->nunits - u;
			famfs_bitmap_give(b, u, n);
			continue;
		}
		/* its pages; the unit back to the unit allocator with its
		 * last one (a sealed unit keeps them) */
		if (a->pa[dev])
			famfs_pagealloc_give(a->pa[dev], r[i].offset, r[i].len,
					     NULL);
	}
	return 0;
}

int famfs_place_check(const struct famfs_alloc *a,
		      const struct famfs_place *pl, char *reason)
{
	if (!pl || !pl->has_dev || pl->dev < a->ndevs)
		return 0;
	if (a->ndevs == 1)
		snprintf(reason, FAMFS_REASON_LEN,
			 "device %u: no such device in this file system (it has one device: 0)",
			 pl->dev);
	else
		snprintf(reason, FAMFS_REASON_LEN,
			 "device %u: no such device in this file system (its devices: 0-%u)",
			 pl->dev, a->ndevs - 1);
	return -ENODEV;
}

/* The devices not in absent by free units, most first (ties: lower index
 * first): their count */
static unsigned by_free(const struct famfs_alloc *a, uint32_t absent,
			unsigned order[FAMFS_MAX_DEVS])
{
	unsigned n = 0;

	for (unsigned i = 0; i < a->ndevs; i++) {
		unsigned j = n;

		if (absent >> i & 1)
			continue;
		for (; j > 0 && a->dev[order[j - 1]].nfree < a->dev[i].nfree; j--)
			order[j] = order[j - 1];
		order[j] = i;
		n++;
	}
	return n;
}

/* famfs_fs_member_here's verdict rc of a member: not attached to this
 * mount (0), another device there than the log's (-ESTALE) or failed
 * (-EIO; both said once): no new file goes there */
static bool absent_verdict(int rc)
{
	return rc == 0 || rc == -ESTALE || rc == -EIO;
}

int famfs_place_here(struct famfs_fs *fs, const struct famfs_alloc *a,
		     struct famfs_place *pl, uint32_t nstrips, bool *skipped,
		     char *reason)
{
	unsigned order[FAMFS_MAX_DEVS], k;
	char u[37] = "unknown";
	int v = 0;

	*skipped = false;
	if (fs->here_ndevs != a->ndevs) {
		fs->here_ndevs = a->ndevs;
		fs->here_absent = 0;
		for (unsigned i = 1; fs->mpt[0] && i < a->ndevs; i++)
			if (absent_verdict(famfs_fs_member_here(fs, i)))
				fs->here_absent |= 1U << i;
	}
	/* a device named: asked again (attached since by a logplay?) */
	if (pl->has_dev && pl->dev < a->ndevs &&
	    (fs->here_absent >> pl->dev & 1)) {
		v = famfs_fs_member_here(fs, pl->dev);
		if (!absent_verdict(v))
			fs->here_absent &= ~(1U << pl->dev);
	}
	pl->absent = fs->here_absent;
	if (pl->has_dev && pl->dev < a->ndevs && (pl->absent >> pl->dev & 1)) {
		const struct famfs_logdev *d = famfs_logdevs_get(&fs->devs, pl->dev);

		if (d)
			famfs_uuid_str(d->dev_uuid, u);
		if (v == -ESTALE)
			snprintf(reason, FAMFS_REASON_LEN,
				 "device %u: famfs.ko has another device there than dev-uuid %s (unmount and mount again)",
				 pl->dev, u);
		else if (v == -EIO)
			snprintf(reason, FAMFS_REASON_LEN,
				 "device %u (dev-uuid %s): famfs.ko reports it failed (said above)",
				 pl->dev, u);
		else
			snprintf(reason, FAMFS_REASON_LEN,
				 "device %u (dev-uuid %s) of the file system is not attached on this host (see famfs mount -d)",
				 pl->dev, u);
		return -ENODEV;
	}
	if (pl->has_dev || !pl->absent)
		return 0;
	k = by_free(a, 0, order);
	if (nstrips && nstrips < k)
		k = nstrips;
	else if (!nstrips)
		k = 1;
	for (unsigned i = 0; i < k; i++)
		*skipped |= pl->absent >> order[i] & 1;
	return 0;
}

int famfs_alloc_place(struct famfs_alloc *a, const struct famfs_place *pl,
		      uint64_t size, unsigned max_ext,
		      struct famfs_log_simple_ext *ext, unsigned *next,
		      unsigned *dev)
{
	unsigned order[FAMFS_MAX_DEVS];
	int rc = -ENOSPC;

	*next = 0;
	if (pl && pl->has_dev) {
		if (pl->dev >= a->ndevs)
			return -ENODEV;
		*dev = pl->dev;
		return famfs_alloc_extents(&a->dev[pl->dev], size, max_ext,
					   ext, next);
	}
	for (unsigned i = 0, n = by_free(a, pl ? pl->absent : 0, order);
	     i < n; i++) {
		rc = famfs_alloc_extents(&a->dev[order[i]], size, max_ext, ext,
					 next);
		if (rc != -ENOSPC) {
			*dev = order[i];
			break;
		}
	}
	return rc;
}

/* famfs_alloc_place_strips and _aligned (align 0: any first unit) */
static int place_strips(struct famfs_alloc *a, const struct famfs_place *pl,
			uint64_t size, uint32_t nstrips, uint64_t chunk,
			uint64_t align, struct famfs_log_interleave_ext *ie,
			uint8_t devs[FAMFS_LOG_MAX_STRIPS], bool *shared)
{
	uint64_t slen, first[FAMFS_LOG_MAX_STRIPS];
	unsigned order[FAMFS_MAX_DEVS], pick[FAMFS_MAX_DEVS] = { 0 }, n;
	int rc = famfs_strip_len(size, nstrips, chunk, &slen);

	*shared = false;
	if (rc)
		return rc;
	if (align && (align & (align - 1) || align > UINT64_MAX / UNIT ||
		      chunk % (align * UNIT)))
		return -EINVAL;
	if (pl && pl->has_dev && pl->dev >= a->ndevs)
		return -ENODEV;
	if (pl && pl->has_dev) {
		for (uint32_t i = 0; i < nstrips; i++)
			devs[i] = (uint8_t)pl->dev;
	} else if ((n = by_free(a, pl ? pl->absent : 0, order)) >= nstrips) {
		/* the nstrips with the most free units, in index order */
		for (uint32_t i = 0; i < nstrips; i++)
			pick[order[i]] = 1;
		for (unsigned d = 0, i = 0; d < a->ndevs; d++)
			if (pick[d])
				devs[i++] = (uint8_t)d;
	} else {
		/* the n devices here in index order, round robin */
		for (unsigned d = 0, i = 0; d < a->ndevs; d++)
			if (!(pl && (pl->absent >> d & 1)))
				order[i++] = d;
		for (uint32_t i = 0; i < nstrips; i++)
			devs[i] = (uint8_t)order[i % n];
		*shared = true;
	}
	for (uint32_t i = 0; i < nstrips; i++) {
		struct famfs_bitmap *b = &a->dev[devs[i]];

		if (align ? famfs_bitmap_take_aligned(b, slen / UNIT, align,
						      &first[i]) :
			    famfs_bitmap_take(b, slen / UNIT, &first[i])) {
			/* all or nothing: give back the strips taken so far */
			for (uint32_t j = 0; j < i; j++)
				famfs_bitmap_give(&a->dev[devs[j]], first[j],
						  slen / UNIT);
			return -ENOSPC;
		}
	}
	famfs_strips_encode(ie, nstrips, chunk, slen, first);
	return 0;
}

int famfs_alloc_place_strips(struct famfs_alloc *a,
			     const struct famfs_place *pl, uint64_t size,
			     uint32_t nstrips, uint64_t chunk,
			     struct famfs_log_interleave_ext *ie,
			     uint8_t devs[FAMFS_LOG_MAX_STRIPS], bool *shared)
{
	return place_strips(a, pl, size, nstrips, chunk, 0, ie, devs, shared);
}

int famfs_alloc_place_strips_aligned(struct famfs_alloc *a,
				     const struct famfs_place *pl,
				     uint64_t size, uint32_t nstrips,
				     uint64_t chunk, uint64_t align,
				     struct famfs_log_interleave_ext *ie,
				     uint8_t devs[FAMFS_LOG_MAX_STRIPS],
				     bool *shared)
{
	if (!align)
		return -EINVAL;
	return place_strips(a, pl, size, nstrips, chunk, align, ie, devs,
			    shared);
}

int famfs_alloc_place_aligned(struct famfs_alloc *a,
			      const struct famfs_place *pl, uint64_t size,
			      uint64_t align, struct famfs_log_simple_ext *ext,
			      unsigned *dev)
{
	for (unsigned i = 0; i < a->ndevs; i++) {
		if (pl->has_dev ? i != pl->dev : (pl->absent >> i & 1))
			continue;
		if (!famfs_alloc_aligned(&a->dev[i], size, align, ext)) {
			*dev = i;
			return 0;
		}
	}
	return -ENOSPC;
}

/* ---- small files (issue 30): page extents in shared units ---- */
/* n pages into ext[*k..] (halves when no unit holds them whole and
 * extents are left): 0, or -errno with what it took in ext[0..*k) */
static int take_pages(struct famfs_pagealloc *pa, uint32_t n,
		      struct famfs_log_simple_ext *ext, unsigned *k,
		      char *reason)
{
	uint64_t off;
	int rc;

	if (*k >= FAMFS_LOG_MAX_SIMPLE_EXT) {
		if (reason)
			snprintf(reason, FAMFS_REASON_LEN,
				 "free pages too fragmented: more than %u page extents",
				 (unsigned)FAMFS_LOG_MAX_SIMPLE_EXT);
		return -ENOSPC;
	}
	rc = famfs_pagealloc_take(pa, n, &off, reason);
	if (!rc) {
		ext[*k].offset = htole64(off);
		ext[(*k)++].len = htole64((uint64_t)n * FAMFS_PAGE);
		return 0;
	}
	if (rc != -ENOSPC || n < 2 || *k + 2 > FAMFS_LOG_MAX_SIMPLE_EXT)
		return rc;
	rc = take_pages(pa, n - n / 2, ext, k, reason);
	return rc ? rc : take_pages(pa, n / 2, ext, k, reason);
}

/* all of it on device dev, or nothing */
static int pages_on(struct famfs_alloc *a, unsigned dev, uint32_t n,
		    struct famfs_log_simple_ext *ext, unsigned *next,
		    char *reason)
{
	struct famfs_pagealloc *pa;
	unsigned k = 0;
	int rc = pa_of(a, dev, &pa, reason);

	if (rc)
		return rc;
	rc = take_pages(pa, n, ext, &k, reason);
	if (rc) {
		while (k--)
			famfs_pagealloc_give(pa, le64toh(ext[k].offset),
					     le64toh(ext[k].len), NULL);
		return rc;
	}
	*next = k;
	return 0;
}

int famfs_alloc_place_pages(struct famfs_alloc *a, const struct famfs_place *pl,
			    uint64_t size, struct famfs_log_simple_ext *ext,
			    unsigned *next, uint8_t devs[FAMFS_LOG_MAX_SIMPLE_EXT],
			    char *reason)
{
	unsigned order[FAMFS_MAX_DEVS], n, dev = 0;
	uint64_t np = (size + FAMFS_PAGE - 1) / FAMFS_PAGE;
	int rc = -ENOSPC;

	*next = 0;
	if (!np)
		np = 1;			/* an empty file: one page */
	if (size >= FAMFS_SMALL_MAX || np >= FAMFS_UNIT_PAGES) {
		if (reason)
			snprintf(reason, FAMFS_REASON_LEN,
				 "%llu bytes is no small file (%u pages at most)",
				 (unsigned long long)size,
				 (unsigned)FAMFS_UNIT_PAGES - 1);
		return -EINVAL;
	}
	if (pl && pl->has_dev) {
		if (pl->dev >= a->ndevs)
			return -ENODEV;
		dev = pl->dev;
		rc = pages_on(a, dev, (uint32_t)np, ext, next, reason);
	} else {
		n = by_free(a, pl ? pl->absent : 0, order);
		for (unsigned i = 0; i < n && (i == 0 || rc == -ENOSPC); i++) {
			dev = order[i];
			rc = pages_on(a, dev, (uint32_t)np, ext, next, reason);
		}
	}
	for (unsigned i = 0; !rc && i < FAMFS_LOG_MAX_SIMPLE_EXT; i++)
		devs[i] = i < *next ? (uint8_t)dev : 0;
	return rc;
}
