// SPDX-License-Identifier: GPL-2.0
/* 1 GiB-aligned allocation (issue 31): famfs_alloc_aligned() puts a simple
 * file in one run that starts on a multiple of the alignment (device offset
 * and file offset 0 both 1 GiB-aligned, so famfs.ko can map it with PUD
 * entries), or says -ENOSPC and leaves the bitmap as it was;
 * famfs_bitmap_free_aligned() counts the wholly free aligned runs that
 * famfs df shows. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

#define GiB (1024ULL * MiB)
#define AL (GiB / FAMFS_ALLOC_UNIT)	/* units per GiB */

/* A 5 GiB device whose first 8 MiB (superblock, log) are used */
static void dev5g(struct famfs_bitmap *b)
{
	assert_int_equal(famfs_bitmap_init_dev(b, 8 * MiB, 5 * GiB), 0);
}

static void test_aligned_basic(void **state)
{
	struct famfs_bitmap b;
	struct famfs_log_simple_ext x;

	(void)state;
	dev5g(&b);
	assert_int_equal(famfs_bitmap_free_aligned(&b, AL), 4);
	/* 8 MiB..1 GiB is free but not aligned: the first aligned GiB */
	assert_int_equal(famfs_alloc_aligned(&b, GiB + 4096, AL, &x), 0);
	assert_int_equal(le64toh(x.offset), GiB);
	assert_int_equal(le64toh(x.len), GiB + 2 * MiB);
	/* 1G..2G+2M used: GiB 2 is not whole any more */
	assert_int_equal(famfs_bitmap_free_aligned(&b, AL), 2);
	assert_int_equal(famfs_alloc_aligned(&b, 2 * GiB, AL, &x), 0);
	assert_int_equal(le64toh(x.offset), 3 * GiB);
	assert_int_equal(famfs_bitmap_free_aligned(&b, AL), 0);
	/* room (8 MiB..1 GiB, 2G+2M..3G) but no aligned run */
	{
		uint64_t nfree = b.nfree;

		assert_int_equal(famfs_alloc_aligned(&b, 2 * MiB, AL, &x), -ENOSPC);
		assert_int_equal(b.nfree, nfree);
		assert_int_equal(famfs_alloc(&b, 2 * MiB, &x), 0);
		assert_int_equal(le64toh(x.offset), 8 * MiB);
	}
	famfs_bitmap_free(&b);
}

/* One used unit in the middle of each of GiBs 1 and 2: the next aligned
 * run of 1 GiB is GiB 3; a 2 GiB request does not fit at all. */
static void test_aligned_skips_used(void **state)
{
	struct famfs_bitmap b;
	struct famfs_log_simple_ext x;

	(void)state;
	dev5g(&b);
	famfs_bitmap_mark_range(&b, GiB + 300 * MiB, 2 * MiB);
	famfs_bitmap_mark_range(&b, 2 * GiB + 1022 * MiB, 2 * MiB);
	assert_int_equal(famfs_bitmap_free_aligned(&b, AL), 2);
	assert_int_equal(famfs_alloc_aligned(&b, 2 * GiB + 1, AL, &x), -ENOSPC);
	assert_int_equal(famfs_alloc_aligned(&b, 2 * GiB, AL, &x), 0);
	assert_int_equal(le64toh(x.offset), 3 * GiB);
	assert_int_equal(le64toh(x.len), 2 * GiB);
	famfs_bitmap_free(&b);
}

/* The end of the device: a run that would pass it is refused. */
static void test_aligned_device_end(void **state)
{
	struct famfs_bitmap b;
	struct famfs_log_simple_ext x;

	(void)state;
	assert_int_equal(famfs_bitmap_init_dev(&b, 8 * MiB, 2 * GiB + 512 * MiB), 0);
	assert_int_equal(famfs_bitmap_free_aligned(&b, AL), 1);
	/* 1 GiB + 514 MiB from 1 GiB would end 2 MiB past the device */
	assert_int_equal(famfs_alloc_aligned(&b, GiB + 514 * MiB, AL, &x), -ENOSPC);
	assert_int_equal(famfs_alloc_aligned(&b, GiB, AL, &x), 0);
	assert_int_equal(le64toh(x.offset), GiB);
	assert_int_equal(famfs_alloc_aligned(&b, 2 * MiB, AL, &x), 0);
	assert_int_equal(le64toh(x.offset), 2 * GiB);
	famfs_bitmap_free(&b);
}

/* Bad alignments: -EINVAL, nothing taken. */
static void test_aligned_invalid(void **state)
{
	struct famfs_bitmap b;
	struct famfs_log_simple_ext x;

	(void)state;
	dev5g(&b);
	assert_int_equal(famfs_alloc_aligned(&b, GiB, 0, &x), -EINVAL);
	assert_int_equal(famfs_alloc_aligned(&b, GiB, 3, &x), -EINVAL);
	assert_int_equal(famfs_bitmap_free_aligned(&b, 0), 0);
	assert_int_equal(b.nfree, (5 * GiB - 8 * MiB) / FAMFS_ALLOC_UNIT);
	famfs_bitmap_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aligned_basic),
		cmocka_unit_test(test_aligned_skips_used),
		cmocka_unit_test(test_aligned_device_end),
		cmocka_unit_test(test_aligned_invalid),
	};

	return cmocka_run_group_tests_name("align", tests, NULL, NULL);
}
