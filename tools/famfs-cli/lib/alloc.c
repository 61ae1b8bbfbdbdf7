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

void famfs_bitmap_clear(struct famfs_bitmap *b, uint64_t u)
{
	if (famfs_bitmap_test(b, u)) {
		b->bits[u / 64] &= ~(1ULL << (u % 64));
		b->nfree++;
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

void famfs_bitmap_mark(struct famfs_bitmap *b, const struct famfs_log_entry *e)
{
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	unsigned nr = famfs_entry_ranges(e, r);	/* extents or strips */

	for (unsigned i = 0; i < nr; i++) {
		uint64_t u = r[i].offset / UNIT;
		uint64_t n = r[i].len / UNIT;

		for (uint64_t k = 0; k < n && u + k < b->nunits; k++)
			famfs_bitmap_set(b, u + k);
	}
}

struct mark_ctx {
	struct famfs_bitmap *b;
	const struct famfs_superblock *sb;
};

static int mark_entry(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		      bool ok, const char *reason)
{
	struct mark_ctx *c = arg;

	(void)reason;
	/* R3: a refused entry whose extents parse keeps them */
	if (ok || !famfs_entry_owned(e, idx, c->sb, NULL))
		famfs_bitmap_mark(c->b, e);
	return 0;
}

int famfs_bitmap_build(struct famfs_fs *fs, struct famfs_bitmap *b)
{
	struct mark_ctx c = { b, fs->sb };
	int rc = famfs_bitmap_init(b, fs->sb);

	if (rc)
		return rc;
	/* an entry that cannot be parsed owns nothing we could mark (the
	 * master refuses to allocate then, ops.c); entries past next_index
	 * keep their memory (R4) */
	rc = famfs_log_walk(fs, mark_entry, &c);
	if (!rc)
		rc = famfs_log_walk_past(fs, mark_entry, &c);
	if (rc)
		famfs_bitmap_free(b);
	return rc;
}

/* First fit of want units: marks them used, returns the first */
static int alloc_run(struct famfs_bitmap *b, uint64_t want, uint64_t *first)
{
	uint64_t run = 0;

	for (uint64_t u = 0; u < b->nunits; u++) {
		if (famfs_bitmap_test(b, u)) {
			run = 0;
			continue;
		}
		if (++run == want) {
			*first = u + 1 - want;
			for (uint64_t k = *first; k <= u; k++)
				famfs_bitmap_set(b, k);
			return 0;
		}
	}
	return -ENOSPC;
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

/* Calls fn for every maximal free run, in address order */
static void for_each_run(const struct famfs_bitmap *b,
			 void (*fn)(void *arg, struct run r), void *arg)
{
	uint64_t start = 0, len = 0;

	for (uint64_t u = 0; u < b->nunits; u++) {
		if (!famfs_bitmap_test(b, u)) {
			if (!len++)
				start = u;
			continue;
		}
		if (len)
			fn(arg, (struct run){ start, len });
		len = 0;
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
		for (uint64_t u = 0; u < top.r[i].len; u++)
			famfs_bitmap_set(b, top.r[i].first + u);
		ext[i].offset = htole64(top.r[i].first * UNIT);
		ext[i].len = htole64(top.r[i].len * UNIT);
	}
	/* in device order: every length is whole units, any order is valid */
	qsort(ext, k, sizeof(*ext), cmp_ext);
	*next = k;
	return 0;
}

int famfs_alloc_strips(struct famfs_bitmap *b, uint64_t size, uint32_t nstrips,
		       uint64_t chunk, struct famfs_log_interleave_ext *ie)
{
	uint64_t stripe, nstripes, slen, first[FAMFS_LOG_MAX_STRIPS];

	if (!nstrips || nstrips > FAMFS_LOG_MAX_STRIPS || !chunk ||
	    chunk % UNIT)
		return -EINVAL;
	/* a stripe (one chunk on every strip) too big to count: no room */
	if (__builtin_mul_overflow(chunk, (uint64_t)nstrips, &stripe))
		return -ENOSPC;
	nstripes = size / stripe + (size % stripe != 0);
	if (!nstripes)
		nstripes = 1;
	if (__builtin_mul_overflow(nstripes, chunk, &slen))
		return -ENOSPC;
	for (uint32_t i = 0; i < nstrips; i++) {
		if (alloc_run(b, slen / UNIT, &first[i])) {
			/* all or nothing: give back the strips taken so far */
			for (uint32_t j = 0; j < i; j++)
				for (uint64_t k = 0; k < slen / UNIT; k++)
					famfs_bitmap_clear(b, first[j] + k);
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
