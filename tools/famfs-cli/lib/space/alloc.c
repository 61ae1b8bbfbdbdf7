// SPDX-License-Identifier: GPL-2.0
/* Allocator: a bitmap of 2 MiB units rebuilt from the log, first fit at the
 * first free unit when the request fits there (O(1)), else through an index
 * of free runs (O(log(device)), not O(device)). */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "space/space.h"

#define UNIT FAMFS_ALLOC_UNIT

bool famfs_bitmap_test(const struct famfs_bitmap *b, uint64_t u)
{
	return (b->bits[u / 64] >> (u % 64)) & 1;
}

/*
 * The search index.  Leaf i describes word i of the bitmap (units past
 * nunits, and leaves past the last word, count as used); an inner node
 * combines its two children.  Built at the first search that needs it
 * (marking the log's entries, and allocations at the first free unit,
 * before that set bits only); after that every word that changes makes its
 * leaf stale, and stale leaves are mended before the next search.
 */
static uint64_t word_free(const struct famfs_bitmap *b, uint64_t w)
{
	uint64_t f = ~b->bits[w];
	uint64_t past = b->nunits - w * 64;	/* units of this word in use */

	if (past < 64)
		f &= (1ULL << past) - 1;
	return f;
}

static struct famfs_bm_node leaf_of(uint64_t f)
{
	struct famfs_bm_node n;
	unsigned best = 0;

	if (f == ~0ULL)
		return (struct famfs_bm_node){ 64, 64, 64 };
	n.pre = (uint64_t)__builtin_ctzll(~f);
	n.suf = (uint64_t)__builtin_clzll(~f);
	/* the longest run of ones: each step shortens every run by one */
	for (uint64_t x = f; x; x &= x >> 1)
		best++;
	n.best = best;
	return n;
}

static inline void combine(struct famfs_bm_node *t, uint64_t i, uint64_t span)
{
	const struct famfs_bm_node *l = &t[2 * i], *r = &t[2 * i + 1];
	uint64_t half = span / 2, mid = l->suf + r->pre;

	t[i].pre = l->pre == half ? half + r->pre : l->pre;
	t[i].suf = r->suf == half ? half + l->suf : r->suf;
	t[i].best = l->best > r->best ? l->best : r->best;
	if (mid > t[i].best)
		t[i].best = mid;
}

/* Recompute the leaves of words [w0, w1] and every node above them */
static void tree_update(struct famfs_bitmap *b, uint64_t w0, uint64_t w1)
{
	uint64_t lo = w0 + b->nleaves, hi = w1 + b->nleaves, span = 64;

	if (!b->tree)
		return;
	for (uint64_t w = w0; w <= w1; w++) {
		b->tree[w + b->nleaves] = leaf_of(word_free(b, w));
		b->work++;
	}
	while (lo > 1) {
		struct famfs_bm_node was = b->tree[lo / 2];

		lo /= 2;
		hi /= 2;
		span *= 2;
		for (uint64_t i = lo; i <= hi; i++) {
			combine(b->tree, i, span);
			b->work++;
		}
		/* one node left that did not change: nor will those above */
		if (lo == hi && !memcmp(&was, &b->tree[lo], sizeof(was)))
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
		uint64_t f = word_free(b, w);

		if (f)
			b->tree[w + b->nleaves] = leaf_of(f);
	}
	for (uint64_t lo = b->nleaves / 2; lo; lo /= 2) {
		span *= 2;
		for (uint64_t i = lo; i < 2 * lo; i++)
			if (b->tree[2 * i].best | b->tree[2 * i + 1].best)
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

/* Words [w0, w1] changed.  Changes near those already stale join them
 * (one mending for a series of allocations side by side); a change far
 * from them has them mended first, so a mending never covers more than
 * what changed and a few words in between. */
#define STALE_GAP 8

static void index_stale(struct famfs_bitmap *b, uint64_t w0, uint64_t w1)
{
	if (!b->tree)
		return;
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

/* Set (used) or clear units [u, u + n) (inside the device), one word at
 * a time; nfree and the index follow */
static void range_set(struct famfs_bitmap *b, uint64_t u, uint64_t n, bool used)
{
	uint64_t end = u + n, w0 = u / 64, w1 = (end - 1) / 64;

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
	if (!used && u < b->hint)
		b->hint = u;
	index_stale(b, w0, w1);
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

void famfs_bitmap_mark(struct famfs_bitmap *b, const struct famfs_log_entry *e)
{
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	/* extents or strips on the primary: members have their own
	 * allocators (issue 16) */
	unsigned nr = famfs_entry_ranges_on(e, 0, r);

	for (unsigned i = 0; i < nr; i++)
		famfs_bitmap_mark_range(b, r[i].offset, r[i].len);
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
	b->work++;
	return w * 64 + (uint64_t)__builtin_ctzll(fits(word_free(b, w), want));
}

/*
 * First fit by looking at the bitmap from the hint on, nw words at most:
 * true and *first, or false if it is not in them.  Moves the hint up to
 * the first free unit.  With the index nw is 2: what fits at the first free
 * units (anything on an empty device, one unit on a fragmented one) is
 * found so at any device size, and the index is the way further.  Without
 * it the search goes on to the end of the device: ~8 instructions per used
 * word, ~25 per other word (3 M at 16 TiB, 95 % full and fragmented), less
 * than half of building the index.
 */
static bool scan_fit(struct famfs_bitmap *b, uint64_t want, uint64_t nw,
		     uint64_t *first)
{
	/* run: free units just below word w; a fit inside a word needs its
	 * first and last unit free (shift, the cheap test first) */
	uint64_t w0 = b->hint / 64, w = w0, end, run = 0, f, x;
	unsigned shift = want <= 64 ? (unsigned)want - 1 : 0;
	bool found = false;

	if (w >= b->nwords)
		return false;
	end = b->nwords - w > nw ? w + nw : b->nwords;
	f = word_free(b, w) & (~0ULL << (b->hint % 64));
	/* the used words from the hint on: passed once */
	while (!f && ++w < end)
		f = word_free(b, w);
	if (w == end) {
		b->hint = w * 64 < b->nunits ? w * 64 : b->nunits;
		goto out;
	}
	b->hint = w * 64 + (uint64_t)__builtin_ctzll(f);
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
		f = word_free(b, w);
	}
	found = true;
	w++;
out:
	b->work += w - w0;
	b->scanned += w - w0;
	return found;
}

/*
 * First fit of want units: marks them used, returns the first.  Near the
 * hint if it fits there (scan_fit).  Else down the index from the root: the
 * left child if it holds such a run, else one that spans both children,
 * else the right child.  A process that has not needed the index yet (a
 * new one: a create) searches the bitmap itself, until the words it looked
 * at add up to the whole bitmap: then it builds the index.
 */
static int alloc_run(struct famfs_bitmap *b, uint64_t want, uint64_t *first)
{
	uint64_t i = 1, lo = 0, span = b->nleaves * 64;
	bool index = b->tree || b->scanned >= b->nwords;

	if (!want || want > b->nfree)
		return -ENOSPC;
	if (scan_fit(b, want, index ? 2 : b->nwords, first))
		goto found;
	if (!index)
		return -ENOSPC;	/* nothing free below the hint, nor after */
	if (famfs_bitmap_index_sync(b))
		return -ENOSPC;
	b->work++;
	if (b->tree[1].best < want)
		return -ENOSPC;
	while (i < b->nleaves) {
		const struct famfs_bm_node *l = &b->tree[2 * i];

		b->work++;
		span /= 2;
		if (l->best >= want) {
			i = 2 * i;
		} else if (l->suf + b->tree[2 * i + 1].pre >= want) {
			*first = lo + span - l->suf;
			goto found;
		} else {
			i = 2 * i + 1;
			lo += span;
		}
	}
	*first = word_fit(b, i - b->nleaves, want);
found:
	range_set(b, *first, want, true);
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

/* A free run of units [first, first + len) */
struct run {
	uint64_t first, len;
};

/* Calls fn for every maximal free run, in address order: a word at a
 * time, used words skipped whole */
static void for_each_run(const struct famfs_bitmap *b,
			 void (*fn)(void *arg, struct run r), void *arg)
{
	uint64_t start = 0, len = 0;

	for (uint64_t w = 0; w < b->nwords; w++) {
		uint64_t f = word_free(b, w);

		if (!f && !len)
			continue;
		if (f == ~0ULL) {
			if (!len++)
				start = w * 64;
			len += 63;
			continue;
		}
		for (uint64_t k = 0; k < 64; k++) {
			if ((f >> k) & 1) {
				if (!len++)
					start = w * 64 + k;
				continue;
			}
			if (len)
				fn(arg, (struct run){ start, len });
			len = 0;
			if (!(f >> k))
				break;
		}
	}
	if (len)
		fn(arg, (struct run){ start, len });
}

/* The max longest runs, longest first (ties: lower address first) */
struct top_runs {
	struct run r[FAMFS_LOG_MAX_SIMPLE_EXT];
	unsigned n, max;
};

static void top_add(void *arg, struct run r)
{
	struct top_runs *t = arg;
	unsigned i;

	if (t->n == t->max && t->r[t->n - 1].len >= r.len)
		return;
	if (t->n < t->max)
		t->n++;
	/* runs come in address order: a tie goes after the earlier one */
	for (i = t->n - 1; i > 0 && t->r[i - 1].len < r.len; i--)
		t->r[i] = t->r[i - 1];
	t->r[i] = r;
}

/* The shortest run of at least want units that is not one of skip[0..n)
 * (ties: the lowest address) */
struct best_fit {
	uint64_t want;
	const struct run *skip;
	unsigned nskip;
	struct run best;
};

static void best_add(void *arg, struct run r)
{
	struct best_fit *f = arg;

	if (r.len < f->want || (f->best.len && r.len >= f->best.len))
		return;
	for (unsigned i = 0; i < f->nskip; i++)
		if (f->skip[i].first == r.first)
			return;
	f->best = r;
}

static int cmp_ext(const void *a, const void *b)
{
	uint64_t x = le64toh(((const struct famfs_log_simple_ext *)a)->offset);
	uint64_t y = le64toh(((const struct famfs_log_simple_ext *)b)->offset);

	return x < y ? -1 : x > y;
}

int famfs_alloc_extents(struct famfs_bitmap *b, uint64_t size,
			unsigned max_ext, struct famfs_log_simple_ext *ext,
			unsigned *next)
{
	uint64_t want = size / UNIT + (size % UNIT != 0), sum = 0, first;
	struct top_runs top = { .max = max_ext };
	struct best_fit fit = { 0 };
	unsigned k;

	*next = 0;
	if (!want)
		want = 1;
	if (!max_ext || max_ext > FAMFS_LOG_MAX_SIMPLE_EXT)
		return -EINVAL;
	/* the common case, as it always was: one run, first fit */
	if (!alloc_run(b, want, &first)) {
		ext[0].offset = htole64(first * UNIT);
		ext[0].len = htole64(want * UNIT);
		*next = 1;
		return 0;
	}
	if (max_ext == 1)
		return -ENOSPC;
	/* fewest extents: the longest runs, as many as it takes */
	for_each_run(b, top_add, &top);
	for (k = 0; k < top.n && sum < want; k++)
		sum += top.r[k].len;
	if (sum < want)
		return -ENOSPC;
	/* all of the k - 1 longest, the rest from the shortest run holding
	 * it (the k-th longest does): big runs stay whole for later files */
	fit.want = want - (sum - top.r[k - 1].len);
	fit.skip = top.r;
	fit.nskip = k - 1;
	for_each_run(b, best_add, &fit);
	top.r[k - 1] = (struct run){ fit.best.first, fit.want };
	for (unsigned i = 0; i < k; i++) {
		range_set(b, top.r[i].first, top.r[i].len, true);
		ext[i].offset = htole64(top.r[i].first * UNIT);
		ext[i].len = htole64(top.r[i].len * UNIT);
	}
	/* in device order: every length is whole units, any order is valid */
	qsort(ext, k, sizeof(*ext), cmp_ext);
	*next = k;
	return 0;
}

int famfs_strip_len(uint64_t size, uint32_t nstrips, uint64_t chunk,
		    uint64_t *slen)
{
	uint64_t stripe, nstripes;

	if (!nstrips || nstrips > FAMFS_LOG_MAX_STRIPS || !chunk ||
	    chunk % UNIT)
		return -EINVAL;
	/* a stripe (one chunk on every strip) too big to count: no room */
	if (__builtin_mul_overflow(chunk, (uint64_t)nstrips, &stripe))
		return -ENOSPC;
	nstripes = size / stripe + (size % stripe != 0);
	if (!nstripes)
		nstripes = 1;
	if (__builtin_mul_overflow(nstripes, chunk, slen))
		return -ENOSPC;
	return 0;
}

int famfs_alloc_strips(struct famfs_bitmap *b, uint64_t size, uint32_t nstrips,
		       uint64_t chunk, struct famfs_log_interleave_ext *ie)
{
	uint64_t slen, first[FAMFS_LOG_MAX_STRIPS];
	int rc = famfs_strip_len(size, nstrips, chunk, &slen);

	if (rc)
		return rc;
	for (uint32_t i = 0; i < nstrips; i++) {
		if (alloc_run(b, slen / UNIT, &first[i])) {
			/* all or nothing: give back the strips taken so far */
			for (uint32_t j = 0; j < i; j++)
				range_set(b, first[j], slen / UNIT, false);
			return -ENOSPC;
		}
	}
	memset(ie, 0, sizeof(*ie));
	ie->nstrips = htole32(nstrips);
	ie->chunk_size = htole64(chunk);
	ie->strip_len = htole64(slen);
	for (uint32_t i = 0; i < nstrips; i++)
		ie->strip_off[i] = htole64(first[i] * UNIT);
	return 0;
}

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

/*
 * 1 GiB-aligned runs (issue 31).  The candidates are the multiples of
 * align; a used unit inside one moves the search to the next multiple past
 * it, so the whole device costs one pass over its words.
 */
int famfs_alloc_aligned(struct famfs_bitmap *b, uint64_t size, uint64_t align,
			struct famfs_log_simple_ext *ext)
{
	uint64_t want = size / UNIT + (size % UNIT != 0);

	if (!align_ok(align))
		return -EINVAL;
	if (!want)
		want = 1;
	for (uint64_t s = 0; s < b->nunits && want <= b->nunits - s;) {
		uint64_t u = first_used(b, s, s + want);

		b->work++;
		if (u == s + want) {
			range_set(b, s, want, true);
			ext->offset = htole64(s * UNIT);
			ext->len = htole64(want * UNIT);
			return 0;
		}
		s = (u / align + 1) * align;
	}
	return -ENOSPC;
}

uint64_t famfs_bitmap_free_aligned(const struct famfs_bitmap *b,
				   uint64_t align)
{
	uint64_t n = 0;

	if (!align_ok(align))
		return 0;
	for (uint64_t s = 0; s < b->nunits && align <= b->nunits - s; s += align)
		if (first_used(b, s, s + align) == s + align)
			n++;
	return n;
}
