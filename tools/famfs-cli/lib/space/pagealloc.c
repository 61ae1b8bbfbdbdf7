// SPDX-License-Identifier: GPL-2.0
/*
 * Small files in 4 KiB pages inside shared 2 MiB units (issue 30): runs of
 * pages taken from the shared unit whose longest free run is the shortest
 * that holds the request (buckets by longest run, a mask of non-empty
 * buckets), a new shared unit from the unit allocator when none holds it,
 * given back to it when its last page is free.  Units are found by number
 * through a hash table (linear probing): nothing here looks at every unit,
 * so the cost depends neither on the device's size nor on the number of
 * files.  space.h says the rules.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space/space.h"

#define UNIT FAMFS_ALLOC_UNIT
#define PG FAMFS_PAGE
#define NPG ((uint32_t)FAMFS_UNIT_PAGES)
#define NONE UINT32_MAX

static void say(char *reason, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(char *reason, const char *fmt, ...)
{
	va_list ap;

	if (!reason)
		return;
	va_start(ap, fmt);
	vsnprintf(reason, FAMFS_REASON_LEN, fmt, ap);
	va_end(ap);
}

/* ---- pages of one unit -------------------------------------------------- */
static bool page_used(const struct famfs_punit *p, uint32_t i)
{
	return (p->used[i / 64] >> (i % 64)) & 1;
}

/* Set (used) or clear pages [i, i + n) */
static void pages_set(struct famfs_punit *p, uint32_t i, uint32_t n, bool used)
{
	for (uint32_t k = i; k < i + n; k++) {
		if (used)
			p->used[k / 64] |= 1ULL << (k % 64);
		else
			p->used[k / 64] &= ~(1ULL << (k % 64));
	}
}

/* Are pages [i, i + n) all free (want false) or all used (want true) */
static bool pages_all(const struct famfs_punit *p, uint32_t i, uint32_t n,
		      bool want)
{
	for (uint32_t k = i; k < i + n; k++)
		if (page_used(p, k) != want)
			return false;
	return true;
}

/* The first page from i on that is used (want true) or free: NPG if none */
static uint32_t next_page(struct famfs_pagealloc *pa,
			  const struct famfs_punit *p, uint32_t i, bool want)
{
	while (i < NPG) {
		uint64_t w = want ? p->used[i / 64] : ~p->used[i / 64];

		pa->work++;
		w &= ~0ULL << (i % 64);
		if (w)
			return (i & ~63U) + (uint32_t)__builtin_ctzll(w);
		i = (i & ~63U) + 64;
	}
	return NPG;
}

/* The longest free run of the unit */
static uint16_t longest_run(struct famfs_pagealloc *pa,
			    const struct famfs_punit *p)
{
	uint64_t best = 0, cur = 0;

	for (unsigned w = 0; w < FAMFS_PA_WORDS; w++) {
		uint64_t f = ~p->used[w], in = 0;

		pa->work++;
		if (f == ~0ULL) {
			cur += 64;
			continue;
		}
		if (cur + (uint64_t)__builtin_ctzll(~f) > best)
			best = cur + (uint64_t)__builtin_ctzll(~f);
		for (uint64_t x = f; x; x &= x >> 1)
			in++;
		if (in > best)
			best = in;
		cur = (uint64_t)__builtin_clzll(~f);
	}
	return (uint16_t)(cur > best ? cur : best);
}

/* Where n pages go in the unit: the start of its shortest free run that
 * holds them (the first such), so its longer runs stay whole */
static uint32_t fit_in_unit(struct famfs_pagealloc *pa,
			    const struct famfs_punit *p, uint32_t n)
{
	uint32_t i = 0, at = NPG, best = NPG + 1;

	while (i < NPG) {
		uint32_t s = next_page(pa, p, i, false), e;

		if (s == NPG)
			break;
		e = next_page(pa, p, s, true);
		if (e - s >= n && e - s < best) {
			best = e - s;
			at = s;
			if (best == n)
				break;
		}
		i = e;
	}
	return at;
}

/* ---- buckets by longest free run ---------------------------------------- */
static void bucket_add(struct famfs_pagealloc *pa, uint32_t slot)
{
	struct famfs_punit *p = &pa->pu[slot];
	uint32_t r = p->run;

	if (!r) {
		pa->nfull++;
		return;
	}
	p->prev = NONE;
	p->next = pa->head[r];
	if (p->next != NONE)
		pa->pu[p->next].prev = slot;
	pa->head[r] = slot;
	pa->nonempty[r / 64] |= 1ULL << (r % 64);
	pa->work++;
}

static void bucket_del(struct famfs_pagealloc *pa, uint32_t slot)
{
	struct famfs_punit *p = &pa->pu[slot];
	uint32_t r = p->run;

	if (!r) {
		pa->nfull--;
		return;
	}
	if (p->prev != NONE)
		pa->pu[p->prev].next = p->next;
	else
		pa->head[r] = p->next;
	if (p->next != NONE)
		pa->pu[p->next].prev = p->prev;
	if (pa->head[r] == NONE)
		pa->nonempty[r / 64] &= ~(1ULL << (r % 64));
	pa->work++;
}

/* The first non-empty bucket from r on (0: none) */
static uint32_t bucket_find(struct famfs_pagealloc *pa, uint32_t r)
{
	for (uint32_t w = r / 64; w < FAMFS_PA_WORDS; w++) {
		uint64_t m = pa->nonempty[w];

		pa->work++;
		if (w == r / 64)
			m &= ~0ULL << (r % 64);
		if (m)
			return w * 64 + (uint32_t)__builtin_ctzll(m);
	}
	return 0;
}

static uint32_t bucket_top(const struct famfs_pagealloc *pa)
{
	for (unsigned w = FAMFS_PA_WORDS; w-- > 0;)
		if (pa->nonempty[w])
			return w * 64 + 63 - (uint32_t)__builtin_clzll(pa->nonempty[w]);
	return 0;
}

/* ---- units by number: hash table, slots --------------------------------- */
static uint32_t home(const struct famfs_pagealloc *pa, uint64_t unit)
{
	return (uint32_t)((unit * 0x9E3779B97F4A7C15ULL) >>
			  (64 - __builtin_ctz(pa->hcap)));
}

/* The hash position of unit, or of the empty place where it would go */
static uint32_t hash_pos(const struct famfs_pagealloc *pa, uint64_t unit,
			 uint64_t *work)
{
	uint32_t i = home(pa, unit);

	for (;;) {
		if (work)
			(*work)++;
		if (!pa->hash[i] || pa->pu[pa->hash[i] - 1].unit == unit)
			return i;
		i = (i + 1) & (pa->hcap - 1);
	}
}

static uint32_t lookup(const struct famfs_pagealloc *pa, uint64_t unit,
		       uint64_t *work)
{
	uint32_t i = hash_pos(pa, unit, work);

	return pa->hash[i] ? pa->hash[i] - 1 : NONE;
}

/* Remove hash position i; the entries after it move back (linear probing
 * without tombstones) */
static void hash_del(struct famfs_pagealloc *pa, uint32_t i)
{
	uint32_t m = pa->hcap - 1, j = i;

	for (;;) {
		uint32_t k;

		j = (j + 1) & m;
		if (!pa->hash[j])
			break;
		pa->work++;
		k = home(pa, pa->pu[pa->hash[j] - 1].unit);
		/* j's entry may fill i if its home is not in (i, j] */
		if ((i <= j) ? (k <= i || k > j) : (k <= i && k > j)) {
			pa->hash[i] = pa->hash[j];
			i = j;
		}
	}
	pa->hash[i] = 0;
}

/* Room for one more shared unit (a slot and a place in the hash table at
 * most half full), before anything changes: 0 or -ENOMEM.  Growing is
 * amortized over the units that filled it. */
static int reserve(struct famfs_pagealloc *pa, char *reason)
{
	if (pa->free_slot == NONE && pa->nslots == pa->cap) {
		uint32_t cap = pa->cap * 2;
		struct famfs_punit *pu = realloc(pa->pu, cap * sizeof(*pu));

		if (!pu || cap < pa->cap)
			goto nomem;
		pa->pu = pu;
		pa->cap = cap;
	}
	if ((pa->nshared + 1) * 2 > pa->hcap) {
		uint32_t ocap = pa->hcap, *old = pa->hash;

		pa->hash = calloc((size_t)ocap * 2, sizeof(*pa->hash));
		if (!pa->hash) {
			pa->hash = old;
			goto nomem;
		}
		pa->hcap = ocap * 2;
		for (uint32_t i = 0; i < ocap; i++)
			if (old[i])
				pa->hash[hash_pos(pa, pa->pu[old[i] - 1].unit,
						  &pa->work)] = old[i];
		free(old);
	}
	return 0;
nomem:
	famfs_err("out of memory for the page allocator's %llu shared units",
		  (unsigned long long)pa->nshared + 1);
	say(reason, "out of memory for %llu shared units",
	    (unsigned long long)pa->nshared + 1);
	return -ENOMEM;
}

/* A new shared unit, all pages free, in no bucket (reserve() first) */
static uint32_t unit_new(struct famfs_pagealloc *pa, uint64_t unit)
{
	uint32_t slot;
	struct famfs_punit *p;

	if (pa->free_slot != NONE) {
		slot = pa->free_slot;
		pa->free_slot = pa->pu[slot].next;
	} else {
		slot = pa->nslots++;
	}
	p = &pa->pu[slot];
	memset(p, 0, sizeof(*p));
	p->unit = unit;
	p->nfree = (uint16_t)NPG;
	p->run = 0;
	p->prev = p->next = NONE;
	pa->hash[hash_pos(pa, unit, &pa->work)] = slot + 1;
	pa->nshared++;
	pa->nfull++;		/* in no bucket: as a full one (run 0) */
	pa->free_pages += NPG;
	return slot;
}

/* Pages [i, i + n) of slot's unit taken (used) or given back; its bucket
 * follows.  An empty unit goes back to the unit allocator. */
static void unit_change(struct famfs_pagealloc *pa, uint32_t slot, uint32_t i,
			uint32_t n, bool used)
{
	struct famfs_punit *p = &pa->pu[slot];

	bucket_del(pa, slot);
	pages_set(p, i, n, used);
	pa->work += FAMFS_PA_WORDS;
	p->nfree = (uint16_t)(used ? p->nfree - n : p->nfree + n);
	pa->free_pages = used ? pa->free_pages - n : pa->free_pages + n;
	if (p->nfree == NPG) {
		hash_del(pa, hash_pos(pa, p->unit, &pa->work));
		famfs_bitmap_give(pa->b, p->unit, 1);
		pa->nshared--;
		pa->free_pages -= NPG;
		p->next = pa->free_slot;
		pa->free_slot = slot;
		return;
	}
	p->run = p->nfree ? longest_run(pa, p) : 0;
	bucket_add(pa, slot);
}

/* ---- the interface ------------------------------------------------------ */
int famfs_pagealloc_init(struct famfs_pagealloc *pa, struct famfs_bitmap *b,
			 char *reason)
{
	memset(pa, 0, sizeof(*pa));
	pa->b = b;
	pa->free_slot = NONE;
	for (uint32_t r = 0; r < NPG; r++)
		pa->head[r] = NONE;
	if (b->nunits && !famfs_bitmap_test(b, 0)) {
		say(reason, "unit 0 is free in the unit allocator: page extents may not sit in a device's first 2 MiB");
		return -EINVAL;
	}
	pa->cap = 16;
	pa->hcap = 64;
	pa->pu = calloc(pa->cap, sizeof(*pa->pu));
	pa->hash = calloc(pa->hcap, sizeof(*pa->hash));
	if (!pa->pu || !pa->hash) {
		famfs_pagealloc_free(pa);
		famfs_err("out of memory for the page allocator");
		say(reason, "out of memory for the page allocator");
		return -ENOMEM;
	}
	return 0;
}

void famfs_pagealloc_free(struct famfs_pagealloc *pa)
{
	free(pa->pu);
	free(pa->hash);
	pa->pu = NULL;
	pa->hash = NULL;
	pa->cap = pa->hcap = pa->nslots = 0;
}

int famfs_pagealloc_take(struct famfs_pagealloc *pa, uint32_t npages,
			 uint64_t *off, char *reason)
{
	uint32_t r, slot, at;
	uint64_t unit;
	int rc;

	if (!npages || npages >= NPG) {
		say(reason, "a run of %u pages: small files take 1..%u pages (a whole 2 MiB unit is the unit allocator's)",
		    npages, NPG - 1);
		return -EINVAL;
	}
	r = bucket_find(pa, npages);
	if (r) {
		slot = pa->head[r];
	} else {
		rc = reserve(pa, reason);
		if (rc)
			return rc;
		rc = famfs_bitmap_take(pa->b, 1, &unit);
		if (rc) {
			say(reason, "no shared unit has a free run of %u pages (%llu shared units, %llu pages free in them, longest run %u) and no free 2 MiB unit is left",
			    npages, (unsigned long long)pa->nshared,
			    (unsigned long long)pa->free_pages,
			    bucket_top(pa));
			return -ENOSPC;
		}
		slot = unit_new(pa, unit);
	}
	at = fit_in_unit(pa, &pa->pu[slot], npages);
	unit_change(pa, slot, at, npages, true);
	*off = pa->pu[slot].unit * UNIT + (uint64_t)at * PG;
	return 0;
}

/* A page extent's unit and pages, checked: 0 or -EINVAL */
static int extent_of(const struct famfs_pagealloc *pa, uint64_t off,
		     uint64_t len, uint64_t *unit, uint32_t *i, uint32_t *n,
		     char *reason)
{
	if (!len || off % PG || len % PG) {
		say(reason, "page extent at %llu of %llu bytes: not whole 4 KiB pages",
		    (unsigned long long)off, (unsigned long long)len);
		return -EINVAL;
	}
	*unit = off / UNIT;
	if (len > UNIT || (off + len - 1) / UNIT != *unit) {
		say(reason, "page extent at %llu of %llu bytes: not inside one 2 MiB unit",
		    (unsigned long long)off, (unsigned long long)len);
		return -EINVAL;
	}
	if (*unit >= pa->b->nunits) {
		say(reason, "page extent at %llu: past the device's %llu units",
		    (unsigned long long)off,
		    (unsigned long long)pa->b->nunits);
		return -EINVAL;
	}
	*i = (uint32_t)(off % UNIT / PG);
	*n = (uint32_t)(len / PG);
	return 0;
}

int famfs_pagealloc_give(struct famfs_pagealloc *pa, uint64_t off,
			 uint64_t len, char *reason)
{
	uint64_t unit;
	uint32_t i, n, slot;
	int rc = extent_of(pa, off, len, &unit, &i, &n, reason);

	if (rc)
		return rc;
	slot = lookup(pa, unit, &pa->work);
	if (slot == NONE) {
		say(reason, "page extent at %llu: unit %llu is not a shared unit",
		    (unsigned long long)off, (unsigned long long)unit);
		return -EINVAL;
	}
	if (!pages_all(&pa->pu[slot], i, n, true)) {
		say(reason, "page extent at %llu of %u pages: a page is not in use",
		    (unsigned long long)off, n);
		return -EINVAL;
	}
	if (pa->pu[slot].sealed)	/* the large file's as well */
		return 0;
	unit_change(pa, slot, i, n, false);
	return 0;
}

int famfs_pagealloc_mark(struct famfs_pagealloc *pa, uint64_t off,
			 uint64_t len, char *reason)
{
	uint64_t unit;
	uint32_t i, n, slot;
	int rc = extent_of(pa, off, len, &unit, &i, &n, reason);

	if (rc)
		return rc;
	if (!unit) {
		say(reason, "page extent at %llu: page extents may not sit in a device's first 2 MiB",
		    (unsigned long long)off);
		return -EINVAL;
	}
	slot = lookup(pa, unit, &pa->work);
	if (slot != NONE && !pages_all(&pa->pu[slot], i, n, false)) {
		say(reason, "page extent at %llu of %u pages: a page of it is in use by another small file",
		    (unsigned long long)off, n);
		return -EEXIST;
	}
	/* A unit not shared yet must be free: one the unit allocator has in
	 * use is the log's or a large file's (famfs_bitmap_mark marks no
	 * unit for a page extent), and giving the pages back would free it */
	if (slot == NONE && famfs_bitmap_test(pa->b, unit)) {
		say(reason, "page extent at %llu: its 2 MiB unit %llu is in use by the superblock, the log or a file of whole 2 MiB units",
		    (unsigned long long)off, (unsigned long long)unit);
		return -EEXIST;
	}
	if (slot == NONE) {
		rc = reserve(pa, reason);
		if (rc)
			return rc;
		famfs_bitmap_set(pa->b, unit);
		slot = unit_new(pa, unit);
	}
	unit_change(pa, slot, i, n, true);
	return 0;
}

/* Unit's free pages all used, for good: in no bucket, never empty (pages
 * given back stay used) */
static bool seal(struct famfs_pagealloc *pa, uint32_t slot)
{
	struct famfs_punit *p = &pa->pu[slot];
	bool was = p->sealed;

	p->sealed = 1;
	if (!p->nfree)
		return !was;
	bucket_del(pa, slot);
	for (unsigned w = 0; w < FAMFS_PA_WORDS; w++)
		p->used[w] = ~0ULL;
	pa->work += FAMFS_PA_WORDS;
	pa->free_pages -= p->nfree;
	p->nfree = 0;
	p->run = 0;
	bucket_add(pa, slot);
	return true;
}

uint64_t famfs_pagealloc_seal_range(struct famfs_pagealloc *pa, uint64_t off,
				    uint64_t len)
{
	uint64_t first, last, n = 0;

	if (!pa->hash || !pa->nshared || !len || off + len < off)
		return 0;
	first = off / UNIT;
	last = (off + len - 1) / UNIT;
	if (last - first < pa->nslots) {
		for (uint64_t u = first; u <= last; u++) {
			uint32_t slot = lookup(pa, u, &pa->work);

			if (slot != NONE && seal(pa, slot))
				n++;
		}
		return n;
	}
	/* a range longer than the slots: the shared units in it */
	for (uint32_t slot = 0; slot < pa->nslots; slot++) {
		uint64_t u = pa->pu[slot].unit;

		pa->work++;
		if (u >= first && u <= last &&
		    lookup(pa, u, &pa->work) == slot && seal(pa, slot))
			n++;
	}
	return n;
}

bool famfs_pagealloc_test(const struct famfs_pagealloc *pa, uint64_t off)
{
	uint32_t slot = pa->hash ? lookup(pa, off / UNIT, NULL) : NONE;

	return slot != NONE &&
	       page_used(&pa->pu[slot], (uint32_t)(off % UNIT / PG));
}

bool famfs_pagealloc_shared(const struct famfs_pagealloc *pa, uint64_t unit)
{
	return pa->hash && lookup(pa, unit, NULL) != NONE;
}

void famfs_pagealloc_stats(const struct famfs_pagealloc *pa,
			   struct famfs_pagealloc_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->shared = pa->nshared;
	st->partial = pa->nshared - pa->nfull;
	st->pages_free = pa->free_pages;
	st->pages_used = pa->nshared * NPG - pa->free_pages;
	st->longest = bucket_top(pa);
}
