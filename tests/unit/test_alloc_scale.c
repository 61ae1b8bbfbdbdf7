// SPDX-License-Identifier: GPL-2.0
/*
 * Allocator cost against device size and fullness (issue 17), counted, not
 * timed: struct famfs_bitmap's work counter (bitmap words and index nodes
 * looked at).  A 1 GiB and a 16 TiB device (emulated: only the superblock
 * and the bitmap exist), empty and 95 % full with the free space scattered
 * in single units, a few longer runs only near the end.  And the first-fit
 * answers of the index against a plain bit-at-a-time reference.
 *
 * What is counted is one allocation after the first: the first one of a
 * process builds the search index over the whole bitmap, O(device) (7.0 M
 * instructions at 16 TiB, 1.1 k at 1 GiB), and is left out here on
 * purpose.  The work counter grows with the index depth (5 nodes at 1 GiB,
 * 19 at 16 TiB): the 2x goal of issue 17 is judged in instructions, by
 * scripts/alloc-icount.sh (callgrind), where one allocation on the 95 %
 * full, fragmented device costs 1.5-1.7x at 16 TiB what it costs at 1 GiB
 * (an empty device: 2.4x, the update of every level up to the root).
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
 * neighbours free), and three free runs of 8 units in the last 1 % */
static void fragment(struct famfs_bitmap *b)
{
	uint64_t s = 42;

	for (uint64_t u = 0; u < b->nunits; u++)
		famfs_bitmap_set(b, u);
	for (uint64_t u = 8; u + 1 < b->nunits * 99 / 100; u += 2)
		if (rnd(&s) % 10 == 0)
			famfs_bitmap_clear(b, u);
	for (unsigned r = 0; r < 3; r++) {
		uint64_t at = b->nunits - 1 - 8 * (2 * r + 1) - 8;

		for (unsigned k = 0; k < 8; k++)
			famfs_bitmap_clear(b, at + k);
	}
}

/* the work of allocating 1, 2 and 8 units (the 2 and 8 only fit at the
 * end of a fragmented device) */
static void cost(uint64_t size, bool full, uint64_t w[3])
{
	static const uint64_t want[3] = { 1, 2, 8 };
	struct famfs_superblock sb;
	struct famfs_bitmap b;
	struct famfs_log_simple_ext x;

	sb_of(&sb, size);
	assert_int_equal(famfs_bitmap_init(&b, &sb), 0);
	if (full)
		fragment(&b);
	/* a first allocation may set up what the search needs: not counted */
	assert_int_equal(famfs_alloc(&b, UNIT, &x), 0);
	for (int i = 0; i < 3; i++) {
		uint64_t before = b.work;

		assert_int_equal(famfs_alloc(&b, want[i] * UNIT, &x), 0);
		w[i] = b.work - before;
	}
	famfs_bitmap_free(&b);
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
		print_message("# alloc %d: work 1 GiB %llu / %llu (empty / 95%% full), 16 TiB %llu / %llu\n",
			      i, (unsigned long long)small[i],
			      (unsigned long long)sfull[i],
			      (unsigned long long)big[i],
			      (unsigned long long)bfull[i]);
		/* fullness: within 2x at each size */
		assert_true(sfull[i] <= 2 * small[i] + 2);
		assert_true(bfull[i] <= 2 * big[i] + 2);
		/* size: 16384 times the device, at most a logarithmic
		 * factor: the depth of a binary index over 64-unit words
		 * (3 levels at 1 GiB, 17 at 16 TiB), never the units */
		assert_true(bfull[i] <= 8 * (sfull[i] + 8));
		assert_true(bfull[i] < 200);
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
		cmocka_unit_test(test_matches_reference),
	};

	famfs_quiet = 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
