/* SPDX-License-Identifier: GPL-2.0 */
/*
 * space/: where new bytes go -- one 2 MiB-unit bitmap per device with its
 * search index (first fit, fragmented space, strips), the allocators of
 * a file system's devices, and placement (which device a new file goes
 * to, which members are attached here).  It is fed entries and ranges by
 * its callers and never reads the log itself (log/ builds it).  It calls
 * dev/ (a mount's members), media/ and base/.
 */
#ifndef FAMFS_SPACE_H
#define FAMFS_SPACE_H

#include "role/role.h"

/* ---- alloc.c: 2 MiB-unit bitmap, first fit ------------------------------ */
/* Free units at the start, at the end, and the longest free run, of the
 * 64-unit words under one node of the search index */
struct famfs_bm_runs {
	uint64_t pre, suf, best;
};
/* One node of the search index: r[0] counts every free unit, r[1] only
 * those outside wholly free aligned GiBs (FAMFS_BM_KEEP_UNITS), the room
 * that a file can take without breaking one */
struct famfs_bm_node {
	struct famfs_bm_runs r[2];
};
/* The aligned runs the allocator keeps whole where it can (issue 31):
 * 1 GiB of units, 8 bitmap words */
#define FAMFS_BM_KEEP_UNITS	((1ULL << 30) / FAMFS_ALLOC_UNIT)
struct famfs_bitmap {
	uint64_t nunits;
	uint64_t *bits;
	uint64_t nfree;
	/* aligned GiBs (FAMFS_BM_KEEP_UNITS, inside the device) wholly free */
	uint64_t nwhole;
	/* work done (bitmap words and index nodes looked at or rewritten):
	 * what the unit tests count instead of timing */
	uint64_t work;
	/* no unit below hint is free: a request that fits at the first
	 * free units is served there, without the index (an empty device,
	 * or one unit on a fragmented one: the same cost at any size) */
	uint64_t hint;
	/* no unit below khint is free outside wholly free aligned GiBs: the
	 * same for the room kept (issue 31) */
	uint64_t khint;
	/* words looked at by searches (before the index is built: past
	 * nwords, the next search builds it) */
	uint64_t scanned;
	/* the search index: a binary tree over the bitmap's words (leaves
	 * nleaves..2*nleaves-1), built by a search that needs it (see
	 * scanned), so a first fit costs O(log(device)) at any fullness.
	 * Its upkeep is deferred: the leaves of words stale_lo..stale_hi
	 * (when stale) and the nodes above them are mended before the next
	 * search, once for a series of nearby changes. */
	struct famfs_bm_node *tree;
	uint64_t nwords, nleaves;
	uint64_t stale_lo, stale_hi;
	bool stale;
};
int famfs_bitmap_init(struct famfs_bitmap *b, const struct famfs_superblock *sb);
/* One device's allocator: units [data_start, size) free, those below used
 * (the primary's superblock and log, a member's superblock unit) */
int famfs_bitmap_init_dev(struct famfs_bitmap *b, uint64_t data_start,
			  uint64_t size);
/* Mark [off, off + len) used (bytes; the part inside the device) */
void famfs_bitmap_mark_range(struct famfs_bitmap *b, uint64_t off,
			     uint64_t len);
/* One run of units units: marked used, *first its first; -ENOSPC.  First
 * fit among the free units outside wholly free aligned GiBs when the
 * lowest fit would break one (such a GiB stays whole for a file that
 * famfs.ko can map with 1 GiB pages); else, or without such room, first
 * fit.  (famfs_alloc and the strips of famfs_alloc_strips and
 * famfs_alloc_place_strips take runs so.) */
int famfs_bitmap_take(struct famfs_bitmap *b, uint64_t units, uint64_t *first);
/* After the words of b->bits were written directly (a saved bitmap read
 * back; nfree set by the caller): count the wholly free aligned GiBs */
void famfs_bitmap_recount(struct famfs_bitmap *b);
/* Build the search index, or bring it up to date, as the allocator does
 * before it searches (for tests that look at it or count its upkeep):
 * 0 or -ENOMEM (printed) */
int famfs_bitmap_index_sync(struct famfs_bitmap *b);
/* Give back what famfs_bitmap_take took */
void famfs_bitmap_give(struct famfs_bitmap *b, uint64_t first, uint64_t units);
/* The free units of word w of the bitmap (bit k: unit w * 64 + k is
 * free; units past the device's end count as used) */
static inline uint64_t famfs_bitmap_word_free(const struct famfs_bitmap *b,
					      uint64_t w)
{
	uint64_t f = ~b->bits[w];
	uint64_t past = b->nunits - w * 64;	/* units of this word in use */

	if (past < 64)
		f &= (1ULL << past) - 1;
	return f;
}
void famfs_bitmap_free(struct famfs_bitmap *b);
bool famfs_bitmap_test(const struct famfs_bitmap *b, uint64_t unit);
void famfs_bitmap_set(struct famfs_bitmap *b, uint64_t unit);
/* Mark the extents or strips of one valid entry used */
void famfs_bitmap_mark(struct famfs_bitmap *b, const struct famfs_log_entry *e);
/* Is a unit that [off, off + len) touches (rounded out to whole units; the
 * part inside the device) used? */
bool famfs_bitmap_any(const struct famfs_bitmap *b, uint64_t off,
		      uint64_t len);
/* One contiguous extent of roundup(size, 2 MiB) (>= 1 unit), placed as
 * famfs_bitmap_take; -ENOSPC if none. */
int famfs_alloc(struct famfs_bitmap *b, uint64_t size,
		struct famfs_log_simple_ext *ext);
void famfs_bitmap_clear(struct famfs_bitmap *b, uint64_t unit);
/* One contiguous extent of roundup(size, 2 MiB) (>= 1 unit) starting at a
 * unit that is a multiple of align (units, a power of 2: 512 for 1 GiB,
 * so device offset and file offset 0 are both 1 GiB-aligned), the lowest
 * such; -ENOSPC (bitmap unchanged) if none, -EINVAL for a bad align. */
int famfs_alloc_aligned(struct famfs_bitmap *b, uint64_t size, uint64_t align,
			struct famfs_log_simple_ext *ext);
/* One run of units units starting at a multiple of align units (a power
 * of 2), the lowest such: marked used, *first its first; -ENOSPC (bitmap
 * unchanged) if none, -EINVAL for a bad align */
int famfs_bitmap_take_aligned(struct famfs_bitmap *b, uint64_t units,
			      uint64_t align, uint64_t *first);
/* How many runs of align units (a power of 2), starting at multiples of
 * align, are wholly free (0 for a bad align) */
uint64_t famfs_bitmap_free_aligned(const struct famfs_bitmap *b,
				   uint64_t align);
/* ---- runs.c: allocations of more than one run -------------------------- */
/* A simple file of size bytes in at most max_ext (1..16) extents: one
 * contiguous run, first fit, when one is free; else, when free space is
 * fragmented, the fewest runs that hold it: the longest free runs whole,
 * and the rest at the start of the shortest remaining run that holds it
 * (so the big runs stay whole).  Every extent whole 2 MiB units, sorted
 * by device offset.  -ENOSPC (bitmap unchanged) if the max_ext longest
 * runs together are too small. */
int famfs_alloc_extents(struct famfs_bitmap *b, uint64_t size,
			unsigned max_ext, struct famfs_log_simple_ext *ext,
			unsigned *next);
/* An interleaved layout for size bytes: nstrips (1..16) strips of
 * strip_len = ceil(size / (nstrips * chunk)) * chunk bytes (at least one
 * chunk), each one contiguous, first fit.  chunk: a non-zero multiple of
 * 2 MiB.  Fills ie (little-endian, unused strips zero).  All or nothing:
 * -ENOSPC leaves the bitmap as it was; -EINVAL for a bad geometry. */
int famfs_alloc_strips(struct famfs_bitmap *b, uint64_t size, uint32_t nstrips,
		       uint64_t chunk, struct famfs_log_interleave_ext *ie);
/* The strip length of an interleaved layout (famfs_alloc_strips): 0,
 * -EINVAL (bad geometry), -ENOSPC (too big to count) */
int famfs_strip_len(uint64_t size, uint32_t nstrips, uint64_t chunk,
		    uint64_t *slen);
/* ie (little-endian, unused strips zero) for nstrips strips of slen bytes
 * of chunk-byte chunks, strip i at unit first[i] */
void famfs_strips_encode(struct famfs_log_interleave_ext *ie, uint32_t nstrips,
			 uint64_t chunk, uint64_t slen, const uint64_t *first);

/* ---- place.c: one allocator per device, placement (issue 16) ------------ */
/* The allocators of devices 0..ndevs-1 (0: the primary; i: the member a
 * DEVADD entry added, its data from FAMFS_MEMBER_DATA_OFFSET).  Overlap is
 * per device: the same offset on two devices is two different units. */
struct famfs_pagealloc;
struct famfs_alloc {
	unsigned ndevs;
	struct famfs_bitmap dev[FAMFS_MAX_DEVS];
	/* each device's small-file pages (issue 30): NULL until a page
	 * extent is marked or taken there */
	struct famfs_pagealloc *pa[FAMFS_MAX_DEVS];
	/* famfs_alloc_mark met memory in use already (a diverged or corrupt
	 * log): famfs_alloc_release frees nothing from then on */
	bool overlap;
};
/* Device 0 only, from the superblock */
int famfs_alloc_init(struct famfs_alloc *a, const struct famfs_superblock *sb);
/* Device dev (== a->ndevs: devices are added in order) covering
 * [data_start, size); -EINVAL out of order, -ENOMEM */
int famfs_alloc_add_dev(struct famfs_alloc *a, unsigned dev,
			uint64_t data_start, uint64_t size);
/* Add the devices of t that a lacks (the log's DEVADD entries) */
int famfs_alloc_sync(struct famfs_alloc *a, const struct famfs_logdevs *t);
void famfs_alloc_free(struct famfs_alloc *a);
uint64_t famfs_alloc_nfree(const struct famfs_alloc *a);	/* units */
/* Mark every extent or strip of a FILE entry used on the device its
 * device index names (a device this set does not have: nothing) */
void famfs_alloc_mark(struct famfs_alloc *a, const struct famfs_log_entry *e);
/* RECLAIM (issue 29): the memory famfs_alloc_mark marked for the FILE
 * entry e is free again -- its units back to the unit allocator, its
 * pages to their shared units (a unit back with its last page).  0, or
 * -EEXIST (nothing freed) once an overlap was marked (a->overlap). */
int famfs_alloc_release(struct famfs_alloc *a, const struct famfs_log_entry *e);
/* The allocators as a set of units (the replay's memory of deleted files,
 * replay/playfile.c): famfs_alloc_mark_units marks every unit a range of
 * the FILE entry e touches (a page extent: its unit) on its device, over
 * whatever is there (no overlap said, no page allocator); famfs_alloc_meets
 * says whether a unit e's ranges touch is marked.  A device a lacks: not
 * marked, not met.  (The units famfs_alloc_init and _sync mark below a
 * device's data area stay marked: no file is there.) */
void famfs_alloc_mark_units(struct famfs_alloc *a,
			    const struct famfs_log_entry *e);
bool famfs_alloc_meets(const struct famfs_alloc *a,
		       const struct famfs_log_entry *e);
/* Where a new file goes: any device (the policy below) or one */
struct famfs_place {
	bool has_dev;		/* --device N */
	uint32_t dev;
	uint32_t absent;	/* bit i: device i is not attached on this
				 * host, never chosen (famfs_place_here) */
};
/* "device N: no such device in this file system (its devices: 0-2)":
 * 0, or -ENODEV with reason filled */
int famfs_place_check(const struct famfs_alloc *a,
		      const struct famfs_place *pl, char *reason);
/* Which devices of a (the log's) are not attached to the mount at fs->mpt
 * (FAMFSIOC_DEV_GET; none known without it), or are another device there
 * than the log's (famfs_fs_member_here), into pl->absent.  pl's device
 * among them: -ENODEV, reason naming its index and device uuid.  Else 0,
 * and *skipped: the policy below would have chosen one of them for a file
 * of nstrips strips (0: a simple file). */
int famfs_place_here(struct famfs_fs *fs, const struct famfs_alloc *a,
		     struct famfs_place *pl, uint32_t nstrips, bool *skipped,
		     char *reason);
/* A simple file: on pl's device, else on the device with the most free
 * units that is not absent (ties: the lowest index; one that cannot hold
 * it: the next).
 * famfs_alloc_extents on it; *dev says which. */
int famfs_alloc_place(struct famfs_alloc *a, const struct famfs_place *pl,
		      uint64_t size, unsigned max_ext,
		      struct famfs_log_simple_ext *ext, unsigned *next,
		      unsigned *dev);
/* A simple file in one run starting at a multiple of align units
 * (famfs_alloc_aligned): on pl's device, else on the first device (in
 * index order, not absent) that has such a run.  *dev says which; -ENOSPC
 * (nothing changed) if none has. */
int famfs_alloc_place_aligned(struct famfs_alloc *a,
			      const struct famfs_place *pl, uint64_t size,
			      uint64_t align, struct famfs_log_simple_ext *ext,
			      unsigned *dev);
/* famfs_alloc_place_strips with every strip in one run starting at a
 * multiple of align units (famfs_bitmap_take_aligned; 512: 1 GiB): with a
 * chunk that is a multiple of align units every chunk starts on one, so
 * famfs.ko maps each chunk with 1 GiB pages.  The same devices as
 * famfs_alloc_place_strips picks (devs filled, *shared set, on -ENOSPC
 * too: the caller names them).  All or nothing: -ENOSPC leaves every
 * device as it was; -EINVAL for a bad align or geometry, or a chunk that
 * is not a multiple of align units. */
int famfs_alloc_place_strips_aligned(struct famfs_alloc *a,
				     const struct famfs_place *pl,
				     uint64_t size, uint32_t nstrips,
				     uint64_t chunk, uint64_t align,
				     struct famfs_log_interleave_ext *ie,
				     uint8_t devs[FAMFS_LOG_MAX_STRIPS],
				     bool *shared);
/* An interleaved file (famfs_alloc_strips' geometry): strip i on devs[i].
 * pl's device: all strips there.  Else, with at least nstrips devices
 * (not absent), each strip on another device (those with the most free
 * units, in index order); with fewer, strip i on the (i % n)th of the n
 * devices, and *shared set.  All or nothing: -ENOSPC leaves every device
 * as it was. */
int famfs_alloc_place_strips(struct famfs_alloc *a,
			     const struct famfs_place *pl, uint64_t size,
			     uint32_t nstrips, uint64_t chunk,
			     struct famfs_log_interleave_ext *ie,
			     uint8_t devs[FAMFS_LOG_MAX_STRIPS], bool *shared);

/* ---- pagealloc.c: small files in 4 KiB pages, shared units (issue 30) --- */
/*
 * Page extents of small files (famfs_format.h, INCOMPAT_SMALL_FILES) inside
 * 2 MiB units that several small files share.  A shared unit is taken from
 * the device's unit allocator (first fit, at the bottom: the 1 GiB-aligned
 * runs famfs_alloc_aligned looks for stay whole) and stays used there, so no
 * simple or interleaved extent is ever placed in it; it goes back to the
 * unit allocator when its last page is given back.  Never unit 0 (the
 * kernel refuses page extents in a device's first 2 MiB).
 *
 * Cost: a run of n pages comes from the shared unit whose longest free run
 * is the shortest that holds n (the fullest that fits: units fill up, long
 * runs stay whole), found through buckets of units by longest free run and
 * a 512-bit mask of the non-empty buckets; a unit is found by number
 * through a hash table.  No step looks at every unit: the cost depends
 * neither on the device's size nor on the number of files.
 */
#define FAMFS_UNIT_PAGES	(FAMFS_ALLOC_UNIT / FAMFS_PAGE)	/* 512 */
#define FAMFS_PA_WORDS		(FAMFS_UNIT_PAGES / 64)		/* 8 */
/* One shared unit: its pages in use, its free pages, its longest free run
 * (the bucket it is in, none when 0: full), its bucket neighbours (slots) */
struct famfs_punit {
	uint64_t unit;
	uint64_t used[FAMFS_PA_WORDS];
	uint16_t nfree, run;
	uint16_t sealed;	/* a large file's too: no page free again */
	uint32_t prev, next;
};
struct famfs_pagealloc {
	struct famfs_bitmap *b;		/* the device's units (not owned) */
	struct famfs_punit *pu;		/* slots; free ones chained by next */
	uint32_t nslots, cap, free_slot;
	uint32_t *hash;			/* slot + 1 by unit, 0: empty */
	uint32_t hcap;			/* a power of 2 */
	uint32_t head[FAMFS_UNIT_PAGES];	/* bucket r: runs of r pages */
	uint64_t nonempty[FAMFS_PA_WORDS];	/* bit r: bucket r has one */
	uint64_t nshared, nfull;	/* shared units, those with no room */
	uint64_t free_pages;		/* in shared units */
	/* work done (bucket and page words, hash slots looked at): what the
	 * unit tests count instead of timing (the unit allocator counts its
	 * own in b->work) */
	uint64_t work;
};
/* An empty page allocator over b, a device's unit allocator whose unit 0
 * is used (reserved): 0, -EINVAL (unit 0 free), -ENOMEM; reason filled */
int famfs_pagealloc_init(struct famfs_pagealloc *pa, struct famfs_bitmap *b,
			 char *reason);
void famfs_pagealloc_free(struct famfs_pagealloc *pa);
/* A run of npages (1..FAMFS_UNIT_PAGES - 1: a whole unit is the unit
 * allocator's) inside one shared unit, *off its device offset in bytes.
 * -EINVAL (npages), -ENOSPC (no shared unit has such a run and the unit
 * allocator has no unit left; nothing changed), -ENOMEM; reason filled. */
int famfs_pagealloc_take(struct famfs_pagealloc *pa, uint32_t npages,
			 uint64_t *off, char *reason);
/* Give back a run famfs_pagealloc_take or _mark gave (it may be part of
 * one): its unit goes back to the unit allocator when it has no page in use
 * left.  -EINVAL (not 4 KiB aligned, across units, not a shared unit, or a
 * page not in use: nothing changed); reason filled.  In a unit sealed by
 * famfs_pagealloc_seal_range the pages stay used (0). */
int famfs_pagealloc_give(struct famfs_pagealloc *pa, uint64_t off,
			 uint64_t len, char *reason);
/* Rebuild: the page extent [off, off + len) of a logged small file is in
 * use (its unit becomes shared, and used in the unit allocator), in any
 * order.  -EINVAL (not 4 KiB aligned, empty, across units, unit 0, past
 * the device), -EEXIST (a page already in use, or a unit not shared yet
 * that the unit allocator has in use -- the log's, a large file's: nothing
 * changed), -ENOMEM; reason filled.  The caller marks large files' units
 * with famfs_bitmap_mark and must refuse one that is already shared
 * (famfs_pagealloc_shared): the unit allocator cannot tell. */
int famfs_pagealloc_mark(struct famfs_pagealloc *pa, uint64_t off,
			 uint64_t len, char *reason);
/* A large file's (or the log's) range [off, off + len) read from the log
 * over units already shared (a diverged or corrupt log; fsck reports it):
 * each such unit's free pages are marked used for good, so no small file
 * is given a page of it and giving its pages back never frees it.  The
 * units sealed (0: none was shared); cost bounded by the range's units or
 * the shared units, whichever is fewer. */
uint64_t famfs_pagealloc_seal_range(struct famfs_pagealloc *pa, uint64_t off,
				    uint64_t len);
/* Is the page at off (bytes) in use by a small file */
bool famfs_pagealloc_test(const struct famfs_pagealloc *pa, uint64_t off);
/* Is unit shared (holds a page extent) */
bool famfs_pagealloc_shared(const struct famfs_pagealloc *pa, uint64_t unit);
/* What df would show */
struct famfs_pagealloc_stats {
	uint64_t shared;	/* units holding page extents */
	uint64_t partial;	/* of which with a free page */
	uint64_t pages_used, pages_free;	/* in shared units */
	uint32_t longest;	/* the longest free run in any shared unit */
};
void famfs_pagealloc_stats(const struct famfs_pagealloc *pa,
			   struct famfs_pagealloc_stats *st);

/* ---- place.c: small files (issue 30) ------------------------------------ */
/* A small file of size bytes (below FAMFS_SMALL_MAX, at most
 * FAMFS_UNIT_PAGES - 1 pages) in page extents: on pl's device, else on the
 * device with the most free units that is not absent (one that cannot hold
 * it: the next).  ext (bytes, little-endian) and devs[i] filled, *next
 * extents (1..16: one run when a shared unit or a new one holds it, else
 * halves).  All or nothing: -ENOSPC leaves every device as it was (reason
 * filled); -ENOMEM. */
int famfs_alloc_place_pages(struct famfs_alloc *a, const struct famfs_place *pl,
			    uint64_t size, struct famfs_log_simple_ext *ext,
			    unsigned *next, uint8_t devs[FAMFS_LOG_MAX_SIMPLE_EXT],
			    char *reason);

#endif /* FAMFS_SPACE_H */
