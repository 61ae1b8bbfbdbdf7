// SPDX-License-Identifier: GPL-2.0
/* Allocator: first fit in 2 MiB units, full device, rebuild from the log. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th.h"

/* 64 MiB device, 2 MiB log: units 0 (sb) and 1 (log) reserved, 2..31 free */

static void test_first_fit(void **state)
{
	struct th *t = *state;
	struct famfs_bitmap b;
	struct famfs_log_simple_ext x;

	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	assert_int_equal(b.nunits, 32);
	assert_int_equal(b.nfree, 30);
	assert_int_equal(famfs_alloc(&b, 1, &x), 0);
	assert_int_equal(le64toh(x.offset), 4 * MiB);
	assert_int_equal(le64toh(x.len), 2 * MiB);
	assert_int_equal(famfs_alloc(&b, 2 * MiB + 1, &x), 0);
	assert_int_equal(le64toh(x.offset), 6 * MiB);
	assert_int_equal(le64toh(x.len), 4 * MiB);
	assert_int_equal(famfs_alloc(&b, 0, &x), 0);	/* empty file: one unit */
	assert_int_equal(le64toh(x.len), 2 * MiB);
	assert_int_equal(b.nfree, 26);
	famfs_bitmap_free(&b);
}

static void test_first_fit_hole(void **state)
{
	struct th *t = *state;
	struct famfs_bitmap b;
	struct famfs_log_simple_ext x;

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	th_append_file(t, "b", 8 * MiB, 2 * MiB, 1);	/* hole at 6 MiB */
	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	assert_int_equal(famfs_alloc(&b, 4 * MiB, &x), 0);	/* too big for the hole */
	assert_int_equal(le64toh(x.offset), 10 * MiB);
	assert_int_equal(famfs_alloc(&b, 2 * MiB, &x), 0);	/* fits in it */
	assert_int_equal(le64toh(x.offset), 6 * MiB);
	famfs_bitmap_free(&b);
}

static void test_full(void **state)
{
	struct th *t = *state;
	struct famfs_bitmap b;
	struct famfs_log_simple_ext x;

	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	assert_int_equal(famfs_alloc(&b, 61 * MiB, &x), -ENOSPC);
	assert_int_equal(famfs_alloc(&b, 60 * MiB, &x), 0);	/* exactly all */
	assert_int_equal(b.nfree, 0);
	assert_int_equal(famfs_alloc(&b, 1, &x), -ENOSPC);
	famfs_bitmap_free(&b);
}

static void test_rebuild_from_log(void **state)
{
	struct th *t = *state;
	struct famfs_bitmap b;
	struct famfs_log_simple_ext x;

	th_append_file(t, "a", 4 * MiB, 4 * MiB, 1);
	th_append_dir(t, "d");
	th_append_file(t, "d/b", 20 * MiB, 2 * MiB, 1);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	assert_int_equal(b.nfree, 30 - 3);
	for (uint64_t u = 0; u < b.nunits; u++)
		assert_int_equal(famfs_bitmap_test(&b, u),
				 u < 4 || u == 10);
	assert_int_equal(famfs_alloc(&b, 12 * MiB, &x), 0);
	assert_int_equal(le64toh(x.offset), 8 * MiB);
	famfs_bitmap_free(&b);
}

static void test_file_create_device_full(void **state)
{
	struct th *t = *state;
	uint64_t before;
	int fd;

	fd = famfs_file_create(&t->fs, "big", 50 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	before = famfs_log_next(t->fs.log);
	assert_int_equal(famfs_file_create(&t->fs, "more", 12 * MiB, 0644, 0, 0),
			 -ENOSPC);
	assert_int_equal(famfs_log_next(t->fs.log), before);	/* log unchanged */
	assert_false(th_exists(t, "more", false));		/* no stray file */
	fd = famfs_file_create(&t->fs, "fits", 10 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
}

/* A bitmap with every unit used but the holes [first, first + len) */
static void holes(struct famfs_bitmap *b, const uint64_t (*h)[2], unsigned n)
{
	for (uint64_t u = 0; u < b->nunits; u++)
		famfs_bitmap_set(b, u);
	for (unsigned i = 0; i < n; i++)
		for (uint64_t k = 0; k < h[i][1]; k++)
			famfs_bitmap_clear(b, h[i][0] + k);
}

static void ext_is(const struct famfs_log_simple_ext *x, uint64_t unit,
		   uint64_t units)
{
	assert_int_equal(le64toh(x->offset), unit * 2 * MiB);
	assert_int_equal(le64toh(x->len), units * 2 * MiB);
}

static void test_fragmented(void **state)
{
	static const uint64_t h[][2] = { { 3, 1 }, { 5, 2 }, { 9, 3 }, { 20, 1 } };
	struct famfs_log_simple_ext x[FAMFS_LOG_MAX_SIMPLE_EXT];
	struct th *t = *state;
	struct famfs_bitmap b;
	unsigned n;

	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	/* a run that holds it: one extent, first fit, as before */
	holes(&b, h, 4);
	assert_int_equal(famfs_alloc_extents(&b, 5 * MiB, 16, x, &n), 0);
	assert_int_equal(n, 1);
	ext_is(&x[0], 9, 3);
	/* 4 units: the longest run (3) whole, the rest from the shortest
	 * run that holds it (unit 3, not 20: lower address; not 5-6) */
	holes(&b, h, 4);
	assert_int_equal(famfs_alloc_extents(&b, 7 * MiB, 16, x, &n), 0);
	assert_int_equal(n, 2);
	ext_is(&x[0], 3, 1);		/* device order */
	ext_is(&x[1], 9, 3);
	assert_int_equal(b.nfree, 3);
	for (uint64_t u = 0; u < b.nunits; u++)
		assert_int_equal(famfs_bitmap_test(&b, u),
				 !(u == 5 || u == 6 || u == 20));
	/* all 7 free units: 4 extents */
	holes(&b, h, 4);
	assert_int_equal(famfs_alloc_extents(&b, 14 * MiB, 16, x, &n), 0);
	assert_int_equal(n, 4);
	ext_is(&x[0], 3, 1);
	ext_is(&x[1], 5, 2);
	ext_is(&x[2], 9, 3);
	ext_is(&x[3], 20, 1);
	assert_int_equal(b.nfree, 0);
	/* 8 units > 7 free: ENOSPC, bitmap as it was */
	holes(&b, h, 4);
	assert_int_equal(famfs_alloc_extents(&b, 14 * MiB + 1, 16, x, &n), -ENOSPC);
	assert_int_equal(n, 0);
	assert_int_equal(b.nfree, 7);
	/* the 2 longest (3 + 2) are too small for 6 units */
	assert_int_equal(famfs_alloc_extents(&b, 12 * MiB, 2, x, &n), -ENOSPC);
	assert_int_equal(b.nfree, 7);
	assert_int_equal(famfs_alloc_extents(&b, 12 * MiB, 3, x, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(famfs_alloc_extents(&b, 1, 0, x, &n), -EINVAL);
	assert_int_equal(famfs_alloc_extents(&b, 1, 17, x, &n), -EINVAL);
	famfs_bitmap_free(&b);
}

/* 17 one-unit holes: 16 extents fit, 17 units do not */
static void test_sixteen_extents(void **state)
{
	struct famfs_log_simple_ext x[FAMFS_LOG_MAX_SIMPLE_EXT];
	uint64_t h[17][2];
	struct th *t = *state;
	struct famfs_bitmap b;
	unsigned n;

	th_free(t);
	*state = t = th_new(128 * MiB, 2 * MiB);
	for (unsigned i = 0; i < 17; i++) {
		h[i][0] = 3 + 2 * i;
		h[i][1] = 1;
	}
	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	holes(&b, (const uint64_t (*)[2])h, 17);
	assert_int_equal(famfs_alloc_extents(&b, 34 * MiB, 16, x, &n), -ENOSPC);
	assert_int_equal(b.nfree, 17);
	assert_int_equal(famfs_alloc_extents(&b, 32 * MiB, 16, x, &n), 0);
	assert_int_equal(n, 16);
	for (unsigned i = 0; i < 16; i++)
		ext_is(&x[i], 3 + 2 * i, 1);	/* the first 16 of equals */
	assert_int_equal(b.nfree, 1);
	famfs_bitmap_free(&b);
}

/* Randomized: whatever is chosen is free, apart, large enough, minimal in
 * count (no fewer runs could hold it) and marked used. */
static void test_fragmented_random(void **state)
{
	struct famfs_log_simple_ext x[FAMFS_LOG_MAX_SIMPLE_EXT];
	struct th *t = *state;
	struct famfs_bitmap b, before;
	unsigned seed = 20261203;

	th_free(t);
	*state = t = th_new(512 * MiB, 2 * MiB);
	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	before = b;
	before.bits = calloc((b.nunits + 63) / 64 + 1, sizeof(uint64_t));
	assert_non_null(before.bits);
	print_message("alloc random seed %u\n", seed);
	srand(seed);
	for (int it = 0; it < 2000; it++) {
		uint64_t want = 1 + (uint64_t)rand() % 80, got = 0, runs[300];
		unsigned n, max = 1 + (unsigned)rand() % 16, nr = 0, need = 0;
		uint64_t len = 0, sum = 0, nfree0;
		int rc;

		for (uint64_t u = 2; u < b.nunits; u++)	/* 0, 1: sb, log */
			(rand() % 3 ? famfs_bitmap_set : famfs_bitmap_clear)(&b, u);
		memcpy(before.bits, b.bits, ((b.nunits + 63) / 64 + 1) * 8);
		nfree0 = b.nfree;
		/* reference: free runs, longest first */
		for (uint64_t u = 0; u <= b.nunits; u++) {
			if (u < b.nunits && !famfs_bitmap_test(&b, u)) {
				len++;
				continue;
			}
			if (len)
				runs[nr++] = len;
			len = 0;
		}
		for (unsigned i = 0; i < nr; i++)
			for (unsigned j = i + 1; j < nr; j++)
				if (runs[j] > runs[i]) {
					uint64_t tmp = runs[i];

					runs[i] = runs[j];
					runs[j] = tmp;
				}
		while (need < nr && sum < want)
			sum += runs[need++];
		rc = famfs_alloc_extents(&b, want * 2 * MiB - (uint64_t)rand() % 1000,
					 max, x, &n);
		if (sum < want || need > max) {
			assert_int_equal(rc, -ENOSPC);
			assert_int_equal(b.nfree, nfree0);
			assert_memory_equal(b.bits, before.bits,
					    ((b.nunits + 63) / 64 + 1) * 8);
			continue;
		}
		assert_int_equal(rc, 0);
		assert_int_equal(n, need);	/* the fewest extents */
		for (unsigned i = 0; i < n; i++) {
			uint64_t u = le64toh(x[i].offset) / (2 * MiB);
			uint64_t l = le64toh(x[i].len) / (2 * MiB);

			assert_true(l > 0);
			assert_true(i == 0 || le64toh(x[i].offset) >
					       le64toh(x[i - 1].offset));
			for (uint64_t k = u; k < u + l; k++) {
				assert_false(famfs_bitmap_test(&before, k));
				assert_true(famfs_bitmap_test(&b, k));
				famfs_bitmap_set(&before, k);	/* no reuse */
			}
			got += l;
		}
		assert_int_equal(got, want);
		assert_int_equal(b.nfree + want, nfree0);
	}
	free(before.bits);
	famfs_bitmap_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_first_fit, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_first_fit_hole, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_full, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rebuild_from_log, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_file_create_device_full, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_fragmented, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_sixteen_extents, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_fragmented_random, th_setup, th_teardown),
	};

	return cmocka_run_group_tests_name("alloc", tests, NULL, NULL);
}
