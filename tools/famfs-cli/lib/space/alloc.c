// SPDX-License-Identifier: GPL-2.0
/* Allocator: a bitmap of 2 MiB units rebuilt from the log, first fit at the
 * first free unit when the request fits there (O(1)), else through an index
 * of free runs (O(log(device)), not O(device)); a request that would break
 * a wholly free aligned GiB goes first to the room outside them (the same
 * index, a second view). */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "space/space.h"

#define UNIT FAMFS_ALLOC_UNIT
#define KEEP FAMFS_BM_KEEP_UNITS
#define KEEP_WORDS (KEEP / 64)

_Static_assert(KEEP % 64 == 0, "a kept GiB is whole bitmap words");

bool famfs_bitmap_test(const struct famfs_bitmap *b, uint64_t u)
{
	return (b->bits[u / 64] >> (u % 64)) & 1;
}

/* Aligned GiB g lies inside the device and every unit of it is free: up
 * to 8 words looked at (one, where its first is used) */
static bool gib_whole(const struct famfs_bitmap *b, uint64_t g)
{
	const uint64_t *w = b->bits + g * KEEP_WORDS;

	if (g >= b->nunits / KEEP)
		return false;
	for (unsigned k = 0; k < KEEP_WORDS; k++)
		if (w[k])
			return false;
	return true;
}

/* How many of GiBs [g0, g1] are wholly free (counted as one word each:
 * most stop at their first) */
static uint64_t gibs_whole(struct famfs_bitmap *b, uint64_t g0, uint64_t g1)
{
	uint64_t n = 0;

	for (uint64_t g = g0; g <= g1; g++)
		n += gib_whole(b, g);
	b->work += g1 - g0 + 1;
	return n;
}

/* Free units outside wholly free aligned GiBs */
static uint64_t room_kept_out(const struct famfs_bitmap *b)
{
	return b->nfree - b->nwhole * KEEP;
}

/* How many wholly free aligned GiBs units [u, u + n) touch */
static uint64_t whole_in(struct famfs_bitmap *b, uint64_t u, uint64_t n)
{
	return gibs_whole(b, u / KEEP, (u + n - 1) / KEEP);
}

/*
 * The search index.  Leaf i describes word i of the bitmap (units past
 * nunits, and leaves past the last word, count as used); an inner node
 * combines its two children.  Each node holds two views (r[0], r[1]): of
 * every free unit, and of the free units outside wholly free aligned GiBs
 * (a word of such a GiB counts as used in r[1]).  Built at the first
 * search that needs it (marking the log's entries, and allocations at the
 * first free unit, before that set bits only); after that every word that
 * changes makes the leaves of its GiB stale (whether the GiB is whole
 * changes r[1] of all of them), and stale leaves are mended before the
 * next search.
 */
static struct famfs_bm_runs runs_of(uint64_t f)
{
	struct famfs_bm_runs n;
	unsigned best = 0;

	if (f == ~0ULL)
		return (struct famfs_bm_runs){ 64, 64, 64 };
	n.pre = (uint64_t)__builtin_ctzll(~f);
	n.suf = (uint64_t)__builtin_clzll(~f);
	/* the longest run of ones: each step shortens every run by one */
	for (uint64_t x = f; x; x &= x >> 1)
		best++;
	n.best = best;
	return n;
}

/* The leaf of a word with free mask f, in a wholly free GiB or not */
static struct famfs_bm_node leaf_of(uint64_t f, bool whole)
{
	struct famfs_bm_node n = { { runs_of(f) } };

	if (!whole)
		n.r[1] = n.r[0];
	return n;
}

static inline void combine1(struct famfs_bm_runs *t,
			    const struct famfs_bm_runs *l,
			    const struct famfs_bm_runs *r, uint64_t half)
{
	uint64_t mid = l->suf + r->pre, best = l->best > r->best ? l->best : r->best;

	t->pre = l->pre + (l->pre == half ? r->pre : 0);
	t->suf = r->suf + (r->suf == half ? l->suf : 0);
	t->best = mid > best ? mid : best;
}

static inline void combine(struct famfs_bm_node *t, uint64_t i, uint64_t span)
{
	for (unsigned v = 0; v < 2; v++)
		combine1(&t[i].r[v], &t[2 * i].r[v], &t[2 * i + 1].r[v],
			 span / 2);
}

static inline bool runs_eq(const struct famfs_bm_runs *a,
			   const struct famfs_bm_runs *b)
{
	return a->pre == b->pre && a->suf == b->suf && a->best == b->best;
}

/* Recompute the leaves of words [w0, w1] and every node above them */
static void tree_update(struct famfs_bitmap *b, uint64_t w0, uint64_t w1)
{
	uint64_t lo = w0 + b->nleaves, hi = w1 + b->nleaves, span = 64;
	unsigned live = 3;	/* the views still changing */
	bool whole = false;

	if (!b->tree)
		return;
	for (uint64_t w = w0; w <= w1; w++) {
		if (w == w0 || w % KEEP_WORDS == 0)
			whole = gib_whole(b, w / KEEP_WORDS);
		b->tree[w + b->nleaves] = leaf_of(famfs_bitmap_word_free(b, w), whole);
		b->work++;
	}
	while (lo > 1) {
		struct famfs_bm_node *t = b->tree;
		struct famfs_bm_runs n;

		lo /= 2;
		hi /= 2;
		span *= 2;
		b->work += hi - lo + 1;
		if (lo < hi) {
			for (uint64_t i = lo; i <= hi; i++)
				combine(t, i, span);
			continue;
		}
		/* One node a level from here on, its sibling unchanged: a
		 * view that does not change here does not above; none
		 * left, done. */
		for (unsigned v = 0; v < 2; v++) {
			if (!(live & (1U << v)))
				continue;
			combine1(&n, &t[2 * lo].r[v], &t[2 * lo + 1].r[v],
				 span / 2);
			if (runs_eq(&n, &t[lo].r[v]))
				live ^= 1U << v;
			else
				t[lo].r[v] = n;
		}
		if (!live)
			break;
	}
}

/* The nodes (zeroed) of used words and of subtrees with no free unit
 * are left as they are: a full region costs a test per word */
static int tree_build(struct famfs_bitmap *b)
{
	uint64_t span = 64;

	b->tree = calloc(2 * b->nleaves, sizeof(*b->tree));
	if (!b->tree) {
		famfs_err("out of memory for the allocation index of %llu units",
			  (unsigned long long)b->nunits);
		return -ENOMEM;
	}
	b->stale = false;
	for (uint64_t w = 0; w < b->nwords; w++) {
		uint64_t f = famfs_bitmap_word_free(b, w);

		if (f)
			b->tree[w + b->nleaves] =
				leaf_of(f, gib_whole(b, w / KEEP_WORDS));
	}
	/* (r[1] never exceeds r[0]) */
	for (uint64_t lo = b->nleaves / 2; lo; lo /= 2) {
		span *= 2;
		for (uint64_t i = lo; i < 2 * lo; i++)
			if (b->tree[2 * i].r[0].best | b->tree[2 * i + 1].r[0].best)
				combine(b->tree, i, span);
	}
	return 0;
}

int famfs_bitmap_index_sync(struct famfs_bitmap *b)
{
	if (!b->tree)
		return tree_build(b);
	if (b->stale)
		tree_update(b, b->stale_lo, b->stale_hi);
	b->stale = false;
	return 0;
}

/* Words [w0, w1] changed (gib: and whether a GiB of theirs is wholly
 * free: then r[1] of every leaf of those GiBs changes, and they all are
 * stale).  Changes near those already stale join them (one mending for a
 * series of allocations side by side); a change far from them has them
 * mended first, so a mending never covers more than what changed and a
 * few words in between. */
#define STALE_GAP 8

static void index_stale(struct famfs_bitmap *b, uint64_t w0, uint64_t w1,
			bool gib)
{
	if (!b->tree)
		return;
	if (gib) {
		w0 -= w0 % KEEP_WORDS;
		w1 = w1 - w1 % KEEP_WORDS + KEEP_WORDS - 1;
		if (w1 >= b->nwords)
			w1 = b->nwords - 1;
	}
	if (b->stale && w0 <= b->stale_hi + STALE_GAP &&
	    b->stale_lo <= w1 + STALE_GAP) {
		if (w0 < b->stale_lo)
			b->stale_lo = w0;
		if (w1 > b->stale_hi)
			b->stale_hi = w1;
		return;
	}
	if (b->stale)
		tree_update(b, b->stale_lo, b->stale_hi);
	b->stale = true;
	b->stale_lo = w0;
	b->stale_hi = w1;
}

/* Set (used) or clear units [u, u + n) (inside the device; whole: how
 * many wholly free aligned GiBs they touch), one word at a time; nfree,
 * nwhole and the index follow */
static void range_set_w(struct famfs_bitmap *b, uint64_t u, uint64_t n,
			bool used, uint64_t whole)
{
	uint64_t end = u + n, w0 = u / 64, w1 = (end - 1) / 64;
	uint64_t g0 = u / KEEP, g1 = (end - 1) / KEEP, after = 0;

	if (!n)
		return;
	for (uint64_t w = w0; w <= w1; w++) {
		uint64_t lo = w == w0 ? u % 64 : 0;
		uint64_t hi = w == w1 ? (end - 1) % 64 : 63;
		uint64_t m = (hi == 63 ? ~0ULL : (1ULL << (hi + 1)) - 1) &
			     ~((1ULL << lo) - 1);
		uint64_t old = b->bits[w];

		b->work++;
		if (used) {
			b->bits[w] |= m;
			b->nfree -= (uint64_t)__builtin_popcountll(m & ~old);
		} else {
			b->bits[w] &= ~m;
			b->nfree += (uint64_t)__builtin_popcountll(m & old);
		}
	}
	/* (a GiB with a unit used is not whole) */
	if (!used)
		after = gibs_whole(b, g0, g1);
	b->nwhole += after - whole;
	if (!used && u < b->hint)
		b->hint = u;
	/* freed units, or the rest of a GiB broken: outside from now on */
	if (!used && u < b->khint)
		b->khint = u;
	if (used && whole && g0 * KEEP < b->khint)
		b->khint = g0 * KEEP;
	index_stale(b, w0, w1, after != whole);
}

static void range_set(struct famfs_bitmap *b, uint64_t u, uint64_t n, bool used)
{
	if (n)
		range_set_w(b, u, n, used, whole_in(b, u, n));
}

void famfs_bitmap_set(struct famfs_bitmap *b, uint64_t u)
{
	if (u < b->nunits)
		range_set(b, u, 1, true);
}

void famfs_bitmap_clear(struct famfs_bitmap *b, uint64_t u)
{
	if (u < b->nunits)
		range_set(b, u, 1, false);
}

int famfs_bitmap_init_dev(struct famfs_bitmap *b, uint64_t data_start,
			  uint64_t size)
{
	uint64_t reserved = data_start / UNIT + (data_start % UNIT != 0);

	memset(b, 0, sizeof(*b));
	b->nunits = size / UNIT;
	b->nfree = b->nunits;
	b->nwhole = b->nunits / KEEP;
	b->nwords = (b->nunits + 63) / 64;
	for (b->nleaves = 1; b->nleaves < b->nwords; b->nleaves *= 2)
		;
	b->bits = calloc(b->nwords + 1, sizeof(uint64_t));
	if (!b->bits) {
		famfs_err("out of memory for a bitmap of %llu units",
			  (unsigned long long)b->nunits);
		return -ENOMEM;
	}
	range_set(b, 0, reserved < b->nunits ? reserved : b->nunits, true);
	return 0;
}

int famfs_bitmap_init(struct famfs_bitmap *b, const struct famfs_superblock *sb)
{
	return famfs_bitmap_init_dev(b, famfs_data_start(sb),
				     famfs_sb_dev_size(sb));
}

void famfs_bitmap_free(struct famfs_bitmap *b)
{
	free(b->bits);
	free(b->tree);
	b->bits = NULL;
	b->tree = NULL;
	b->stale = false;
}

void famfs_bitmap_recount(struct famfs_bitmap *b)
{
	b->nwhole = gibs_whole(b, 0, b->nunits / KEEP ? b->nunits / KEEP - 1 : 0);
}

void famfs_bitmap_mark_range(struct famfs_bitmap *b, uint64_t off,
			     uint64_t len)
{
	uint64_t u = off / UNIT, n = len / UNIT;

	if (u >= b->nunits)
		return;
	if (n > b->nunits - u)
		n = b->nunits - u;
	range_set(b, u, n, true);
}

bool famfs_bitmap_any(const struct famfs_bitmap *b, uint64_t off,
		      uint64_t len)
{
	uint64_t u = off / UNIT, end, w0, w1;

	if (!len || u >= b->nunits)
		return false;
	end = len - 1 > UINT64_MAX - off ? b->nunits : (off + len - 1) / UNIT + 1;
	if (end > b->nunits)
		end = b->nunits;
	w0 = u / 64;
	w1 = (end - 1) / 64;
	for (uint64_t w = w0; w <= w1; w++) {
		uint64_t lo = w == w0 ? u % 64 : 0;
		uint64_t hi = w == w1 ? (end - 1) % 64 : 63;
		uint64_t m = (hi == 63 ? ~0ULL : (1ULL << (hi + 1)) - 1) &
			     ~((1ULL << lo) - 1);

		if (b->bits[w] & m)
			return true;
	}
	return false;
}

void famfs_bitmap_mark(struct famfs_bitmap *b, const struct famfs_log_entry *e)
{
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	/* extents or strips on the primary: members have their own
	 * allocators (issue 16) */
	unsigned nr = famfs_entry_ranges_on(e, 0, r);
	bool pages = famfs_entry_pages(e);

	/* a small file's page extent: its whole (shared) unit is used */
	for (unsigned i = 0; i < nr; i++)
		famfs_bitmap_mark_range(b, pages ? r[i].offset / UNIT * UNIT :
					r[i].offset, pages ? UNIT : r[i].len);
}

/* Bit i: a free run of want (1..64) units starts at unit i of the free
 * mask f (and ends inside it) */
static uint64_t fits(uint64_t f, uint64_t want)
{
	for (uint64_t have = 1, k; have < want && f; have += k) {
		k = want - have < have ? want - have : have;
		f &= f >> k;
	}
	return f;
}

/* The first free run of want (1..64) units inside word w, which has one */
static uint64_t word_fit(struct famfs_bitmap *b, uint64_t w, uint64_t want)
{
	uint64_t f = famfs_bitmap_word_free(b, w);

	b->work++;
	return w * 64 + (uint64_t)__builtin_ctzll(fits(f, want));
}

/* The free units of word w; with keep, none in a wholly free aligned GiB
 * (*g, *whole: the GiB last looked at, and whether it is) */
static uint64_t scan_word(const struct famfs_bitmap *b, uint64_t w, bool keep,
			  uint64_t *g, bool *whole)
{
	if (!keep)
		return famfs_bitmap_word_free(b, w);
	if (w / KEEP_WORDS != *g) {
		*g = w / KEEP_WORDS;
		*whole = gib_whole(b, *g);
	}
	return *whole ? 0 : famfs_bitmap_word_free(b, w);
}

/*
 * First fit by looking at the bitmap from the hint on, nw words at most:
 * true and *first, or false if it is not in them.  Moves the hint up to
 * the first free unit.  With the index nw is 2: what fits at the first free
 * units (anything on an empty device, one unit on a fragmented one) is
 * found so at any device size, and the index is the way further.  Without
 * it the search goes on to the end of the device: ~8 instructions per used
 * word, ~25 per other word (3 M at 16 TiB, 95 % full and fragmented), less
 * than half of building the index.  With keep, the units of wholly free
 * aligned GiBs count as used (the room outside them), and khint is the
 * hint.
 */
static inline __attribute__((always_inline)) bool
scan_fit_v(struct famfs_bitmap *b, uint64_t want, uint64_t nw, bool keep,
	   uint64_t *first)
{
	/* run: free units just below word w; a fit inside a word needs its
	 * first and last unit free (shift, the cheap test first) */
	uint64_t *hint = keep ? &b->khint : &b->hint;
	uint64_t w0 = *hint / 64, w = w0, end, run = 0, f, x, g = UINT64_MAX;
	unsigned shift = want <= 64 ? (unsigned)want - 1 : 0;
	bool found = false, whole = false;

	if (w >= b->nwords)
		return false;
	end = b->nwords - w > nw ? w + nw : b->nwords;
	f = scan_word(b, w, keep, &g, &whole) & (~0ULL << (*hint % 64));
	/* the used words from the hint on: passed once */
	while (!f && ++w < end)
		f = scan_word(b, w, keep, &g, &whole);
	if (w == end) {
		*hint = w * 64 < b->nunits ? w * 64 : b->nunits;
		goto out;
	}
	*hint = w * 64 + (uint64_t)__builtin_ctzll(f);
	for (;;) {
		if (f == ~0ULL) {		/* a run goes on, or starts */
			run += 64;
			if (run >= want) {
				*first = (w + 1) * 64 - run;
				break;
			}
		} else {
			/* the run from the words before ends here; else one
			 * inside the word; else one starts at its end */
			if (run && run + (uint64_t)__builtin_ctzll(~f) >= want) {
				*first = w * 64 - run;
				break;
			}
			x = want <= 64 && (f & (f >> shift)) ? fits(f, want) : 0;
			if (x) {
				*first = w * 64 + (uint64_t)__builtin_ctzll(x);
				break;
			}
			run = (uint64_t)__builtin_clzll(~f);
		}
		if (++w == end)
			goto out;
		f = scan_word(b, w, keep, &g, &whole);
	}
	found = true;
	w++;
out:
	b->work += w - w0;
	b->scanned += w - w0;
	return found;
}

/* one copy of each, keep a constant in it (the scan of every word of a
 * device without the index is the hot loop of a new process) */
static __attribute__((noinline)) bool scan_fit0(struct famfs_bitmap *b,
						uint64_t want, uint64_t nw,
						uint64_t *first)
{
	return scan_fit_v(b, want, nw, false, first);
}

static __attribute__((noinline)) bool scan_fit1(struct famfs_bitmap *b,
						uint64_t want, uint64_t nw,
						uint64_t *first)
{
	return scan_fit_v(b, want, nw, true, first);
}

static bool scan_fit(struct famfs_bitmap *b, uint64_t want, uint64_t nw,
		     bool keep, uint64_t *first)
{
	return keep ? scan_fit1(b, want, nw, first) :
		      scan_fit0(b, want, nw, first);
}

/*
 * First fit of want units in view v of the index (0: every free unit; 1:
 * those outside wholly free aligned GiBs), which is up to date: down from
 * the root, the left child if it holds such a run, else one that spans
 * both children, else the right child.
 */
static bool tree_fit(struct famfs_bitmap *b, uint64_t want, unsigned v,
		     uint64_t *first)
{
	uint64_t i = 1, lo = 0, span = b->nleaves * 64;

	b->work++;
	if (b->tree[1].r[v].best < want)
		return false;
	while (i < b->nleaves) {
		const struct famfs_bm_runs *l = &b->tree[2 * i].r[v];

		b->work++;
		span /= 2;
		if (l->best >= want) {
			i = 2 * i;
		} else if (l->suf + b->tree[2 * i + 1].r[v].pre >= want) {
			*first = lo + span - l->suf;
			return true;
		} else {
			i = 2 * i + 1;
			lo += span;
		}
	}
	/* (in view 1 too: the leaf's GiB is not whole, its word as is) */
	*first = word_fit(b, i - b->nleaves, want);
	return true;
}

/*
 * A run of want units: marks them used, returns the first.  First fit near
 * the hint if it fits there (scan_fit), else down the index (tree_fit).  A
 * process that has not needed the index yet (a new one: a create) searches
 * the bitmap itself, until the words it looked at add up to the whole
 * bitmap: then it builds the index.
 *
 * Aligned GiBs kept whole (issue 31): when that first fit would use a unit
 * of a wholly free aligned GiB (or was not found near the hint), and there
 * are want free units outside such GiBs (room_kept_out(), a count), the
 * first fit among those goes first, found the same way: near khint (no
 * such unit below it; moved up to the first unit of that room by the index
 * when it is behind), else in the index's second view; a process without
 * the index scans on, counting those GiBs as used.  Small files then fill
 * partly used GiBs and leave whole ones to files that famfs.ko maps with
 * 1 GiB pages; a GiB is broken only when no partly used one holds the run.
 * The same costs: a count, a GiB or two looked at, a word or two, or a
 * descent.
 */
static int alloc_run(struct famfs_bitmap *b, uint64_t want, uint64_t *first)
{
	bool index = b->tree || b->scanned >= b->nwords, found;
	uint64_t k, whole = 0;

	if (!want || want > b->nfree)
		return -ENOSPC;
	found = scan_fit(b, want, index ? 2 : b->nwords, false, first);
	if (found && !(whole = whole_in(b, *first, want)))
		goto take;
	if (!found && !index)
		return -ENOSPC;	/* nothing free below the hint, nor after */
	/* (without a whole GiB the room outside them is all the room) */
	if (b->nwhole && room_kept_out(b) >= want) {
		if (scan_fit(b, want, index ? 2 : b->nwords, true, &k))
			goto kept;
		/* khint behind: to the first unit of that room, and again */
		if (index && !famfs_bitmap_index_sync(b) &&
		    tree_fit(b, 1, 1, &b->khint) &&
		    (scan_fit(b, want, 2, true, &k) ||
		     tree_fit(b, want, 1, &k)))
			goto kept;
	}
	if (!found) {
		if (famfs_bitmap_index_sync(b) || !tree_fit(b, want, 0, first))
			return -ENOSPC;
		whole = whole_in(b, *first, want);
	}
take:
	range_set_w(b, *first, want, true, whole);
	return 0;
kept:
	*first = k;
	range_set_w(b, k, want, true, 0);
	return 0;
}

int famfs_bitmap_take(struct famfs_bitmap *b, uint64_t units, uint64_t *first)
{
	return alloc_run(b, units, first);
}

void famfs_bitmap_give(struct famfs_bitmap *b, uint64_t first, uint64_t units)
{
	if (first < b->nunits && units <= b->nunits - first)
		range_set(b, first, units, false);
}

int famfs_alloc(struct famfs_bitmap *b, uint64_t size,
		struct famfs_log_simple_ext *ext)
{
	/* not (size + UNIT - 1) / UNIT: that wraps for sizes near 2^64 */
	uint64_t want = size / UNIT + (size % UNIT != 0), first;

	if (!want)
		want = 1;
	if (alloc_run(b, want, &first))
		return -ENOSPC;
	ext->offset = htole64(first * UNIT);
	ext->len = htole64(want * UNIT);
	return 0;
}
