// SPDX-License-Identifier: GPL-2.0
/* Allocator: first fit in 2 MiB units, full device, rebuild from the log. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_first_fit, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_first_fit_hole, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_full, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rebuild_from_log, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_file_create_device_full, th_setup, th_teardown),
	};

	return cmocka_run_group_tests_name("alloc", tests, NULL, NULL);
}
