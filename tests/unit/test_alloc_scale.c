// SPDX-License-Identifier: GPL-2.0
/*
 * Allocator cost against device size and fullness (issue 17), counted, not
 * timed: struct famfs_bitmap's work counter (bitmap words and index nodes
 * looked at or rewritten, the index's upkeep included).  A 1 GiB and a
 * 16 TiB device (emulated: only the superblock and the bitmap exist), empty
 * and 95 % full with the free space scattered in single units, a few longer
 * runs only near the end.  And the first-fit answers of the index against a
 * plain bit-at-a-time reference.
 *
 * What is counted: NALLOC allocations after the first one of a process,
 * with the index built (as after a search that needed it) and brought up
 * to date after them (upkeep the allocator defers to its next search), per
 * allocation.  Goal: within 2x between 1 GiB and 16 TiB where the first
 * free unit holds the request (an empty device; one unit on the
 * fragmented one); where the request only fits far away (2 or 8
 * units on the fragmented device) the search goes down the index, whose
 * depth grows with log(device): bounded here by that depth, and judged in
 * instructions (where it is within 2x) by scripts/alloc-icount.sh.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

#define GiB (1ULL << 30)
#define TiB (1ULL << 40)
#define UNIT FAMFS_ALLOC_UNIT

static void sb_of(struct famfs_superblock *sb, uint64_t size)
{
	uint8_t u[16] = { 1, 2, 3, 4 };

	famfs_sb_init(sb, u, u, size, 8 * MiB);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* 95 % full: every unit used but a scattered 5 % (single units: no two
 * neighbours free), and eight free runs of 8 units near the end (as
 * tests/unit/alloc_icount.c) */
static void fragment(struct famfs_bitmap *b)
{
	uint64_t s = 42;

	for (uint64_t u = 0; u < b->nunits; u++)
		famfs_bitmap_set(b, u);
	for (uint64_t u = 8; u + 1 < b->nunits * 99 / 100; u += 2)
		if (rnd(&s) % 10 == 0)
			famfs_bitmap_clear(b, u);
	for (unsigned r = 0; r < 8; r++) {
		uint64_t at = b->nunits - 1 - 8 * (2 * r + 1) - 8;

		for (unsigned k = 0; k < 8; k++)
			famfs_bitmap_clear(b, at + k);
	}
}

#define NALLOC 8

static const uint64_t want[3] = { 1, 2, 8 };

/* the work per allocation of 1, 2 and 8 units (the 2 and 8 only fit at
 * the end of a fragmented device), NALLOC of each on a device of its own */
static void cost(uint64_t size, bool full, uint64_t w[3])
{
	struct famfs_superblock sb;
	struct famfs_bitmap b;
	struct famfs_log_simple_ext x;

	sb_of(&sb, size);
	for (int i = 0; i < 3; i++) {
		uint64_t before;

		assert_int_equal(famfs_bitmap_init(&b, &sb), 0);
		if (full)
			fragment(&b);
		/* a first allocation, and the index: not counted */
		assert_int_equal(famfs_alloc(&b, UNIT, &x), 0);
		assert_int_equal(famfs_bitmap_index_sync(&b), 0);
		before = b.work;
		for (int k = 0; k < NALLOC; k++)
			assert_int_equal(famfs_alloc(&b, want[i] * UNIT, &x), 0);
		assert_int_equal(famfs_bitmap_index_sync(&b), 0);
		w[i] = (b.work - before + NALLOC - 1) / NALLOC;
		famfs_bitmap_free(&b);
	}
}

static void test_cost_independent_of_size(void **state)
{
	uint64_t small[3], big[3], sfull[3], bfull[3];

	(void)state;
	cost(1 * GiB, false, small);
	cost(16 * TiB, false, big);
	cost(1 * GiB, true, sfull);
	cost(16 * TiB, true, bfull);
	for (int i = 0; i < 3; i++) {
		print_message("# alloc of %d unit(s): work per allocation 1 GiB %llu / %llu (empty / 95%% full), 16 TiB %llu / %llu\n",
			      (int)want[i], (unsigned long long)small[i],
			      (unsigned long long)sfull[i],
			      (unsigned long long)big[i],
			      (unsigned long long)bfull[i]);
		/* an empty device: within 2x whatever the size */
		assert_true(big[i] <= 2 * small[i]);
		/* fragmented, 95 % full: the depth of a binary index over
		 * 64-unit words (3 levels at 1 GiB, 17 at 16 TiB) bounds it,
		 * never the units */
		assert_true(bfull[i] <= 8 * (sfull[i] + 8));
		assert_true(bfull[i] < 200);
	}
	/* one unit fits at the first free one: within 2x there too */
	assert_true(bfull[0] <= 2 * sfull[0]);
}

/* The first allocation of a process (a create in a new process): where the
 * first free unit holds it, it needs no index (whose building looks at
 * every word: 7 M instructions at 16 TiB) and looks at a word or two */
static void test_first_alloc_without_index(void **state)
{
	struct famfs_superblock sb;
	struct famfs_bitmap b;
	struct famfs_log_simple_ext x;

	(void)state;
	sb_of(&sb, 16 * TiB);
	for (int full = 0; full < 2; full++) {
		assert_int_equal(famfs_bitmap_init(&b, &sb), 0);
		if (full)
			fragment(&b);
		b.work = 0;
		assert_int_equal(famfs_alloc(&b, full ? UNIT : 8 * UNIT, &x), 0);
		print_message("# first allocation, 16 TiB %s: work %llu, index %s\n",
			      full ? "95% full" : "empty",
			      (unsigned long long)b.work,
			      b.tree ? "built" : "not built");
		assert_null(b.tree);
		assert_true(b.work <= 4);
		famfs_bitmap_free(&b);
	}
}

/* first fit, the plain way */
static int64_t ref_fit(const uint8_t *used, uint64_t n, uint64_t want)
{
	uint64_t run = 0;

	for (uint64_t u = 0; u < n; u++) {
		run = used[u] ? 0 : run + 1;
		if (run == want)
			return (int64_t)(u + 1 - want);
	}
	return -1;
}

static void test_matches_reference(void **state)
{
	struct famfs_superblock sb;
	struct famfs_bitmap b;
	uint64_t s = 7;

	(void)state;
	/* sizes around word and power-of-two boundaries */
	static const uint64_t units[] = { 70, 128, 129, 300, 1000, 4097 };

	for (unsigned k = 0; k < sizeof(units) / sizeof(units[0]); k++) {
		uint64_t n = units[k];
		uint8_t *used = calloc(n, 1);

		assert_non_null(used);
		sb_of(&sb, n * UNIT);
		assert_int_equal(famfs_bitmap_init(&b, &sb), 0);
		for (uint64_t u = 0; u < n; u++)
			used[u] = famfs_bitmap_test(&b, u);
		for (int op = 0; op < 3000; op++) {
			uint64_t r = rnd(&s);

			if (r % 3 == 0) {	/* free a random range */
				uint64_t a = rnd(&s) % n, l = rnd(&s) % 70;

				for (uint64_t u = a; u < a + l && u < n; u++) {
					if (u < 8 || !used[u])
						continue;
					famfs_bitmap_clear(&b, u);
					used[u] = 0;
				}
			} else {		/* allocate */
				uint64_t want = 1 + rnd(&s) % (r % 5 ? 4 : 150);
				struct famfs_log_simple_ext x;
				int64_t exp = ref_fit(used, n, want);
				int rc = famfs_alloc(&b, want * UNIT, &x);

				if (exp < 0) {
					assert_int_equal(rc, -ENOSPC);
					continue;
				}
				assert_int_equal(rc, 0);
				assert_int_equal(le64toh(x.offset), (uint64_t)exp * UNIT);
				for (uint64_t u = 0; u < want; u++)
					used[exp + u] = 1;
			}
			if (op % 100 == 0) {
				uint64_t nf = 0;

				for (uint64_t u = 0; u < n; u++) {
					assert_int_equal(famfs_bitmap_test(&b, u), used[u]);
					nf += !used[u];
				}
				assert_int_equal(b.nfree, nf);
			}
		}
		famfs_bitmap_free(&b);
		free(used);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cost_independent_of_size),
		cmocka_unit_test(test_first_alloc_without_index),
		cmocka_unit_test(test_matches_reference),
	};

	famfs_quiet = 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
