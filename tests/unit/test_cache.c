// SPDX-License-Identifier: GPL-2.0
/* The create cache of an opening (bitmap + logged paths, ops.c): each
 * create reads only the entries appended since the last one, including
 * those of another opening (another process), and equals a rebuild. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th.h"

/* the cache of fs equals a bitmap rebuilt from the whole log */
static void cache_is_rebuild(struct th *t, struct famfs_fs *fs)
{
	struct famfs_bitmap b;

	assert_non_null(fs->cache_alloc);
	assert_int_equal(fs->cache_next, famfs_log_next(t->fs.log));
	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	assert_int_equal(b.nfree, fs->cache_alloc->dev[0].nfree);
	assert_memory_equal(b.bits, fs->cache_alloc->dev[0].bits, (b.nunits + 63) / 64 * 8);
	famfs_bitmap_free(&b);
}

static void test_incremental(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;
	struct famfs_fs other;

	assert_null(t->fs.cache_alloc);
	th_create_ok(&t->fs, "f1", 3 * MiB);
	assert_int_equal(t->fs.cache_next, 1);
	cache_is_rebuild(t, &t->fs);
	/* another opening (as another process would) appends meanwhile */
	assert_int_equal(famfs_fs_open_dev(t->img, true, &other), 0);
	snprintf(other.mpt, sizeof(other.mpt), "%s", t->mpt);
	th_create_ok(&other, "o1", 5 * MiB);
	assert_int_equal(famfs_mkdir(&other, "d", 0755, 0, 0, false), 0);
	th_create_ok(&other, "d/o2", 1);
	assert_int_equal(t->fs.cache_next, 1);		/* not read yet */
	/* t's next create reads those three and allocates around them */
	th_create_ok(&t->fs, "f2", 2 * MiB);
	assert_int_equal(t->fs.cache_next, 5);
	cache_is_rebuild(t, &t->fs);
	/* a path the other logged is refused by t, from the cache */
	th_create_ok(&other, "o3", 1);
	assert_int_equal(famfs_file_create(&t->fs, "o3", 1, 0644, 0, 0), -EEXIST);
	assert_int_equal(famfs_file_create(&t->fs, "d/o2", 1, 0644, 0, 0), -EEXIST);
	assert_int_equal(famfs_file_create(&t->fs, "f1", 1, 0644, 0, 0), -EEXIST);
	assert_int_equal(famfs_log_next(t->fs.log), 6);
	cache_is_rebuild(t, &t->fs);
	/* and the other way round */
	th_create_ok(&t->fs, "f3", 4 * MiB);
	th_create_ok(&other, "o4", 4 * MiB);
	cache_is_rebuild(t, &other);
	famfs_fs_close(&other);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	assert_int_equal(r.files, 7);
}

/* ENOSPC keeps the cache (nothing allocated); an allocation that is not
 * logged (log full) drops it */
static void test_drop(void **state)
{
	struct th *t = *state;
	uint64_t cap = le64toh(t->fs.log->capacity);

	th_create_ok(&t->fs, "f1", 1);
	assert_int_equal(famfs_file_create(&t->fs, "huge", 1ULL << 40, 0644, 0, 0),
			 -ENOSPC);
	assert_non_null(t->fs.cache_alloc);
	cache_is_rebuild(t, &t->fs);
	while (famfs_log_next(t->fs.log) < cap)
		th_append_dir(t, "x");		/* duplicates: fine here */
	assert_int_equal(famfs_file_create(&t->fs, "g", 1, 0644, 0, 0), -ENOSPC);
	assert_null(t->fs.cache_alloc);		/* the allocation was dropped */
	assert_int_equal(famfs_fs_cache_update(&t->fs), 0);
	cache_is_rebuild(t, &t->fs);
}

/* a corrupt entry: its memory free, its path not logged, in the cache as
 * in a rebuild */
static void test_corrupt_entry(void **state)
{
	struct th *t = *state;

	th_create_ok(&t->fs, "a", 2 * MiB);
	th_create_ok(&t->fs, "b", 2 * MiB);
	famfs_log_slot(t->fs.log, 0)->fm.ctime ^= 1;	/* a is corrupt */
	/* a rebuild from the log (the master's summary still knows what a
	 * owned, and would be used: test_summary.c) */
	famfs_summary_remove(&t->fs);
	famfs_fs_cache_drop(&t->fs);
	assert_int_equal(famfs_fs_cache_update(&t->fs), 0);
	cache_is_rebuild(t, &t->fs);
	/* what a owned is unknown (R3): no create at all, the log unchanged */
	assert_int_equal(t->fs.cache_unparsed, 0);
	{
		char p[700];
		int fd;

		snprintf(p, sizeof(p), "%s/a", t->mpt);
		assert_int_equal(unlink(p), 0);
		th_mock_reset();
		fd = famfs_file_create(&t->fs, "c", 2 * MiB, 0644, 0, 0);
		assert_int_equal(fd, -EUCLEAN);
		assert_int_equal(famfs_log_next(t->fs.log), 2);
	}
	/* the entry repaired (its CRC right again): creates work again */
	famfs_log_slot(t->fs.log, 0)->fm.ctime ^= 1;
	famfs_fs_cache_drop(&t->fs);
	th_create_ok(&t->fs, "c", 2 * MiB);
	assert_int_equal(famfs_log_next(t->fs.log), 3);
}

/* issue 27 item 3's cost: the parents of a new path are judged by the log
 * once per directory a batch creates in, not once per file (each hit of
 * the path table reads its log entry to confirm it); a file entry that
 * could be one of them (here another opening's) makes it look again */
static void plain(struct th *t, const char *rel, bool dir, bool make)
{
	char p[700];

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	if (make)
		assert_int_equal(mkdir(p, 0755), 0);
	else
		assert_int_equal(dir ? rmdir(p) : unlink(p), 0);
}

static void test_parents_looked_up_once(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;
	struct famfs_fs other;
	unsigned long c;

	assert_int_equal(famfs_mkdir(&t->fs, "d/e", 0755, 0, 0, true), 0);
	famfs_summary_stats.confirms = 0;
	for (unsigned i = 0; i < 20; i++) {
		char n[32];

		snprintf(n, sizeof(n), "d/e/f%u", i);
		th_create_ok(&t->fs, n, 1);
	}
	/* d and d/e once, for the first file */
	assert_true(famfs_summary_stats.confirms <= 2);
	/* q made here without famfs; t creates q/a (q: no file above) */
	plain(t, "q", true, true);
	th_create_ok(&t->fs, "q/a", 1);
	/* another opening: q/a and q removed here, q logged as a file (a
	 * file where the log has only paths below it is not refused: the
	 * path table holds logged paths, not the directories they imply;
	 * fsck says so) */
	assert_int_equal(famfs_fs_open_dev(t->img, true, &other), 0);
	snprintf(other.mpt, sizeof(other.mpt), "%s", t->mpt);
	plain(t, "q/a", false, false);
	plain(t, "q", true, false);
	th_create_ok(&other, "q", 1);
	famfs_fs_close(&other);
	plain(t, "q", false, false);
	plain(t, "q", true, true);
	/* t's next create under q reads that entry: q is a file now */
	c = famfs_summary_stats.confirms;
	assert_int_equal(famfs_file_create(&t->fs, "q/b", 1, 0644, 0, 0), -ENOTDIR);
	assert_true(famfs_summary_stats.confirms > c);
	plain(t, "q", true, false);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.files, 22);
	assert_int_equal(r.problems, 1);	/* q, where q/a belongs */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_incremental, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_drop, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_entry, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_parents_looked_up_once, th_setup, th_teardown),
	};

	return cmocka_run_group_tests_name("cache", tests, NULL, NULL);
}
