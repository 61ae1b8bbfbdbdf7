// SPDX-License-Identifier: GPL-2.0
/* One allocator per device (issue 16): each device's own range, marks on
 * the device an extent names, where simple and interleaved files go,
 * --device checks. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th.h"

#define UNIT FAMFS_ALLOC_UNIT

/* primary: 64 MiB, 8 MiB log -> units 0..4 reserved (sb + log), 5..31
 * free (27); member 1: 32 MiB (1..15 free: 15); member 2: 128 MiB (63) */
static void three(struct famfs_alloc *a, unsigned n)
{
	struct famfs_superblock sb;
	uint8_t u[16] = { 1, 2, 3 };

	famfs_sb_init(&sb, u, u, 64 * MiB, 8 * MiB);
	assert_int_equal(famfs_alloc_init(a, &sb), 0);
	if (n > 1)
		assert_int_equal(famfs_alloc_add_dev(a, 1, FAMFS_MEMBER_DATA_OFFSET,
						     32 * MiB), 0);
	if (n > 2)
		assert_int_equal(famfs_alloc_add_dev(a, 2, FAMFS_MEMBER_DATA_OFFSET,
						     128 * MiB), 0);
}

static void test_each_device_its_range(void **state)
{
	struct famfs_alloc a;
	uint64_t first;

	(void)state;
	three(&a, 3);
	assert_int_equal(a.ndevs, 3);
	assert_int_equal(a.dev[0].nfree, 27);
	assert_int_equal(a.dev[1].nunits, 16);
	assert_int_equal(a.dev[1].nfree, 15);	/* unit 0: its superblock */
	assert_int_equal(a.dev[2].nfree, 63);
	assert_int_equal(famfs_alloc_nfree(&a), 27 + 15 + 63);
	assert_true(famfs_bitmap_test(&a.dev[1], 0));
	assert_false(famfs_bitmap_test(&a.dev[1], 1));
	/* a member's first data unit is at 2 MiB, the primary's after the log */
	assert_int_equal(famfs_bitmap_take(&a.dev[1], 1, &first), 0);
	assert_int_equal(first, 1);
	assert_int_equal(famfs_bitmap_take(&a.dev[0], 1, &first), 0);
	assert_int_equal(first, 5);
	/* out of order, or past the table */
	assert_int_equal(famfs_alloc_add_dev(&a, 5, UNIT, 8 * MiB), -EINVAL);
	famfs_alloc_free(&a);
	assert_int_equal(a.ndevs, 0);
}

static struct famfs_log_entry entry2(unsigned d0, uint64_t o0, unsigned d1,
				     uint64_t o1)
{
	struct famfs_log_entry e;
	struct famfs_log_simple_ext x[2] = {
		{ htole64(o0), htole64(2 * UNIT) },
		{ htole64(o1), htole64(UNIT) },
	};

	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "f", 3 * UNIT,
					   0644, 0, 0, x, 2), 0);
	e.fm.reserved[0] = (uint8_t)d0;
	e.fm.reserved[1] = (uint8_t)d1;
	return e;
}

/* the same offsets on two devices are two allocations, not an overlap;
 * an extent marks only the device it names */
static void test_mark_per_device(void **state)
{
	struct famfs_alloc a;
	struct famfs_log_entry e = entry2(1, 4 * MiB, 2, 4 * MiB);

	(void)state;
	three(&a, 3);
	famfs_alloc_mark(&a, &e);
	assert_int_equal(a.dev[0].nfree, 27);
	assert_int_equal(a.dev[1].nfree, 13);
	assert_int_equal(a.dev[2].nfree, 62);
	assert_true(famfs_bitmap_test(&a.dev[1], 2));
	assert_true(famfs_bitmap_test(&a.dev[1], 3));
	assert_false(famfs_bitmap_test(&a.dev[1], 4));
	assert_true(famfs_bitmap_test(&a.dev[2], 2));
	assert_false(famfs_bitmap_test(&a.dev[2], 3));
	assert_false(famfs_bitmap_test(&a.dev[0], 2 + 5));
	/* the same entry again on the primary: its own units, the members'
	 * stay as they are */
	e = entry2(0, 20 * MiB, 0, 24 * MiB);
	famfs_alloc_mark(&a, &e);
	assert_int_equal(a.dev[0].nfree, 24);
	assert_int_equal(a.dev[1].nfree, 13);
	/* a device the set does not have (yet): nothing marked anywhere */
	e = entry2(3, 10 * MiB, 0, 40 * MiB);
	famfs_alloc_mark(&a, &e);
	assert_int_equal(a.dev[0].nfree, 23);
	assert_int_equal(famfs_alloc_nfree(&a), 23 + 13 + 62);
	famfs_alloc_free(&a);
}

/* a simple file: the device with the most free space; the next one when
 * that cannot hold it; --device wins */
static void test_place_most_free(void **state)
{
	struct famfs_alloc a;
	struct famfs_log_simple_ext x[FAMFS_LOG_MAX_SIMPLE_EXT];
	struct famfs_place pl = { 0 };
	unsigned next, dev = 99;

	(void)state;
	three(&a, 3);
	assert_int_equal(famfs_alloc_place(&a, NULL, UNIT, 16, x, &next, &dev), 0);
	assert_int_equal(dev, 2);		/* 63 free */
	assert_int_equal(le64toh(x[0].offset), UNIT);
	/* 40 units: only device 2 (62 left) */
	assert_int_equal(famfs_alloc_place(&a, &pl, 40 * UNIT, 1, x, &next, &dev), 0);
	assert_int_equal(dev, 2);
	/* now 22 on device 2, 27 on the primary: the primary */
	assert_int_equal(famfs_alloc_place(&a, NULL, UNIT, 16, x, &next, &dev), 0);
	assert_int_equal(dev, 0);
	assert_int_equal(le64toh(x[0].offset), 5 * UNIT);
	/* 24 units: the primary has 26 but device 2 is next with 22: the
	 * primary holds it */
	assert_int_equal(famfs_alloc_place(&a, NULL, 24 * UNIT, 1, x, &next, &dev), 0);
	assert_int_equal(dev, 0);
	/* 20: device 2 (22) is the most free now, then device 1 (15) */
	assert_int_equal(famfs_alloc_place(&a, NULL, 20 * UNIT, 1, x, &next, &dev), 0);
	assert_int_equal(dev, 2);
	/* 10: device 1 (15) is the most free */
	assert_int_equal(famfs_alloc_place(&a, NULL, 10 * UNIT, 1, x, &next, &dev), 0);
	assert_int_equal(dev, 1);
	/* --device 0: only it, even with less free */
	pl.has_dev = true;
	pl.dev = 0;
	assert_int_equal(famfs_alloc_place(&a, &pl, UNIT, 1, x, &next, &dev), 0);
	assert_int_equal(dev, 0);
	assert_int_equal(famfs_alloc_place(&a, &pl, 4 * UNIT, 1, x, &next, &dev),
			 -ENOSPC);		/* 1 left there; 5 on device 1 */
	famfs_alloc_free(&a);
}

/* a single device: every file where it always went */
static void test_place_one_device(void **state)
{
	struct famfs_alloc a;
	struct famfs_log_simple_ext x[FAMFS_LOG_MAX_SIMPLE_EXT];
	struct famfs_log_interleave_ext ie;
	uint8_t devs[FAMFS_LOG_MAX_STRIPS];
	unsigned next, dev;
	bool shared;

	(void)state;
	three(&a, 1);
	assert_int_equal(famfs_alloc_place(&a, NULL, UNIT, 16, x, &next, &dev), 0);
	assert_int_equal(dev, 0);
	assert_int_equal(le64toh(x[0].offset), 5 * UNIT);
	assert_int_equal(famfs_alloc_place_strips(&a, NULL, 4 * UNIT, 2, UNIT,
						  &ie, devs, &shared), 0);
	assert_true(shared);
	assert_int_equal(devs[0], 0);
	assert_int_equal(devs[1], 0);
	assert_int_equal(le64toh(ie.strip_off[0]), 6 * UNIT);
	assert_int_equal(le64toh(ie.strip_off[1]), 8 * UNIT);
	famfs_alloc_free(&a);
}

static void test_device_check(void **state)
{
	struct famfs_alloc a;
	struct famfs_place pl = { .has_dev = true, .dev = 3 };
	char why[FAMFS_REASON_LEN] = "";
	struct famfs_log_simple_ext x[1];
	unsigned next, dev;

	(void)state;
	three(&a, 3);
	assert_int_equal(famfs_place_check(&a, &pl, why), -ENODEV);
	assert_non_null(strstr(why, "device 3: no such device"));
	assert_non_null(strstr(why, "0-2"));
	assert_int_equal(famfs_alloc_place(&a, &pl, UNIT, 1, x, &next, &dev),
			 -ENODEV);
	pl.dev = 2;
	assert_int_equal(famfs_place_check(&a, &pl, why), 0);
	assert_int_equal(famfs_place_check(&a, NULL, why), 0);
	famfs_alloc_free(&a);
	three(&a, 1);
	pl.dev = 1;
	assert_int_equal(famfs_place_check(&a, &pl, why), -ENODEV);
	assert_non_null(strstr(why, "one device: 0"));
	famfs_alloc_free(&a);
}

/* -N k over at least k devices: every strip on another device */
static void test_strips_distinct(void **state)
{
	struct famfs_alloc a;
	struct famfs_log_interleave_ext ie;
	uint8_t devs[FAMFS_LOG_MAX_STRIPS];
	bool shared = true;

	(void)state;
	three(&a, 3);
	assert_int_equal(famfs_alloc_place_strips(&a, NULL, 6 * UNIT, 3, UNIT,
						  &ie, devs, &shared), 0);
	assert_false(shared);
	assert_int_equal(devs[0], 0);
	assert_int_equal(devs[1], 1);
	assert_int_equal(devs[2], 2);
	assert_int_equal(le64toh(ie.strip_len), 2 * UNIT);
	assert_int_equal(le64toh(ie.strip_off[0]), 5 * UNIT);
	assert_int_equal(le64toh(ie.strip_off[1]), 1 * UNIT);
	assert_int_equal(le64toh(ie.strip_off[2]), 1 * UNIT);
	assert_int_equal(a.dev[1].nfree, 13);
	/* -N 2 of 3 devices: the two with the most free (2: 61, 0: 25), in
	 * index order */
	assert_int_equal(famfs_alloc_place_strips(&a, NULL, 2 * UNIT, 2, UNIT,
						  &ie, devs, &shared), 0);
	assert_false(shared);
	assert_int_equal(devs[0], 0);
	assert_int_equal(devs[1], 2);
	/* --device 1: all on it */
	struct famfs_place pl = { .has_dev = true, .dev = 1 };

	assert_int_equal(famfs_alloc_place_strips(&a, &pl, 4 * UNIT, 2, UNIT,
						  &ie, devs, &shared), 0);
	assert_int_equal(devs[0], 1);
	assert_int_equal(devs[1], 1);
	assert_int_equal(le64toh(ie.strip_off[0]) + 2 * UNIT,
			 le64toh(ie.strip_off[1]));
	famfs_alloc_free(&a);
}

/* -N k over fewer devices: strip i on device i % ndevs, said so; all or
 * nothing when one device has no room */
static void test_strips_fewer(void **state)
{
	struct famfs_alloc a;
	struct famfs_log_interleave_ext ie;
	uint8_t devs[FAMFS_LOG_MAX_STRIPS];
	bool shared = false;

	(void)state;
	three(&a, 2);
	assert_int_equal(famfs_alloc_place_strips(&a, NULL, 4 * UNIT, 4, UNIT,
						  &ie, devs, &shared), 0);
	assert_true(shared);
	for (int i = 0; i < 4; i++)
		assert_int_equal(devs[i], i % 2);
	assert_int_equal(le64toh(ie.strip_off[0]), 5 * UNIT);
	assert_int_equal(le64toh(ie.strip_off[1]), 1 * UNIT);
	assert_int_equal(le64toh(ie.strip_off[2]), 6 * UNIT);
	assert_int_equal(le64toh(ie.strip_off[3]), 2 * UNIT);
	/* strips of 8 units: device 1 (13 left) holds one, not two */
	uint64_t f0 = a.dev[0].nfree, f1 = a.dev[1].nfree;

	assert_int_equal(famfs_alloc_place_strips(&a, NULL, 32 * UNIT, 4,
						  UNIT * 8, &ie, devs, &shared),
			 -ENOSPC);
	assert_int_equal(a.dev[0].nfree, f0);
	assert_int_equal(a.dev[1].nfree, f1);
	famfs_alloc_free(&a);
}

/* through a create: --device of a device the file system lacks is
 * refused before anything is taken or logged; device 0 is fine, and the
 * entry's device bytes stay zero (the v1 form of a one-device file) */
static void test_create_device(void **state)
{
	struct th *t = th_new(64 * MiB, 2 * MiB);
	struct famfs_layout lay = { .place = { .has_dev = true, .dev = 1 } };
	struct famfs_log_entry e;
	uint64_t next = famfs_log_next(t->fs.log);
	int fd;

	(void)state;
	assert_int_equal(famfs_file_create_layout(&t->fs, "x", 1, 0644, 0, 0,
						  &lay), -ENODEV);
	assert_int_equal(famfs_log_next(t->fs.log), next);
	assert_false(th_exists(t, "x", false));
	lay.place.dev = 0;
	fd = famfs_file_create_layout(&t->fs, "x", 1, 0644, 0, 0, &lay);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(famfs_log_next(t->fs.log), next + 1);
	assert_int_equal(famfs_log_entry_at(&t->fs, next, &e), 0);
	for (unsigned i = 0; i < sizeof(e.fm.reserved); i++)
		assert_int_equal(e.fm.reserved[i], 0);
	th_free(t);
}

static const uint8_t U1[16] = { 0xd1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
static const uint8_t U2[16] = { 0xd2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 };

/* a compact fs (64 MiB, 2 MiB log: units 0, 1 reserved) with MULTIDEV
 * and members 1 (32 MiB) and 2 (64 MiB) in the log */
static struct th *with_members(void)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	struct famfs_log_entry e;

	th_sb_media(t)->feature_incompat |= htole32(FAMFS_FEATURE_INCOMPAT_MULTIDEV);
	th_sb_commit(t);
	famfs_entry_build_devadd(&e, 1, U1, 32 * MiB);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	famfs_entry_build_devadd(&e, 2, U2, 64 * MiB);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	return t;
}

static void append_on(struct th *t, const char *path, unsigned dev,
		      uint64_t off, uint64_t len)
{
	struct famfs_log_entry e;
	struct famfs_log_simple_ext x = { htole64(off), htole64(len) };

	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, path, len, 0644,
					   0, 0, &x, 1), 0);
	e.fm.reserved[0] = (uint8_t)dev;
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
}

/* the replay: each device's allocator marks its own extents (the same
 * offsets on three devices); df per device and the sums */
static void test_build_and_df(void **state)
{
	struct th *t = with_members();
	struct famfs_alloc a;
	struct famfs_df df;

	(void)state;
	append_on(t, "on1", 1, 4 * MiB, 4 * MiB);
	append_on(t, "on2", 2, 4 * MiB, 4 * MiB);
	append_on(t, "on0", 0, 4 * MiB, 2 * MiB);
	assert_int_equal(famfs_alloc_build(&t->fs, &a), 0);
	assert_int_equal(a.ndevs, 3);
	assert_int_equal(a.dev[0].nfree, 32 - 2 - 1);
	assert_int_equal(a.dev[1].nfree, 16 - 1 - 2);
	assert_int_equal(a.dev[2].nfree, 32 - 1 - 2);
	assert_true(famfs_bitmap_test(&a.dev[1], 2));
	assert_true(famfs_bitmap_test(&a.dev[2], 3));
	assert_false(famfs_bitmap_test(&a.dev[0], 3));
	famfs_alloc_free(&a);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.ndevs, 3);
	assert_int_equal(df.dev[0].size, 64 * MiB);
	assert_int_equal(df.dev[0].reserved, 4 * MiB);
	assert_int_equal(df.dev[0].used, 2 * MiB);
	assert_int_equal(df.dev[0].free, 58 * MiB);
	assert_int_equal(df.dev[1].size, 32 * MiB);
	assert_int_equal(df.dev[1].reserved, 2 * MiB);
	assert_int_equal(df.dev[1].used, 4 * MiB);
	assert_int_equal(df.dev[1].free, 26 * MiB);
	assert_int_equal(df.dev[2].used, 4 * MiB);
	assert_int_equal(df.dev[2].free, 58 * MiB);
	assert_int_equal(df.size, 160 * MiB);
	assert_int_equal(df.reserved, 8 * MiB);
	assert_int_equal(df.used, 10 * MiB);
	assert_int_equal(df.free, 142 * MiB);
	assert_int_equal(df.files, 3);
	th_free(t);
}

/* the create cache of a master with members: files go where the policy
 * says, and their extents name that device */
static void test_cache_places(void **state)
{
	struct th *t = with_members();
	struct famfs_alloc *a;

	(void)state;
	append_on(t, "on2", 2, 4 * MiB, 8 * MiB);	/* 2: 27 free */
	assert_int_equal(famfs_fs_cache_update(&t->fs), 0);
	a = t->fs.cache_alloc;
	assert_non_null(a);
	assert_int_equal(a->ndevs, 3);
	assert_int_equal(a->dev[0].nfree, 30);
	assert_int_equal(a->dev[1].nfree, 15);
	assert_int_equal(a->dev[2].nfree, 27);
	famfs_fs_cache_drop(&t->fs);
	th_free(t);
}

/* a member superblock for index in file root/name (a plain file of the
 * member's size stands for the device) */
static void member_file(struct th *t, const char *root, const char *name,
			const uint8_t du[16], uint32_t index, uint64_t size)
{
	struct famfs_member_sb m;
	char p[600];
	int fd;

	famfs_member_init(&m, t->fs.sb->fs_uuid, du, index,
			  le64toh(t->fs.sb->ctime), size);
	snprintf(p, sizeof(p), "%s/%s", root, name);
	fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	assert_int_equal(pwrite(fd, &m, sizeof(m), 0), (ssize_t)sizeof(m));
	close(fd);
}

/* Member 2 is in the log but not attached on this host (the mock has
 * member 1 only, the log's device): automatic placement skips it -- the device with the
 * most free space that is here, said once -- and so does striping; an
 * explicit --device 2 is refused before anything is taken or logged,
 * naming the device and its uuid. */
static void test_place_attached_only(void **state)
{
	struct th *t = with_members();
	struct famfs_layout lay = { .nstrips = 2, .chunk = 2 * MiB };
	char root[256], p[600];
	struct famfs_log_entry e;
	char msg[4096], u[37];
	uint64_t next;
	int fd;

	(void)state;
	th_tmpl(root, sizeof(root), "famfs-ut-place");
	assert_non_null(mkdtemp(root));
	famfs_scan_root = root;
	/* member 1 attached: a plain file with its member superblock, which
	 * famfs_fs_member_here finds by the number the mock reports */
	member_file(t, root, "pmem1", U1, 1, 32 * MiB);
	snprintf(p, sizeof(p), "%s/pmem1", root);
	assert_int_equal(famfs_mount_dev_add(t->fs.mpt, p, 1, 32 * MiB), 0);
	/* free units: 0: 30, 1: 15, 2: 31 (not here) */
	th_stderr_grab();
	fd = famfs_file_create_layout(&t->fs, "a", 2 * MiB, 0644, 0, 0, NULL);
	th_stderr_take(msg, sizeof(msg));
	assert_true(fd >= 0);
	close(fd);
	next = famfs_log_next(t->fs.log);
	assert_int_equal(famfs_log_entry_at(&t->fs, next - 1, &e), 0);
	assert_int_equal(famfs_entry_devindex(&e, 0), 0);
	assert_non_null(strstr(msg, "device 2"));
	assert_non_null(strstr(msg, "not attached on this host"));
	/* said once */
	th_stderr_grab();
	fd = famfs_file_create_layout(&t->fs, "b", 2 * MiB, 0644, 0, 0, NULL);
	th_stderr_take(msg, sizeof(msg));
	assert_true(fd >= 0);
	close(fd);
	assert_null(strstr(msg, "not attached"));
	/* two strips: on the two devices here */
	fd = famfs_file_create_layout(&t->fs, "s", 4 * MiB, 0644, 0, 0, &lay);
	assert_true(fd >= 0);
	close(fd);
	next = famfs_log_next(t->fs.log);
	assert_int_equal(famfs_log_entry_at(&t->fs, next - 1, &e), 0);
	assert_int_equal(famfs_entry_devindex(&e, 0), 0);
	assert_int_equal(famfs_entry_devindex(&e, 1), 1);
	/* --device 2: refused early */
	lay = (struct famfs_layout){ .place = { .has_dev = true, .dev = 2 } };
	th_stderr_grab();
	assert_int_equal(famfs_file_create_layout(&t->fs, "c", 1, 0644, 0, 0,
						  &lay), -ENODEV);
	th_stderr_take(msg, sizeof(msg));
	assert_int_equal(famfs_log_next(t->fs.log), next);
	assert_false(th_exists(t, "c", false));
	famfs_uuid_str(U2, u);
	assert_non_null(strstr(msg, "device 2"));
	assert_non_null(strstr(msg, u));
	assert_non_null(strstr(msg, "not attached on this host"));
	/* --device 1 (here) is fine */
	lay.place.dev = 1;
	fd = famfs_file_create_layout(&t->fs, "c", 1, 0644, 0, 0, &lay);
	assert_true(fd >= 0);
	close(fd);
	th_mock_devs_reset();
	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	assert_int_equal(system(p), 0);
	famfs_scan_root = "/dev";
	th_free(t);
}

/* fsck: overlap per device; every member must be here with its
 * superblock */
static void test_fsck_members(void **state)
{
	struct th *t = with_members();
	struct famfs_fsck_result r;
	char root[256], p[600];
	int fd;

	(void)state;
	th_tmpl(root, sizeof(root), "famfs-ut-place");
	assert_non_null(mkdtemp(root));
	famfs_scan_root = root;
	append_on(t, "a1", 1, 4 * MiB, 4 * MiB);
	append_on(t, "a2", 2, 4 * MiB, 4 * MiB);	/* same offset: fine */
	append_on(t, "a0", 0, 4 * MiB, 4 * MiB);
	/* no member on this host */
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.ndevs, 3);
	assert_int_equal(r.members_bad, 2);
	assert_int_equal(r.problems, 2);
	assert_int_equal(r.used_bytes, 12 * MiB);
	assert_int_equal(r.free_bytes, (60 + 30 + 62) * MiB - 12 * MiB);
	/* both here */
	member_file(t, root, "pmem1", U1, 1, 32 * MiB);
	member_file(t, root, "dax3.0", U2, 2, 64 * MiB);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	assert_true(r.dev_ok[1] && r.dev_ok[2]);
	assert_non_null(strstr(r.dev_path[2], "dax3.0"));
	/* member 2's superblock damaged (a reserved byte): refused, missing */
	snprintf(p, sizeof(p), "%s/dax3.0", root);
	fd = open(p, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "x", 1, 300), 1);
	close(fd);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.members_bad, 1);
	assert_false(r.dev_ok[2]);
	assert_true(r.dev_ok[1]);
	/* a member superblock smaller than the log says */
	member_file(t, root, "dax3.0", U2, 2, 32 * MiB);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.members_bad, 1);
	/* an overlap on device 1 is one */
	member_file(t, root, "dax3.0", U2, 2, 64 * MiB);
	append_on(t, "b1", 1, 6 * MiB, 2 * MiB);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.members_bad, 0);
	assert_int_equal(r.problems, 1);
	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	assert_int_equal(system(p), 0);
	famfs_scan_root = "/dev";
	th_free(t);
}

/* a deleted file on member 2, which is not attached on this host: famfs.ko
 * refuses HELD for a device it lacks (EINVAL), and this host cannot map
 * that memory -- its report holds nothing there, rather than failing, which
 * kept its slot from ever being updated and so every reclaim blocked */
static int held_absent_einval(struct famfs_ioc_held_range *r)
{
	if (r->dev && !th_mock_devs[r->dev].on)
		return -EINVAL;
	if (!r->dev)
		r->held = r->len;
	return 0;
}

static void test_holds_absent_member(void **state)
{
	struct th *t = with_members();
	struct famfs_log_entry e;
	uint64_t obj, from, bytes;
	int q = famfs_quiet;

	(void)state;
	th_mock_devs[1].on = true;
	th_sb_media(t)->feature_incompat |= htole32(FAMFS_FEATURE_INCOMPAT_DELETE);
	th_sb_commit(t);
	obj = famfs_log_next(t->fs.log);
	append_on(t, "on2", 2, 4 * MiB, 4 * MiB);
	assert_int_equal(famfs_entry_build_delete(&e, obj, FAMFS_LOG_FILE, "on2"), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	th_mock_held_hook = held_absent_einval;
	famfs_quiet = 1;
	assert_int_equal(famfs_holds_kernel(&t->fs, &from, &bytes), 0);
	famfs_quiet = q;
	assert_true(from == FAMFS_HOLDS_NONE);
	assert_int_equal(bytes, 0);
	/* one on device 0 is still asked, and held */
	obj = famfs_log_next(t->fs.log);
	append_on(t, "on0", 0, 8 * MiB, 2 * MiB);
	assert_int_equal(famfs_entry_build_delete(&e, obj, FAMFS_LOG_FILE, "on0"), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	assert_int_equal(famfs_holds_kernel(&t->fs, &from, &bytes), 0);
	assert_int_equal(from, obj + 1);
	assert_int_equal(bytes, 2 * MiB);
	th_mock_held_hook = NULL;
	th_mock_devs_reset();
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_device_its_range),
		cmocka_unit_test(test_mark_per_device),
		cmocka_unit_test(test_place_most_free),
		cmocka_unit_test(test_place_one_device),
		cmocka_unit_test(test_device_check),
		cmocka_unit_test(test_strips_distinct),
		cmocka_unit_test(test_strips_fewer),
		cmocka_unit_test(test_create_device),
		cmocka_unit_test(test_build_and_df),
		cmocka_unit_test(test_cache_places),
		cmocka_unit_test(test_place_attached_only),
		cmocka_unit_test(test_holds_absent_member),
		cmocka_unit_test(test_fsck_members),
	};

	famfs_quiet = 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
