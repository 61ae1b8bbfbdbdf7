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

/* take_aligned: the units interface of the same search */
static void test_take_aligned(void **state)
{
	struct famfs_bitmap b;
	uint64_t first = 7, nfree;

	(void)state;
	dev5g(&b);
	assert_int_equal(famfs_bitmap_take_aligned(&b, AL, AL, &first), 0);
	assert_int_equal(first, AL);
	assert_int_equal(famfs_bitmap_take_aligned(&b, 3 * AL, AL, &first), 0);
	assert_int_equal(first, 2 * AL);
	nfree = b.nfree;
	assert_int_equal(famfs_bitmap_take_aligned(&b, 1, AL, &first), -ENOSPC);
	assert_int_equal(b.nfree, nfree);
	assert_int_equal(famfs_bitmap_take_aligned(&b, 1, 3, &first), -EINVAL);
	famfs_bitmap_free(&b);
}

/* A primary of 5 GiB (8 MiB log) and a member of 5 GiB (data from 2 MiB) */
static void two5g(struct famfs_alloc *a)
{
	struct famfs_superblock sb;
	uint8_t u[16] = { 1, 2, 3 };

	famfs_sb_init(&sb, u, u, 5 * GiB, 8 * MiB);
	assert_int_equal(famfs_alloc_init(a, &sb), 0);
	assert_int_equal(famfs_alloc_add_dev(a, 1, FAMFS_MEMBER_DATA_OFFSET,
					     5 * GiB), 0);
}

static uint64_t soff(const struct famfs_log_interleave_ext *ie, unsigned i)
{
	return le64toh(ie->strip_off[i]);
}

/* Interleaved, 1 GiB chunks: every strip starts on a 1 GiB boundary of its
 * device, so every chunk does: a strip a device, strips sharing a device
 * (round robin), all on one (--device), 2 GiB chunks */
static void test_strips_aligned(void **state)
{
	struct famfs_alloc a;
	struct famfs_log_interleave_ext ie;
	struct famfs_place pl = { .has_dev = true, .dev = 1 };
	uint8_t devs[FAMFS_LOG_MAX_STRIPS];
	bool shared = true;

	(void)state;
	two5g(&a);
	/* 2 GiB, 2 strips: GiB 1 of each device */
	assert_int_equal(famfs_alloc_place_strips_aligned(&a, NULL, 2 * GiB, 2,
							  GiB, AL, &ie, devs,
							  &shared), 0);
	assert_false(shared);
	assert_int_equal(devs[0], 0);
	assert_int_equal(devs[1], 1);
	assert_int_equal(le32toh(ie.nstrips), 2);
	assert_int_equal(le64toh(ie.chunk_size), GiB);
	assert_int_equal(le64toh(ie.strip_len), GiB);
	assert_int_equal(soff(&ie, 0), GiB);
	assert_int_equal(soff(&ie, 1), GiB);
	/* 3 strips on 2 devices: strips 0 and 2 on the primary, GiBs 2, 3 */
	assert_int_equal(famfs_alloc_place_strips_aligned(&a, NULL, 3 * GiB, 3,
							  GiB, AL, &ie, devs,
							  &shared), 0);
	assert_true(shared);
	assert_int_equal(devs[0], 0);
	assert_int_equal(devs[1], 1);
	assert_int_equal(devs[2], 0);
	assert_int_equal(soff(&ie, 0), 2 * GiB);
	assert_int_equal(soff(&ie, 1), 2 * GiB);
	assert_int_equal(soff(&ie, 2), 3 * GiB);
	/* --device 1: both strips there, GiBs 3 and 4 */
	assert_int_equal(famfs_alloc_place_strips_aligned(&a, &pl, GiB + 1, 2,
							  GiB, AL, &ie, devs,
							  &shared), 0);
	assert_int_equal(devs[0], 1);
	assert_int_equal(devs[1], 1);
	assert_int_equal(soff(&ie, 0), 3 * GiB);
	assert_int_equal(soff(&ie, 1), 4 * GiB);
	assert_int_equal(famfs_bitmap_free_aligned(&a.dev[0], AL), 1);
	assert_int_equal(famfs_bitmap_free_aligned(&a.dev[1], AL), 0);
	famfs_alloc_free(&a);

	/* 2 GiB chunks: 4 GiB in 2 strips of 2 GiB, GiBs 1-2 of each */
	two5g(&a);
	assert_int_equal(famfs_alloc_place_strips_aligned(&a, NULL, 4 * GiB, 2,
							  2 * GiB, AL, &ie,
							  devs, &shared), 0);
	assert_int_equal(le64toh(ie.strip_len), 2 * GiB);
	assert_int_equal(soff(&ie, 0), GiB);
	assert_int_equal(soff(&ie, 1), GiB);
	famfs_alloc_free(&a);
}

/* No aligned room for every strip: -ENOSPC and every device as it was,
 * where unaligned strips would fit; a chunk that is not a multiple of
 * 1 GiB: -EINVAL */
static void test_strips_aligned_no_room(void **state)
{
	struct famfs_alloc a;
	struct famfs_log_interleave_ext ie;
	struct famfs_place pl = { .has_dev = true, .dev = 0 };
	uint8_t devs[FAMFS_LOG_MAX_STRIPS];
	uint64_t nfree0, nfree1;
	bool shared;

	(void)state;
	two5g(&a);
	/* GiBs 2 and 4 of the primary partly used: 1 and 3 whole */
	famfs_bitmap_mark_range(&a.dev[0], 2 * GiB + 512 * MiB, 2 * MiB);
	famfs_bitmap_mark_range(&a.dev[0], 4 * GiB + 512 * MiB, 2 * MiB);
	nfree0 = a.dev[0].nfree;
	nfree1 = a.dev[1].nfree;
	assert_int_equal(famfs_bitmap_free_aligned(&a.dev[0], AL), 2);
	assert_int_equal(famfs_alloc_place_strips_aligned(&a, &pl, 3 * GiB, 3,
							  GiB, AL, &ie, devs,
							  &shared), -ENOSPC);
	assert_int_equal(devs[0], 0);
	assert_int_equal(a.dev[0].nfree, nfree0);
	assert_int_equal(a.dev[1].nfree, nfree1);
	assert_int_equal(famfs_bitmap_free_aligned(&a.dev[0], AL), 2);
	assert_int_equal(famfs_alloc_place_strips_aligned(&a, &pl, 2 * MiB, 2,
							  2 * MiB, AL, &ie,
							  devs, &shared), -EINVAL);
	assert_int_equal(famfs_alloc_place_strips_aligned(&a, &pl, 2 * GiB, 2,
							  GiB + 2 * MiB, AL,
							  &ie, devs, &shared),
			 -EINVAL);
	assert_int_equal(a.dev[0].nfree, nfree0);
	/* first fit holds them */
	assert_int_equal(famfs_alloc_place_strips(&a, &pl, 3 * GiB, 3, GiB,
						  &ie, devs, &shared), 0);
	famfs_alloc_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aligned_basic),
		cmocka_unit_test(test_aligned_skips_used),
		cmocka_unit_test(test_aligned_device_end),
		cmocka_unit_test(test_aligned_invalid),
		cmocka_unit_test(test_take_aligned),
		cmocka_unit_test(test_strips_aligned),
		cmocka_unit_test(test_strips_aligned_no_room),
	};

	return cmocka_run_group_tests_name("align", tests, NULL, NULL);
}
