// SPDX-License-Identifier: GPL-2.0
/* Allocations of more than one run of the 2 MiB-unit bitmap (alloc.c):
 * a simple file in fragmented space, the fewest runs that hold it
 * (famfs_alloc_extents), and the strips of an interleaved layout
 * (famfs_alloc_strips), each run taken as alloc.c's first fit does. */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "space/space.h"

#define UNIT FAMFS_ALLOC_UNIT

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
		uint64_t f = famfs_bitmap_word_free(b, w);

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
	if (!famfs_bitmap_take(b, want, &first)) {
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
		famfs_bitmap_mark_range(b, top.r[i].first * UNIT,
					top.r[i].len * UNIT);
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

void famfs_strips_encode(struct famfs_log_interleave_ext *ie, uint32_t nstrips,
			 uint64_t chunk, uint64_t slen, const uint64_t *first)
{
	memset(ie, 0, sizeof(*ie));
	ie->nstrips = htole32(nstrips);
	ie->chunk_size = htole64(chunk);
	ie->strip_len = htole64(slen);
	for (uint32_t i = 0; i < nstrips; i++)
		ie->strip_off[i] = htole64(first[i] * UNIT);
}

int famfs_alloc_strips(struct famfs_bitmap *b, uint64_t size, uint32_t nstrips,
		       uint64_t chunk, struct famfs_log_interleave_ext *ie)
{
	uint64_t slen, first[FAMFS_LOG_MAX_STRIPS];
	int rc = famfs_strip_len(size, nstrips, chunk, &slen);

	if (rc)
		return rc;
	for (uint32_t i = 0; i < nstrips; i++) {
		if (famfs_bitmap_take(b, slen / UNIT, &first[i])) {
			/* all or nothing: give back the strips taken so far */
			for (uint32_t j = 0; j < i; j++)
				famfs_bitmap_give(b, first[j], slen / UNIT);
			return -ENOSPC;
		}
	}
	famfs_strips_encode(ie, nstrips, chunk, slen, first);
	return 0;
}
